#pragma once
// One axis's step of scipy.ndimage's gaussian_laplace and gaussian_gradient_magnitude (its
// generic_laplace and generic_gradient_magnitude): the derivatives along each axis, each a whole
// blur, summed - or squared, summed and square-rooted - in the output's type, in SciPy's order of
// NumPy operations, so the bits are NumPy's; threaded, one pass over memory per axis.
#include <cstddef>

#include "fastblur/view.hpp"

namespace fastblur {

enum class DerivativeSum {
  laplace,             ///< sum += term
  gradient_magnitude,  ///< sum = sum * sum (first axis) + term * term, then sqrt (last)
};

/// One axis's step over `count` packed elements of `type` (float32 or float64; InvalidArgument
/// otherwise): `term` is the axis's derivative, null for a single filtered axis (then the sum is its
/// own first and last term). `first`: the sum holds the first axis's derivative, not yet squared;
/// `last`: the magnitude's square root follows. Each value rounded as NumPy rounds each operation
/// (no fused multiply-add). `threads` 0: OpenMP's default.
void derivative_sum_step(DerivativeSum kind, ElementType type, void* sum, const void* term, std::size_t count,
                         bool first, bool last, int threads = 0);

}  // namespace fastblur
