#pragma once
// SIMD kernels of the recursive Gaussians, run across lanes: lane_width() lines at once, sample i
// of lane l at buf[i * lane_width() + l] (interleaved). Highway, dispatched at run time.
#include <cstddef>
#include <cstdint>

#include "fastblur/kernel_iir.hpp"

namespace fastblur::cpu {

/// Vectors of lines processed side by side in one call (independent recursions hide latency).
inline constexpr std::size_t kLaneGroups = 4;

/// Lines per call: kLaneGroups times the SIMD width in floats of the target chosen at run time.
std::size_t lane_width();

/// Deriche's parallel form (kernel::DericheParallelForm) in float, per k: pole, residue, their
/// product, and the steady states r / (1 - p) and p r / (1 - p) of the two directions.
struct DericheLaneCoefficients {
  float pole_re[2], pole_im[2], residue_re[2], residue_im[2], pole_residue_re[2], pole_residue_im[2];
  float steady_causal_re[2], steady_causal_im[2], steady_anticausal_re[2], steady_anticausal_im[2];
};
DericheLaneCoefficients deriche_lane_coefficients(const kernel::DericheParallelForm& form);

/// Deriche across lanes: `in` holds n + 2 pad samples of each lane (border-extended), `out`
/// receives the n filtered samples. The recursions start from the steady state of the line's
/// first and last samples, or of cval when `constant` (exact for nearest and constant borders with
/// pad 0; for the others the padding makes the start irrelevant).
void deriche_lanes(const float* in, float* out, std::int64_t n, std::int64_t pad, const DericheLaneCoefficients& c,
                   bool constant, float cval);

}  // namespace fastblur::cpu
