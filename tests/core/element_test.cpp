// Element conversions: half precision against the hardware-free definition, rounding, saturation.
#include <gtest/gtest.h>

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
  EXPECT_THROW(parse_element_type("int32"), InvalidArgument);
  EXPECT_EQ(to_string(ElementType::u16), "u16");
}

}  // namespace
}  // namespace fastblur::core
