#pragma once
#include "fastblur/blur.hpp"

namespace fastblur::cpu {

/// The factor used along one axis: spec.downsample_factor, or the one chosen for its sigma.
int downsample_factor_for(const BlurSpec& spec, int axis);

/// The `downsample` algorithm (seed 002): per axis, average blocks of f = 2 or 4 samples, blur the
/// low-resolution line with the compensated sigma, interpolate linearly back. Operators on
/// different axes commute, so this equals downsampling the image, blurring and upsampling it.
/// Not shift-invariant: the response depends on the position's phase within a block.
void downsample_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
