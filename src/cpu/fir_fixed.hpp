#pragma once
// The fixed-point schedule of fir for 8-bit 2D images (CpuDriver::fixed_point): both passes fused
// through a ring of Q6 rows, kernels in fir_fixed_simd.hpp. Every output within 1 of the correctly
// rounded result (most of them equal to it).
#include "fastblur/blur.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::cpu {

void fir_fixed_u8(const Plan& plan, const View& src, const View& dst);

}  // namespace fastblur::cpu
