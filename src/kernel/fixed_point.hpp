#pragma once
// A symmetric kernel in Q15 for fir's 16-bit fixed-point schedule (cpu/fir_fixed_simd.hpp gives
// its error bound, which holds up to kFixedMaxRadius).
#include <cstdint>
#include <optional>
#include <vector>

namespace fastblur::kernel {

inline constexpr int kFixedMaxRadius = 24;

/// The Q15 half kernel w[0..r] of symmetric correlation weights (2r + 1 values, non-negative,
/// summing to 1), the centre adjusted so that w[0] + 2 (w[1] + ... + w[r]) is exactly 32768 (flat
/// images stay flat); nullopt for other kernels, r < 1 or r > kFixedMaxRadius, or where a weight
/// cannot be held (a centre weight of about 1: sigma far below a pixel).
std::optional<std::vector<std::int16_t>> fixed_point_half(const std::vector<double>& weights);

}  // namespace fastblur::kernel
