#pragma once
// SIMD inner loops of the separable convolution, compiled for several targets by Highway and
// chosen at run time. Scalar semantics are in the comments; reference.cpp is their twin in double.
#include <cstddef>

#include "core/element_convert.hpp"
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

/// Output rows made at once by the y and z passes (convolve_rows_block): 8 rows take 24 of AVX-512's
/// 32 vector registers (two blocks of 4 on targets with 16); bench/RESULTS.md, issue 28.
inline constexpr int kRowBlock = 8;

/// kRowBlock output rows at once: out[m] (m < kRowBlock) is convolve_rows of rows + m, where `rows`
/// holds 2 radius + kRowBlock rows (rows[0] is output row 0's row -radius). Two rows are loaded per
/// tap for all the outputs; every output gets convolve_rows's arithmetic, so the same bits.
void convolve_rows_block(const float* const* rows, float* const* out, std::size_t count, const float* w, int radius);
void convolve_rows_block(const double* const* rows, double* const* out, std::size_t count, const double* w,
                         int radius);

/// Element conversion lives in core (the tiling and the Vulkan backend use it too); named here for
/// the CPU backend's callers.
using core::load_as_float;
using core::store_from_float;

}  // namespace fastblur::cpu
