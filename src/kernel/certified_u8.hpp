#pragma once
// Which kernels SciPy's uint8 sums can be certified for in float32 (cpu/scipy_u8_certified.hpp).
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::kernel {

/// Whether an 8-bit row holds a cval exactly: an integer 0 .. 255 (the certified sums' rows, and
/// the GPU's 8-bit normalized images).
bool cval_fits_u8(double cval);

/// Whether source and destination types are SciPy's 8-bit ones whose sums the certified rows make:
/// uint8 into uint8, or bool into bool (SciPy's npy_bool is an unsigned char: uint8's truncation).
bool certified_u8_types(ElementType source, ElementType destination);

inline constexpr int kCertifiedU8MaxRadius = 4096;

/// Whether correlation weights are symmetric about their centre (exactly: SciPy's pair form), of odd
/// length 3 .. 2 kCertifiedU8MaxRadius + 1, every weight positive - a sampled Gaussian's.
bool certified_u8_possible(const std::vector<double>& weights);

}  // namespace fastblur::kernel
