#pragma once
// Which kernels SciPy's uint8 sums can be certified for in float32 (cpu/scipy_u8_certified.hpp).
#include <vector>

namespace fastblur::kernel {

inline constexpr int kCertifiedU8MaxRadius = 4096;

/// Whether correlation weights are symmetric about their centre (exactly: SciPy's pair form), of odd
/// length 3 .. 2 kCertifiedU8MaxRadius + 1, every weight positive - a sampled Gaussian's.
bool certified_u8_possible(const std::vector<double>& weights);

}  // namespace fastblur::kernel
