#pragma once
// Scalar access to elements of any type, for references, strided fallbacks and tests.
#include <cmath>
#include <cstdint>
#include <cstring>

#include "fastblur/view.hpp"

namespace fastblur::core {

/// IEEE binary16 <-> binary32, round to nearest even; Inf and NaN preserved.
float half_to_float(std::uint16_t h) noexcept;
std::uint16_t float_to_half(float f) noexcept;

/// Reads one element as double.
inline double load_element(ElementType type, const void* p) noexcept {
  switch (type) {
    case ElementType::u8: return *static_cast<const std::uint8_t*>(p);
    case ElementType::u16: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case ElementType::f16: { std::uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case ElementType::f32: { float v; std::memcpy(&v, p, 4); return v; }
    case ElementType::f64: { double v; std::memcpy(&v, p, 8); return v; }
  }
  return 0.0;
}

/// Integer outputs are rounded to nearest (ties to even, as the SIMD path) and saturated; NaN -> 0.
template <class Int>
inline Int saturate_round(double v) noexcept {
  constexpr double hi = static_cast<double>(static_cast<Int>(~Int{0}));
  if (!(v > 0.0)) return 0;  // also NaN
  if (v >= hi) return static_cast<Int>(hi);
  return static_cast<Int>(std::nearbyint(v));
}

/// Writes one element from double, converting as the type requires.
inline void store_element(ElementType type, void* p, double v) noexcept {
  switch (type) {
    case ElementType::u8: *static_cast<std::uint8_t*>(p) = saturate_round<std::uint8_t>(v); break;
    case ElementType::u16: { auto x = saturate_round<std::uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case ElementType::f16: { auto x = float_to_half(static_cast<float>(v)); std::memcpy(p, &x, 2); break; }
    case ElementType::f32: { auto x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
    case ElementType::f64: std::memcpy(p, &v, 8); break;
  }
}

}  // namespace fastblur::core
