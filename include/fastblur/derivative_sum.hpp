#pragma once
// scipy.ndimage's gaussian_laplace and gaussian_gradient_magnitude in the core: each derivative a
// blur through the front door, combined by derivative_sum_step (derivative_step.hpp).
#include <span>

#include "fastblur/blur.hpp"
#include "fastblur/derivative_step.hpp"
#include "fastblur/view.hpp"

namespace fastblur {

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
