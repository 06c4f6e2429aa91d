#pragma once
// SIMD inner loops of the separable convolution, compiled for several targets by Highway and
// chosen at run time. Scalar semantics are in the comments; reference.cpp is their twin in double.
#include <cstddef>

#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// Convolution along a line whose neighbours are `step` elements apart (step = channels for
/// interleaved pixels): with c = padded + radius*step,
///   out[i] = w[0] c[i] + sum_{k=1..radius} w[k] (c[i - k step] + c[i + k step]),  i < count.
/// `w` holds the half kernel w[0..radius] (the Gaussian is symmetric).
void convolve_line(const float* padded, float* out, std::size_t count, const float* w, int radius,
                   std::size_t step);
void convolve_line(const double* padded, double* out, std::size_t count, const double* w, int radius,
                   std::size_t step);

/// Convolution across rows: out[i] = w[0] rows[r][i] + sum_k w[k] (rows[r-k][i] + rows[r+k][i]).
void convolve_rows(const float* const* rows, float* out, std::size_t count, const float* w, int radius);
void convolve_rows(const double* const* rows, double* out, std::size_t count, const double* w,
                   int radius);

/// Converts `count` packed elements of `type` to float. f32 denormals become zeros of their sign
/// (they would slow every float path that touches them; the change is below 2^-126).
void load_as_float(ElementType type, const void* src, float* dst, std::size_t count);
/// Converts floats to `type`: integers rounded to nearest (ties to even) and saturated.
void store_from_float(ElementType type, const float* src, void* dst, std::size_t count);

}  // namespace fastblur::cpu
