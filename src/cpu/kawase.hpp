#pragma once
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur::cpu {

/// The Kawase offsets used along one axis: spec.kawase_offsets if given, else the schedule
/// solved for that axis's sigma with spec.kawase_passes passes.
std::vector<double> kawase_offsets_for(const BlurSpec& spec, int axis);

/// The `kawase` algorithm (seed 002). A pass of four diagonal bilinear taps is the product of two
/// 1D passes, so the passes run per axis; the result equals the 2D passes exactly away from the
/// edges. At the edges the border mode extends the image once (as for fir), where a GPU would
/// clamp again before every pass.
void kawase_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
