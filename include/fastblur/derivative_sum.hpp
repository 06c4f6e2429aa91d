#pragma once
// The last step of scipy.ndimage's gaussian_laplace and gaussian_gradient_magnitude (its
// generic_laplace and generic_gradient_magnitude): the derivative along each axis, each a whole
// blur, summed - or squared, summed and square-rooted - in the output's type, in SciPy's order of
// NumPy operations, so the bits are NumPy's; threaded, one pass over memory per axis.
#include <cstddef>
#include <span>

#include "fastblur/blur.hpp"
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

/// SciPy's gaussian_laplace (kind laplace) or gaussian_gradient_magnitude of `src` into `dst` on the
/// CPU: terms[i] is the whole blur SciPy's generic_* function makes for its i-th filtered axis (that
/// axis's derivative order, the call's sigmas, border, weights), written to dst's type; the terms are
/// then combined as derivative_sum_step combines them (dst float32 or float64). A 2D image whose
/// terms are SciPy's order fused (Schedule::fused_axes) with y kernels of one length and border, dst
/// apart from src, runs in one pass: each source row read once for every term, no term stored
/// whole. Otherwise each term is its own blur, then its step. Throws as blur does.
void derivative_sum(const View& src, const View& dst, DerivativeSum kind, std::span<const BlurSpec> terms);

/// Whether derivative_sum runs these terms in one pass (the rule above, from the terms' plans).
bool derivative_sum_in_one_pass(const View& src, const View& dst, std::span<const BlurSpec> terms);

}  // namespace fastblur
