#pragma once
#include "fastblur/blur.hpp"

namespace fastblur::cpu {

/// The `iir` algorithm: a recursive Gaussian per axis (spec.iir_variant: Deriche 4th order or
/// Young-van Vliet 3rd order), O(1) per pixel whatever the sigma. Borders: `nearest` and
/// `constant` continue the line by a constant, which the recursions start from exactly (steady
/// states, and Triggs-Sdika for Young-van Vliet's backward pass); `reflect`, `mirror` and `wrap`
/// extend the line until the impulse response has decayed below 1e-7 and start there.
void iir_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
