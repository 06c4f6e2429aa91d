#include "kernel/sums_in_range.hpp"

#include <cmath>
#include <optional>

namespace fastblur::kernel {
namespace {

struct IntegerRange {
  double lowest, highest;
};

// The integer types whose C conversion from double truncates through int32 (or exactly, uint32).
std::optional<IntegerRange> integer_range(ElementType t) {
  switch (t) {
    case ElementType::u8: return IntegerRange{0, 255};
    case ElementType::i8: return IntegerRange{-128, 127};
    case ElementType::u16: return IntegerRange{0, 65535};
    case ElementType::i16: return IntegerRange{-32768, 32767};
    case ElementType::u32: return IntegerRange{0, 4294967295.0};
    case ElementType::i32: return IntegerRange{-2147483648.0, 2147483647.0};
    default: return std::nullopt;  // bool (a byte SciPy reads as uint8), 64-bit (inexact in double), floats
  }
}

}  // namespace

bool sums_stay_in_range(const std::vector<double>& weights, ElementType source, ElementType destination, double cval) {
  const auto d = integer_range(destination), s = integer_range(source);
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
