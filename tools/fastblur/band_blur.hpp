#pragma once
// Streaming: an image file blurred in bands of rows, each read with a halo of the plan's support, so
// that memory is O(width x (band + 2 halo)) whatever the height, and reading, blurring and writing
// of neighbouring bands overlap on threads. Each band is one piece of the whole call (tiling/pieces:
// a halo as wide as the support gives the whole call's result), so fir is bit-identical to blurring
// the whole image, and the approximations differ only by rounding.
#include <cstdint>
#include <string>

#include "fastblur/device.hpp"
#include "fastblur/plan.hpp"
#include "io/image_file.hpp"

namespace fastblur::cli {

/// How an image of `height` rows (of `row_bytes` bytes in and out together) is cut into bands.
struct Bands {
  std::int64_t rows = 0;  ///< interior rows per band (the last may be shorter); the height: one band
  std::int64_t halo = 0;  ///< rows read above and below a band (0 at the image's top and bottom)
  std::string whole_reason;  ///< why the image is one band ("" when it is cut, or small enough)
};

/// The bands for `plan` (made for the whole image). One band when the image is small, or when the
/// plan cannot be cut along y: a wrap border along y (the top needs the bottom), or a planar
/// algorithm whose levels depend on the image's size (dual-kawase, mip-poisson). `max_band_rows`
/// (0: chosen) caps the interior rows, for tests.
Bands choose_bands(const Plan& plan, std::int64_t height, std::int64_t row_bytes, std::int64_t max_band_rows = 0);

/// Reads `in` band by band, blurs each with `plan.spec` on `device` into `out_type`, and writes the
/// interiors to `out` (which the caller commits). Channels beyond 4 are blurred in groups of 4.
void blur_in_bands(io::ImageRowReader& in, io::ImageRowWriter& out, const Plan& plan, const Bands& bands,
                   ElementType out_type, const Device& device);

}  // namespace fastblur::cli
