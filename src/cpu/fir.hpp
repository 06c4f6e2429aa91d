#pragma once
#include <array>

#include "fastblur/blur.hpp"

namespace fastblur::cpu {

/// Exact separable convolution (the `fir` algorithm) on the CPU. `radius` per axis has been
/// validated by the caller; an axis with radius 0 is left alone. f64 views are computed in
/// double, everything else in float.
void fir_blur(const View& src, const View& dst, const BlurSpec& spec, const std::array<int, 3>& radius);

}  // namespace fastblur::cpu
