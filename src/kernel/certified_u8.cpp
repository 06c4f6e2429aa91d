#include "kernel/certified_u8.hpp"

#include <cmath>

namespace fastblur::kernel {

bool cval_fits_u8(double cval) { return cval >= 0.0 && cval <= 255.0 && cval == std::floor(cval); }

bool certified_u8_types(ElementType source, ElementType destination) {
  return source == destination && (source == ElementType::u8 || source == ElementType::b8);
}

bool certified_u8_possible(const std::vector<double>& w) {
  if (w.size() % 2 == 0 || w.size() < 3 || w.size() > 2 * static_cast<std::size_t>(kCertifiedU8MaxRadius) + 1) return false;
  const std::size_t c = w.size() / 2;
  for (std::size_t j = 0; j <= c; ++j)
    if (!(w[c - j] > 0.0) || w[c - j] != w[c + j]) return false;
  return true;
}

}  // namespace fastblur::kernel
