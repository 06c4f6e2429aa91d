// Element conversions: half precision against the hardware-free definition, rounding, saturation.
#include <gtest/gtest.h>

#include <limits>

#include <bit>
#include <cmath>

#include "core/element.hpp"
#include "fastblur/error.hpp"

namespace fastblur::core {
namespace {

// binary16 value from its fields, computed independently of half_to_float.
double half_value(std::uint16_t h) {
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  const double s = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return s * std::ldexp(m, -24);
  if (e == 31) return m ? std::nan("") : s * INFINITY;
  return s * std::ldexp(1024 + m, e - 25);
}

TEST(Half, EveryHalfConvertsExactlyAndBack) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    const float f = half_to_float(bits);
    const double want = half_value(bits);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(f));
      EXPECT_TRUE(std::isnan(half_to_float(float_to_half(f))));
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), want) << std::hex << h;
    ASSERT_EQ(float_to_half(f), bits) << std::hex << h;
  }
}

TEST(Half, RoundsToNearestEven) {
  // Every float between two adjacent halves rounds to the nearer; ties to the even one.
  for (std::uint16_t h : {0x0001, 0x03FF, 0x0400, 0x3C00, 0x3C01, 0x7BFE, 0x8401}) {
    const float a = half_to_float(h), b = half_to_float(static_cast<std::uint16_t>(h + 1));
    const float mid = 0.5f * (a + b);
    const std::uint16_t even = (h & 1) ? static_cast<std::uint16_t>(h + 1) : h;
    EXPECT_EQ(float_to_half(mid), even) << std::hex << h;
    EXPECT_EQ(float_to_half(std::nextafter(mid, a)), h) << std::hex << h;
    EXPECT_EQ(float_to_half(std::nextafter(mid, b)), h + 1) << std::hex << h;
  }
  EXPECT_EQ(float_to_half(65520.0f), 0x7C00);  // beyond the largest half: infinity
  EXPECT_EQ(float_to_half(65519.0f), 0x7BFF);
  EXPECT_EQ(float_to_half(1e-9f), 0x0000);
}

TEST(Element, IntegersRoundAndSaturate) {
  std::uint8_t b = 0;
  store_element(ElementType::u8, &b, 254.5);
  EXPECT_EQ(b, 254);  // tie to even
  store_element(ElementType::u8, &b, 253.5);
  EXPECT_EQ(b, 254);
  store_element(ElementType::u8, &b, 300.0);
  EXPECT_EQ(b, 255);
  store_element(ElementType::u8, &b, -3.0);
  EXPECT_EQ(b, 0);
  store_element(ElementType::u8, &b, std::nan(""));
  EXPECT_EQ(b, 0);
  std::uint16_t w = 0;
  store_element(ElementType::u16, &w, 70000.0);
  EXPECT_EQ(w, 65535);
}

TEST(Element, NamesAndSizes) {
  EXPECT_EQ(element_size(ElementType::f16), 2u);
  EXPECT_EQ(parse_element_type("float32"), ElementType::f32);
  EXPECT_EQ(parse_element_type("UINT8"), ElementType::u8);
  EXPECT_THROW(parse_element_type("complex64"), InvalidArgument);
  EXPECT_EQ(to_string(ElementType::u16), "u16");
  // NumPy's other types (the Python drop-in, .npy files).
  EXPECT_EQ(parse_element_type("int32"), ElementType::i32);
  EXPECT_EQ(parse_element_type("bool"), ElementType::b8);
  EXPECT_EQ(element_size(ElementType::i64), 8u);
  EXPECT_EQ(element_size(ElementType::b8), 1u);
  EXPECT_TRUE(is_integer(ElementType::i16) && is_integer(ElementType::b8) && !is_integer(ElementType::f16));
  EXPECT_TRUE(needs_double(ElementType::i32) && needs_double(ElementType::u64) && !needs_double(ElementType::i16));
}

TEST(Element, NumpysOtherTypesRoundAndSaturate) {
  std::int16_t s = 0;
  store_element(ElementType::i16, &s, -40000.0);
  EXPECT_EQ(s, -32768);
  store_element(ElementType::i16, &s, -2.5);
  EXPECT_EQ(s, -2);  // ties to even
  std::int64_t l = 0;
  store_element(ElementType::i64, &l, 1e30);
  EXPECT_EQ(l, 9223372036854774784);  // the largest double below 2^63
  std::uint8_t b = 7;
  store_element(ElementType::b8, &b, 0.4);
  EXPECT_EQ(b, 0);
  store_element(ElementType::b8, &b, 3.0);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(load_element(ElementType::b8, &b), 1.0);
}

TEST(Element, CConversionIsX86s) {
  // scipy.ndimage stores as C converts (compiled for x86-64): truncation, the low bits of a 64-bit
  // truncation out of range.
  EXPECT_EQ(c_convert<std::uint8_t>(-3.7), 253);
  EXPECT_EQ(c_convert<std::uint8_t>(300.9), 44);
  EXPECT_EQ(c_convert<std::int16_t>(-2.9), -2);
  EXPECT_EQ(c_convert<std::uint32_t>(-1.0), 4294967295u);
  EXPECT_EQ(c_convert<std::int64_t>(1e300), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(c_convert<std::uint64_t>(1.5e19), 15000000000000000000ull);
  EXPECT_EQ(c_convert<std::uint64_t>(-1.0), 18446744073709551615ull);
  EXPECT_EQ(c_convert<float>(0.1), 0.1f);
}

}  // namespace
}  // namespace fastblur::core
