#pragma once
// The normalized convolution's rows (src/missing_data.cpp) in SIMD (Highway, dispatched at run
// time): packed values with NaN for missing into weighted values and their weight, and the blurred
// weighted values divided by their blurred weight back. Exact: a selection and a correctly rounded
// division per value, the same bits as one value at a time.
#include <cstdint>

namespace fastblur::cpu {

/// `width` pixels of k (1 to 3) packed values into k weighted values then the weight a pixel: 0 and 0
/// where the pixel's first value is NaN (and omit_nan), else the values and 1. Returns whether some
/// pixel's values disagree on being NaN (then they cannot share one weight).
bool pack_nan_row(const float* in, float* out, std::int64_t width, int k, bool omit_nan);
bool pack_nan_row(const double* in, double* out, std::int64_t width, int k, bool omit_nan);

/// weighted_rows (cpu/weighted_rows_simd.hpp) of the rows pack_nan_row makes of `count` (4, 8 or 16)
/// packed rows, without making them - the same bits where no pixel is mixed - into `width` pixels
/// of k + 1 values at out; `mixed` as pack_nan_row's, over all the rows. False where this target
/// has no such loop (k 1 on any; k 3 on 512-bit x86), having written nothing: pack, then sum.
bool weighted_packed_rows(const float* const* rows, const float* w, int count, float* out, std::int64_t width, int k,
                          bool omit_nan, bool& mixed);

/// `width` pixels of k weighted values and their weight into k values: each over the weight where
/// the weight exceeds `floor`, else `empty`. `stream`: the plan streams the destination past the
/// caches (Schedule::stream_destination; float rows of 1 or 3 values a pixel, fenced before return).
void divide_row(const float* in, float* out, std::int64_t width, int k, float floor, float empty, bool stream = false);
void divide_row(const double* in, double* out, std::int64_t width, int k, double floor, double empty, bool stream = false);

/// divide_row of the lerp wa a + wb b of two rows of weighted values and weights, computed as
/// weighted_rows computes it (the same bits as that lerp written, then divided), never written:
/// downsample's chain ends in such a lerp (Rows::write_lerp).
void divide_lerp_row(const float* a, const float* b, float wa, float wb, float* out, std::int64_t width, int k, float floor,
                     float empty, bool stream = false);

}  // namespace fastblur::cpu
