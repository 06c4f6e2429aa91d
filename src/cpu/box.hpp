#pragma once
#include "fastblur/blur.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {

/// The `box` algorithm: n passes of a box per axis as running sums (seeds 001, 002), O(1) per
/// pixel whatever the sigma. Extended boxes (fractional end weights) reach sigma exactly; with
/// spec.box_integer_widths, seed 002's integer widths only.
void box_blur(const View& src, const View& dst, const BlurSpec& spec, int passes);

/// The box passes this spec uses along one axis.
std::vector<kernel::BoxPass> box_passes_for(const BlurSpec& spec, int axis, int passes);

}  // namespace fastblur::cpu
