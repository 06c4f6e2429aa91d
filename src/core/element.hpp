#pragma once
// Scalar access to elements of any type, for references, strided fallbacks and tests.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "fastblur/view.hpp"

namespace fastblur::core {

/// The types SIMD code loads where they lie and widens to double exactly (float32, 8- and 16-bit
/// integers): SciPy's-order sums read such a source's planes without a copy (Schedule::z_source_planes).
inline bool widens_to_double_as_loaded(ElementType type) noexcept {
  return type == ElementType::f32 || type == ElementType::u8 || type == ElementType::i8 || type == ElementType::u16 ||
         type == ElementType::i16;
}

/// The values of an integer type of 32 bits and fewer, as doubles (bool's are uint8's: SciPy reads
/// its byte); none for floats and the 64-bit integers (not all of theirs are exact in double).
struct IntegerRange {
  double lowest, highest;
};
inline std::optional<IntegerRange> integer_range(ElementType type) noexcept {
  switch (type) {
    case ElementType::b8: case ElementType::u8: return IntegerRange{0, 255};
    case ElementType::i8: return IntegerRange{-128, 127};
    case ElementType::u16: return IntegerRange{0, 65535};
    case ElementType::i16: return IntegerRange{-32768, 32767};
    case ElementType::u32: return IntegerRange{0, 4294967295.0};
    case ElementType::i32: return IntegerRange{-2147483648.0, 2147483647.0};
    default: return std::nullopt;
  }
}

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
    case ElementType::i8: return *static_cast<const std::int8_t*>(p);
    case ElementType::i16: { std::int16_t v; std::memcpy(&v, p, 2); return v; }
    case ElementType::i32: { std::int32_t v; std::memcpy(&v, p, 4); return v; }
    case ElementType::i64: { std::int64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ElementType::u32: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    case ElementType::u64: { std::uint64_t v; std::memcpy(&v, p, 8); return static_cast<double>(v); }
    case ElementType::b8: return *static_cast<const std::uint8_t*>(p) != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

/// The largest double that converts into Int (2^63 - 1024 for int64, where 2^63 - 1 rounds up).
template <class Int>
constexpr double saturate_highest() noexcept {
  return sizeof(Int) < 8 ? static_cast<double>(std::numeric_limits<Int>::max())
         : std::is_signed_v<Int> ? 9223372036854774784.0 : 18446744073709549568.0;
}

/// Integer outputs are rounded to nearest (ties to even, as the SIMD path) and saturated; NaN -> 0.
template <class Int>
inline Int saturate_round(double v) noexcept {
  constexpr double lo = static_cast<double>(std::numeric_limits<Int>::min());
  constexpr double hi = saturate_highest<Int>();
  if (std::isnan(v)) return 0;
  if (v <= lo) return std::numeric_limits<Int>::min();
  if (v >= hi) return sizeof(Int) < 8 ? std::numeric_limits<Int>::max() : static_cast<Int>(hi);
  return static_cast<Int>(std::nearbyint(v));
}

/// C's conversion of a double to T as x86-64 compilers emit it (and scipy.ndimage's filters, compiled
/// so, store): truncation toward zero; out of range, the instruction's "integer indefinite" - a 32-bit
/// truncation (INT32_MIN where out of range) for types up to 16 bits and int32, a 64-bit one
/// (INT64_MIN) for uint32 and int64 - then the low bits; uint64 through 2^63 as GCC emits it. (NumPy's
/// bool is an unsigned char: convert to std::uint8_t.) Defined behaviour here for every input.
template <class T>
inline T c_convert(double v) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    constexpr double two63 = 9223372036854775808.0;
    const auto trunc32 = [](double x) -> std::int32_t {
      return (x > -2147483649.0 && x < 2147483648.0) ? static_cast<std::int32_t>(x) : std::numeric_limits<std::int32_t>::min();
    };
    const auto trunc64 = [](double x) -> std::int64_t {
      return (x >= -two63 && x < two63) ? static_cast<std::int64_t>(x) : std::numeric_limits<std::int64_t>::min();
    };
    if constexpr (std::is_same_v<T, std::uint64_t>) {
      if (v >= two63) return static_cast<std::uint64_t>(trunc64(v - two63)) ^ (std::uint64_t{1} << 63);
      return static_cast<std::uint64_t>(trunc64(v));
    } else if constexpr (sizeof(T) <= 2 || std::is_same_v<T, std::int32_t>) {
      return static_cast<T>(trunc32(v));  // modular from int32 (C++20)
    } else {
      return static_cast<T>(trunc64(v));
    }
  }
}

/// Writes one element from double, converting as the type requires.
inline void store_element(ElementType type, void* p, double v) noexcept {
  switch (type) {
    case ElementType::u8: *static_cast<std::uint8_t*>(p) = saturate_round<std::uint8_t>(v); break;
    case ElementType::u16: { auto x = saturate_round<std::uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case ElementType::f16: { auto x = float_to_half(static_cast<float>(v)); std::memcpy(p, &x, 2); break; }
    case ElementType::f32: { auto x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
    case ElementType::f64: std::memcpy(p, &v, 8); break;
    case ElementType::i8: *static_cast<std::int8_t*>(p) = saturate_round<std::int8_t>(v); break;
    case ElementType::i16: { auto x = saturate_round<std::int16_t>(v); std::memcpy(p, &x, 2); break; }
    case ElementType::i32: { auto x = saturate_round<std::int32_t>(v); std::memcpy(p, &x, 4); break; }
    case ElementType::i64: { auto x = saturate_round<std::int64_t>(v); std::memcpy(p, &x, 8); break; }
    case ElementType::u32: { auto x = saturate_round<std::uint32_t>(v); std::memcpy(p, &x, 4); break; }
    case ElementType::u64: { auto x = saturate_round<std::uint64_t>(v); std::memcpy(p, &x, 8); break; }
    case ElementType::b8: *static_cast<std::uint8_t*>(p) = saturate_round<std::uint8_t>(v) != 0; break;
  }
}

}  // namespace fastblur::core
