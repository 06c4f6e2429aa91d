#pragma once
// Pixels of a few doubles each (interleaved: pixel p's value c at p n + c) to and from one row of
// doubles per value (planar), for SciPy's passes along a short axis (an image's channels) that sum
// across pixels: SIMD for 2, 3 and 4 values a pixel, one by one for other counts.
#include <cstddef>

namespace fastblur::cpu {

/// to[c][p] = from[p n + c] for p < pixels, c < n.
void deinterleave_doubles(const double* from, std::size_t pixels, int n, double* const* to);

/// to[p n + c] = from[c][p] for p < pixels, c < n.
void interleave_doubles(const double* const* from, std::size_t pixels, int n, double* to);

}  // namespace fastblur::cpu
