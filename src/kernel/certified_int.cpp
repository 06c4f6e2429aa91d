#include "kernel/certified_int.hpp"

#include <cmath>
#include <stdexcept>

#include "core/element.hpp"

namespace fastblur::kernel {

bool cval_fits_u8(double cval) { return cval >= 0.0 && cval <= 255.0 && cval == std::floor(cval); }

bool certified_int_types(ElementType source, ElementType destination) {
  switch (source) {
    case ElementType::b8: case ElementType::u8: case ElementType::i8: case ElementType::u16: case ElementType::i16:
      return source == destination;
    default:
      return false;
  }
}

CertifiedIntRange certified_int_range(ElementType type) {
  const auto r = core::integer_range(type);
  if (!certified_int_types(type, type) || !r) throw std::logic_error("internal: the certified sums take 8- and 16-bit integers");
  return {static_cast<int>(r->lowest), static_cast<int>(r->highest)};
}

bool cval_fits_certified_int(ElementType type, double cval) {
  if (!certified_int_types(type, type) || cval != std::floor(cval)) return false;
  const CertifiedIntRange t = certified_int_range(type);
  return cval >= t.lowest && cval <= t.highest;
}

bool certified_int_share_suits(std::size_t exact, std::size_t outputs) { return exact * 50 <= outputs; }

bool certified_int_possible(const std::vector<double>& w) {
  if (w.size() % 2 == 0 || w.size() < 3 || w.size() > 2 * static_cast<std::size_t>(kCertifiedIntMaxRadius) + 1) return false;
  const std::size_t c = w.size() / 2;
  for (std::size_t j = 0; j <= c; ++j)
    if (!(w[c - j] > 0.0) || w[c - j] != w[c + j]) return false;
  return true;
}

}  // namespace fastblur::kernel
