// core::load_as_float / store_from_float, SIMD (u8, u16, i8, i16, f16, f32, bool; f64, i32 and i64 in
// their own loops) or one element at a time:
// every type against the scalar definitions (load_element, store_element) on random values, each
// type's range ends, rounding ties, values past the range, infinities and NaN, at lengths around the
// vector width (the tails go through a buffer).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/element.hpp"
#include "core/element_convert.hpp"
#include "support/test_support.hpp"

namespace fastblur::core {
namespace {

constexpr ElementType kTypes[] = {ElementType::u8,  ElementType::u16, ElementType::i8,  ElementType::i16,
                                  ElementType::f16, ElementType::f32, ElementType::i32, ElementType::u32,
                                  ElementType::f64, ElementType::b8,  ElementType::i64, ElementType::u64};

// Floats a store must handle: inside and past each type's range, ties of round to nearest, and the
// values with no integer.
std::vector<float> awkward_floats(std::mt19937_64& rng, std::size_t n) {
  const float specials[] = {0.0f, -0.0f, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 126.5f, 127.5f, 128.0f, -128.5f,
                            -129.0f, 254.5f, 255.5f, 256.0f, 32766.5f, 32767.5f, 32768.0f, -32768.5f, -32769.0f,
                            65534.5f, 65535.5f, 70000.0f, -70000.0f, 1e30f, -1e30f,
                            // int32's ends: the floats each side of 2^31 and -2^31
                            2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 3e9f, -3e9f, 16777217.0f,
                            // int64's ends (2^63 each side), bool's (true above a half)
                            9223371487098961920.0f, 9223372036854775808.0f, -9223372036854775808.0f,
                            -9223373136366403584.0f, 1e19f, -1e19f, 0.50000006f, 1e-30f, -1e-30f,
                            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  std::uniform_real_distribution<float> wide(-80000.0f, 80000.0f), narrow(-300.0f, 300.0f);
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = i % 3 == 0 ? specials[(i / 3) % std::size(specials)] : (i % 3 == 1 ? narrow(rng) : wide(rng));
  return v;
}

TEST(ElementConvert, StoresEveryTypeAsStoreElementDoes) {
  auto rng = test::rng_for_test();
  for (const ElementType t : kTypes)
    for (const std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{61},
                                std::size_t{1000}}) {
      const std::vector<float> v = awkward_floats(rng, n);
      const std::size_t es = element_size(t);
      std::vector<unsigned char> got(n * es + 8, 0xAB), want(n * es + 8, 0xAB);
      store_from_float(t, v.data(), got.data(), n);
      for (std::size_t i = 0; i < n; ++i) store_element(t, want.data() + i * es, static_cast<double>(v[i]));
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(std::memcmp(got.data() + i * es, want.data() + i * es, es), 0)
            << to_string(t) << ", n " << n << ", element " << i << " from " << v[i];
      EXPECT_EQ(std::memcmp(got.data() + n * es, want.data() + n * es, 8), 0) << "bytes past the row, " << to_string(t);
    }
}

TEST(ElementConvert, LoadsEveryTypeAsLoadElementDoes) {
  auto rng = test::rng_for_test();
  for (const ElementType t : kTypes)
    for (const std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{61},
                                std::size_t{1000}}) {
      const std::size_t es = element_size(t);
      std::vector<unsigned char> raw(n * es);
      const std::vector<float> v = awkward_floats(rng, n);
      for (std::size_t i = 0; i < n; ++i) store_element(t, raw.data() + i * es, static_cast<double>(v[i]));
      if (t == ElementType::u16 || t == ElementType::i16 || t == ElementType::u8 || t == ElementType::i8 ||
          t == ElementType::i32 || t == ElementType::u32 || t == ElementType::b8)
        for (std::size_t i = 0; i < raw.size(); ++i)
          if (i % 7 == 3) raw[i] = static_cast<unsigned char>(rng());  // every bit pattern of the integers too
      // doubles no float holds: every exponent (past float's range, its denormals), NaNs; every int64 bit pattern
      if (t == ElementType::f64 || t == ElementType::i64 || t == ElementType::u64)
        for (std::size_t i = 0; i < n; i += 2) {
          const std::uint64_t bits = rng();
          std::memcpy(raw.data() + i * es, &bits, es);
        }
      std::vector<float> got(n + 4, -7.0f);
      load_as_float(t, raw.data(), got.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        float want = static_cast<float>(load_element(t, raw.data() + i * es));
        if (t == ElementType::f32 && std::abs(want) < std::numeric_limits<float>::min()) want = std::copysign(0.0f, want);
        if (std::isnan(want)) ASSERT_TRUE(std::isnan(got[i])) << to_string(t) << " element " << i;
        else ASSERT_EQ(got[i], want) << to_string(t) << ", n " << n << ", element " << i;
      }
      EXPECT_EQ(got[n], -7.0f) << "written past the row, " << to_string(t);
    }
}

// Doubles a store must handle: every type's range ends and ties (the floats' list), the doubles
// between (int32's and int64's ends at double's resolution), random bit patterns (every exponent, NaNs).
std::vector<double> awkward_doubles(std::mt19937_64& rng, std::size_t n) {
  const double specials[] = {2147483646.5, 2147483647.0, 2147483647.5, -2147483648.5, -2147483649.0, 4294967295.5,
                             9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0, -9223372036854777856.0,
                             0.5000000000000001, 4503599627370497.0, -4503599627370497.5};
  const std::vector<float> floats = awkward_floats(rng, n);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = floats[i];
    if (i % 4 == 1) v[i] = specials[(i / 4) % std::size(specials)];
    if (i % 4 == 2) {
      const std::uint64_t bits = rng();
      std::memcpy(&v[i], &bits, sizeof(double));
    }
  }
  return v;
}

// Rows of doubles (the drivers that work in double): load_as_double / store_from_double as
// load_element / store_element, every type, lengths about the vector width.
TEST(ElementConvert, DoublesLoadAndStoreEveryTypeAsTheElementsDo) {
  auto rng = test::rng_for_test();
  for (const ElementType t : kTypes)
    for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{61},
                                std::size_t{1000}}) {
      const std::size_t es = element_size(t);
      const std::vector<double> v = awkward_doubles(rng, n);
      std::vector<unsigned char> got(n * es + 8, 0xAB), want(n * es + 8, 0xAB);
      store_from_double(t, v.data(), got.data(), n);
      for (std::size_t i = 0; i < n; ++i) store_element(t, want.data() + i * es, v[i]);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(std::memcmp(got.data() + i * es, want.data() + i * es, es), 0)
            << to_string(t) << ", n " << n << ", element " << i << " from " << v[i];
      EXPECT_EQ(std::memcmp(got.data() + n * es, want.data() + n * es, 8), 0) << "bytes past the row, " << to_string(t);
      // Loads: what was stored, and every bit pattern of the type.
      std::vector<unsigned char> raw(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(n * es));
      for (std::size_t i = 0; i < raw.size(); ++i)
        if (i % 5 == 2) raw[i] = static_cast<unsigned char>(rng());
      std::vector<double> loaded(n + 2, -7.0);
      load_as_double(t, raw.data(), loaded.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        const double expect = load_element(t, raw.data() + i * es);
        if (std::isnan(expect)) ASSERT_TRUE(std::isnan(loaded[i])) << to_string(t) << " element " << i;
        else ASSERT_EQ(loaded[i], expect) << to_string(t) << ", n " << n << ", element " << i;
      }
      EXPECT_EQ(loaded[n], -7.0) << "written past the row, " << to_string(t);
    }
}

}  // namespace
}  // namespace fastblur::core
