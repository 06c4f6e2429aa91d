#pragma once
// scipy.ndimage.correlate1d's arithmetic, operation for operation, for the integer outputs of
// gaussian_filter: SciPy truncates to the output type after each axis, so results are equal only
// if the double sums are bit-identical (a constant image of 7 can become 6.999... and then 6).
#include <pybind11/numpy.h>

#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur::python {

/// dst (same shape, any numeric dtype) = src (any numeric dtype) correlated along `axis` with
/// `weights` (odd length, centre at the middle), borders as scipy. The sum per output: the centre
/// product first, then the pairs from the outermost inwards (symmetric and antisymmetric weights),
/// or every tap left to right (other weights) - SciPy's order, in SIMD (cpu/ordered_correlate.hpp).
/// Each double is stored as C casts it (integers truncated: SciPy's own conversion, exact for values
/// in the type's range; the caller sends the rest through float64). src and dst may be the same
/// array. Releases the GIL; OpenMP threads over blocks of neighbouring lines.
void scipy_correlate1d(const pybind11::array& src, pybind11::array& dst, int axis, const std::vector<double>& weights,
                       Border border, double cval, int threads);

}  // namespace fastblur::python
