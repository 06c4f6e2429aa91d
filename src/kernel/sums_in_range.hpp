#pragma once
// When SciPy's stored sums need no range handling: storing an axis's result in an integer output
// is then its truncation toward zero alone (cpu/ordered_correlate.hpp, StoredAs::truncated).
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::kernel {

/// Whether every sum SciPy's correlation makes with these weights, over values of `source` or of
/// `destination` and a cval, lies strictly within one unit of `destination`'s range, so C's
/// conversion into it truncates toward zero and never wraps nor leaves int32's range: `destination`
/// an integer type of 32 bits and fewer (not bool), `source`'s values among its values, the cval
/// within its range, every weight nonnegative, and their sum with n terms' rounding at most
/// 1 + 1 / (2 max |value|) - a normalised Gaussian's.
bool sums_stay_in_range(const std::vector<double>& weights, ElementType source, ElementType destination, double cval);

}  // namespace fastblur::kernel
