#pragma once
// scipy.ndimage.correlate1d's arithmetic in SIMD: each output is summed in SciPy's own order with a
// separate multiply and add per tap (no fused multiply-add), so every output is bit-identical to its
// scalar loop - what gaussian_filter's integer outputs need, since SciPy truncates after each axis.
// Vectorised across outputs, which keeps each output's order.
#include <cstddef>

#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// How a row window stores its outputs: as summed (a float64 output, or sums its caller converts),
/// through float32 and back (rounded to nearest, as a C cast rounds), or truncated toward zero - an
/// integer output whose sums stay within its range (kernel::sums_stay_in_range), where C's
/// conversion into it and back is the truncation alone.
enum class StoredAs { as_summed, float32, truncated };

/// With c = `center` and neighbours `step` apart (step 1 along a buffered line, B for B interleaved
/// lines), for i < count:
///  - symmetry 1:  out[i] = c[i] fw[0], then + (c[i - k step] + c[i + k step]) fw[-k] for k = size1..1
///  - symmetry -1: the same with (c[i - k step] - c[i + k step])
///  - symmetry 0:  out[i] = c[i + size2 step] fw[size2], then + c[i + j step] fw[j] for j = -size1..size2-1
/// `fw` points at the centre weight (fw[-size1] .. fw[size2] are valid).
void ordered_correlate(const double* center, double* out, std::size_t count, const double* fw, int size1, int size2,
                       int symmetry, std::size_t step);

/// The same with each tap in its own row: tap j's value for output i is rows[j][offset + i]
/// (`rows` points at the centre row; rows[-size1] .. rows[size2] are valid). For filtering across
/// rows, each output row reading its neighbours where they lie - in the source, or converted.
void ordered_correlate_rows(const double* const* rows, std::size_t offset, double* out, std::size_t count,
                            const double* fw, int size1, int size2, int symmetry);

/// ordered_correlate_rows for `outputs` consecutive output rows: output m's centre row is rows[m]
/// (rows[-size1] .. rows[outputs - 1 + size2] valid) and its values go to out[m][0 .. count). The
/// same bits; a symmetric or antisymmetric kernel loads each tap row once for up to four outputs.
/// `stored`: each output as SciPy stores an axis's result in the output array for the next axis to
/// read (StoredAs) - in registers, not a pass of its own.
void ordered_correlate_row_window(const double* const* rows, std::size_t offset, double* const* out, int outputs,
                                  std::size_t count, const double* fw, int size1, int size2, int symmetry,
                                  StoredAs stored);

/// The same with tap rows of `type`: float64, or a type core::widens_to_double_as_loaded (float32, 8-
/// and 16-bit integers), each value widened to double as it is loaded (exactly: the values SciPy's
/// line buffer holds for such an array), so a source's rows are read where they lie.
void ordered_correlate_row_window(ElementType type, const void* const* rows, std::size_t offset, double* const* out,
                                  int outputs, std::size_t count, const double* fw, int size1, int size2, int symmetry,
                                  StoredAs stored);

}  // namespace fastblur::cpu
