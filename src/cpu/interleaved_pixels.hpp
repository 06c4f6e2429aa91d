#pragma once
// Pixels of a few values each (interleaved: pixel p's value c at p n + c) to and from one row per
// value (planar): SciPy's passes along a short axis (an image's channels) that sum across pixels,
// and the exact engine's short x rows filtered across rows. SIMD for 2, 3 and 4 values a pixel, one
// by one for other counts.
#include <cstddef>

namespace fastblur::cpu {

/// to[c][p] = from[p n + c] for p < pixels, c < n.
void deinterleave(const double* from, std::size_t pixels, int n, double* const* to);
void deinterleave(const float* from, std::size_t pixels, int n, float* const* to);

/// to[p n + c] = from[c][p] for p < pixels, c < n.
void interleave(const double* const* from, std::size_t pixels, int n, double* to);
void interleave(const float* const* from, std::size_t pixels, int n, float* to);

}  // namespace fastblur::cpu
