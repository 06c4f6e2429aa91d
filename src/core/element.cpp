#include "core/element.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <string>

#include "fastblur/error.hpp"

namespace fastblur {

std::size_t element_size(ElementType type) noexcept {
  switch (type) {
    case ElementType::u8: return 1;
    case ElementType::u16: return 2;
    case ElementType::f16: return 2;
    case ElementType::f32: return 4;
    case ElementType::f64: return 8;
    case ElementType::i8: return 1;
    case ElementType::i16: return 2;
    case ElementType::i32: return 4;
    case ElementType::i64: return 8;
    case ElementType::u32: return 4;
    case ElementType::u64: return 8;
    case ElementType::b8: return 1;
  }
  return 0;
}

std::string_view to_string(ElementType type) noexcept {
  switch (type) {
    case ElementType::u8: return "u8";
    case ElementType::u16: return "u16";
    case ElementType::f16: return "f16";
    case ElementType::f32: return "f32";
    case ElementType::f64: return "f64";
    case ElementType::i8: return "i8";
    case ElementType::i16: return "i16";
    case ElementType::i32: return "i32";
    case ElementType::i64: return "i64";
    case ElementType::u32: return "u32";
    case ElementType::u64: return "u64";
    case ElementType::b8: return "bool";
  }
  return "?";
}

ElementType parse_element_type(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
  if (n == "u8" || n == "uint8") return ElementType::u8;
  if (n == "u16" || n == "uint16") return ElementType::u16;
  if (n == "f16" || n == "float16" || n == "half") return ElementType::f16;
  if (n == "f32" || n == "float32" || n == "float") return ElementType::f32;
  if (n == "f64" || n == "float64" || n == "double") return ElementType::f64;
  if (n == "i8" || n == "int8") return ElementType::i8;
  if (n == "i16" || n == "int16") return ElementType::i16;
  if (n == "i32" || n == "int32") return ElementType::i32;
  if (n == "i64" || n == "int64") return ElementType::i64;
  if (n == "u32" || n == "uint32") return ElementType::u32;
  if (n == "u64" || n == "uint64") return ElementType::u64;
  if (n == "bool" || n == "b8") return ElementType::b8;
  throw InvalidArgument("unknown element type '" + std::string(name) +
                        "': expected one of uint8, uint16, float16, float32, float64, int8, int16, int32, int64, "
                        "uint32, uint64, bool");
}

bool is_integer(ElementType type) noexcept {
  return type != ElementType::f16 && type != ElementType::f32 && type != ElementType::f64;
}

bool needs_double(ElementType type) noexcept {
  return type == ElementType::f64 || type == ElementType::i32 || type == ElementType::i64 ||
         type == ElementType::u32 || type == ElementType::u64;
}

namespace core {

float half_to_float(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1Fu;
  std::uint32_t mant = h & 0x3FFu;
  std::uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);  // Inf / NaN
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal half: normalise
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    bits = sign | ((112u - static_cast<std::uint32_t>(e)) << 23) | ((mant & 0x3FFu) << 13);
  }
  return std::bit_cast<float>(bits);
}

std::uint16_t float_to_half(float f) noexcept {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t absx = x & 0x7FFFFFFFu;
  if (absx >= 0x7F800000u) {  // Inf or NaN (keep NaN quiet and non-zero)
    return sign | 0x7C00u | (absx > 0x7F800000u ? 0x200u : 0u);
  }
  if (absx >= 0x477FF000u) return sign | 0x7C00u;  // rounds to beyond 65504: Inf
  if (absx < 0x38800000u) {                         // below the smallest normal half
    if (absx < 0x33000000u) return sign;            // below half the smallest subnormal
    const std::uint32_t e = absx >> 23;
    const std::uint32_t m = (absx & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = 126u - e;  // 14..24
    std::uint32_t r = m >> shift;
    const std::uint32_t rem = m & ((1u << shift) - 1u);
    const std::uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
    return sign | static_cast<std::uint16_t>(r);
  }
  std::uint32_t r = ((absx >> 13) - (112u << 10));
  const std::uint32_t rem = absx & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
  return sign | static_cast<std::uint16_t>(r);
}

}  // namespace core
}  // namespace fastblur
