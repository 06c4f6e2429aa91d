#include "kernel/sums_in_range.hpp"

#include <algorithm>
#include <cmath>

#include "core/element.hpp"

namespace fastblur::kernel {

bool sums_stay_in_range(const std::vector<double>& weights, ElementType source, ElementType destination, double cval) {
  if (destination == ElementType::b8) return false;  // a byte SciPy reads as uint8's but stores as bool
  const auto d = core::integer_range(destination), s = core::integer_range(source);
  if (!d || !s || s->lowest < d->lowest || s->highest > d->highest) return false;
  if (!(cval >= d->lowest && cval <= d->highest)) return false;
  double sum = 0.0;
  for (double w : weights) {
    if (!(w >= 0.0) || !std::isfinite(w)) return false;
    sum += w;
  }
  // |a computed sum| <= max |value| * sum(w) * (1 + gamma), gamma = (n + 2) 2^-52 covering the
  // products', the additions' and this sum's own roundings: within half a unit of the range's ends.
  const double gamma = static_cast<double>(weights.size() + 2) * std::ldexp(1.0, -52);
  const double largest = std::max(-d->lowest, d->highest);
  return largest * (sum * (1.0 + gamma) - 1.0) < 0.5;
}

}  // namespace fastblur::kernel
