#pragma once
// SciPy's truncated sums along a short axis of unsigned integers, certified: each output's exact
// weighted sum of its line's few values (a coefficient per position, taps that read the same value
// added) decides SciPy's truncation wherever it lies farther than `delta` from an integer - SciPy's
// double sum in its order differs from it by far less - so the few outputs near one are left to
// SciPy's own sum. An RGB array's channel axis under one sigma: 3 multiplies an output, not 3 per
// tap pair.
#include <cstddef>
#include <cstdint>

namespace fastblur::cpu {

/// For n of 1 to 4 and i < count: out[i] = trunc(coef[n] cval + sum over p < n of coef[p] planes[p][i]) where that is
/// the same at +-delta; the other lanes' indices go to undecided[0 .. returned count).
std::size_t certified_short_sums(const double* const* planes, int n, const double* coef, double cval, double delta,
                                 std::size_t count, double* out, std::uint32_t* undecided);

}  // namespace fastblur::cpu
