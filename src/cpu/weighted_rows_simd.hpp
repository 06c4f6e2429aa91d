#pragma once
// A weighted sum of a few rows, out[i] = sum_k w[k] rows[k][i], in SIMD (Highway, dispatched at
// run time): the reductions and interpolations of downsample's chain (cpu/downsample_chain.cpp),
// whose rows are the image's rows, or one row at shifted offsets for the same along x.
#include <cstddef>

#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// out[i] = sum_{k < count} w[k] rows[k][i] for i < n, summed in order of k. count is 2 (the
/// interpolation) or 2f (the tent at factor 2, 4 or 8): 2, 4, 8 or 16.
void weighted_rows(const float* const* rows, const float* w, int count, float* out, std::size_t n);

/// weighted_rows of two rows, out written with streaming (non-temporal) stores: for a large output
/// that would otherwise be read from memory before each line is written.
void weighted_pair_stream(const float* const* rows, const float* w, float* out, std::size_t n);

/// weighted_rows of two rows converted to `type` as store_from_float converts (rounded to nearest,
/// ties to even, saturated), written to n packed elements at out: for u8, u16 and f16, where it
/// returns true; other types return false, having written nothing.
bool weighted_pair_to(const float* const* rows, const float* w, ElementType type, void* out, std::size_t n);

/// weighted_rows of `count` packed rows of `type`, each element converted as load_as_float converts
/// it (exactly) as it is summed: for u8, u16 and f16 and the tent's 4, 8 or 16 rows, where it
/// returns true; otherwise false, having written nothing.
bool weighted_rows_from(const void* const* rows, ElementType type, const float* w, int count, float* out, std::size_t n);

}  // namespace fastblur::cpu
