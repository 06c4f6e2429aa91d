#pragma once
// The image extended by its border modes into a packed padded buffer: the first step of the planar
// algorithms (dual-kawase, mip-poisson), which read a whole neighbourhood at once.
#include <cstdint>

#include "fastblur/plan.hpp"

namespace fastblur::cpu {

/// A rectangle of a padded image, in padded pixel coordinates (inclusive bounds).
struct PaddedRect {
  std::int64_t x0 = 0, x1 = -1, y0 = 0, y1 = -1;
};

/// Fills `rect` of `padded` (packed rows of `padded_width` pixels of src.channels values) with the
/// 2D image src (depth 1) extended along x and y by the plan's borders (scipy's rules; constant uses
/// its cval). The image's pixel (0, 0) sits at padded (before_x, before_y). T is float or double;
/// up to `threads` threads over rows.
template <class T>
void extend_borders_2d(const View& src, const Plan& plan, T* padded, std::int64_t padded_width,
                       std::int64_t before_x, std::int64_t before_y, PaddedRect rect, int threads);

}  // namespace fastblur::cpu
