#pragma once
// fir on 8-bit images in 16-bit fixed point, as OpenCV's bit-exact u8 path does it but with more
// precision: pixels in Q6 (x 64) int16 lanes, weights in Q15, each product rounded to Q6
// (MulFixedPoint15), sums exact in int16. Twice the lanes of float and no conversion to float; all
// integer, so every target, schedule and thread count gives the same bits.
//
// Error bound per pass with radius r: (r + 1) products rounded by at most 1/128 of a pixel each,
// plus the Q15 rounding of 2r + 1 weights (at most 2^-16 each, times 255): about
// (r + 1) / 128 + (2r + 1) / 257 pixels. Two passes and the final rounding stay within 1 of the
// correctly rounded result while that sum is below 0.5 per pass: radius <= kFixedMaxRadius.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "kernel/fixed_point.hpp"

namespace fastblur::cpu {

using kernel::kFixedMaxRadius;

/// n 8-bit values to Q6.
void u8_to_q6(const std::uint8_t* in, std::int16_t* out, std::size_t n);

/// out[i] = w[0] line[i] + sum over k = 1..r of w[k] (line[i - kC] + line[i + kC]), each product
/// rounded to Q6, for i < n; line[-rC] .. line[n + rC - 1] are valid.
void fixed_convolve_line(const std::int16_t* line, std::int16_t* out, std::size_t n, const std::int16_t* w, int r,
                         std::size_t C);

/// The same across 2r + 1 rows (rows[r] is the centre row), then rounded to the nearest 8-bit value.
void fixed_convolve_rows_u8(const std::int16_t* const* rows, std::uint8_t* out, std::size_t n, const std::int16_t* w,
                            int r);

/// Output rows j and j + 1 at once from rows j - r .. j + r + 1 (rows[0] is row j - r): the same
/// sums as two calls above, each row loaded once for both.
void fixed_convolve_rows2_u8(const std::int16_t* const* rows, std::uint8_t* out0, std::uint8_t* out1, std::size_t n,
                             const std::int16_t* w, int r);

/// Output rows made at once by the y pass: 8 rows (24 of AVX-512's 32 vector registers for the rows
/// and sums; two blocks of 4 on targets with 16) measured fastest at k35 on AVX-512 against 2, 4
/// and 6 (bench/RESULTS.md, issue 28).
inline constexpr int kFixedRowBlock = 8;

/// Output rows j .. j + kFixedRowBlock - 1 (out[0] ..) from rows j - r .. j + r + kFixedRowBlock - 1
/// (rows[0] is row j - r): the same sums, two rows loaded per tap for all the outputs.
void fixed_convolve_rows_block_u8(const std::int16_t* const* rows, std::uint8_t* const* out, std::size_t n,
                             const std::int16_t* w, int r);

}  // namespace fastblur::cpu
