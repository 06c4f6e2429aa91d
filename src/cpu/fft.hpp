#pragma once
#include "fastblur/blur.hpp"

namespace fastblur::cpu {

/// The `fft` algorithm: exact convolution with fir's kernel (same weights, same radius), computed
/// per line in the frequency domain with FFTW in double, O(log n) per pixel whatever the radius.
/// Every border mode is exact, also when the radius exceeds the line.
void fft_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
