#pragma once
/// @file
/// The bundled test scene and image error metrics (DESIGN.md, quality metrics).
#include <cstdint>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::analysis {

/// A generated RGBA float image: shapes with hard edges, fine detail (a zone plate and one-pixel
/// lines), a 12x12 white block on black (seed 002's cross-section test) and one HDR-bright spot
/// (value 64) that makes halo errors visible.
struct TestScene {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::vector<float> rgba;  ///< width * height * 4, packed
  View view();
};
/// Builds the scene at any size >= 16x16. Deterministic: the same size gives the same pixels.
TestScene make_test_scene(std::int64_t width = 512, std::int64_t height = 512);

/// Differences between a result and a reference of the same shape (any element types; compared as
/// double).
struct ImageError {
  double max_abs = 0.0;   ///< largest |a - b|
  double mean_abs = 0.0;  ///< mean |a - b|
  double psnr_db = 0.0;   ///< 10 log10(peak^2 / MSE); +infinity when identical
};
/// `peak` is the signal range used for PSNR (1 for float images in [0,1], 255 for u8...).
ImageError compare(const View& result, const View& reference, double peak);

}  // namespace fastblur::analysis
