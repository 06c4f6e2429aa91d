// cpu/scipy_convert: each type's vector conversions against the scalar model (core::c_convert,
// core::load_element; core::store_element for the rounded ones), on runs whose vectors mix values in range with ones out of range, NaN and
// infinities at every lane, at every length up to a few vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/element.hpp"
#include "cpu/scipy_convert.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

const ElementType kTypes[] = {ElementType::b8,  ElementType::i8,  ElementType::u8,  ElementType::i16,
                              ElementType::u16, ElementType::i32, ElementType::u32, ElementType::i64,
                              ElementType::u64, ElementType::f16, ElementType::f32, ElementType::f64};

// One element of `type` as C converts v (bool as an unsigned char; float16 as core stores it).
std::vector<std::byte> c_bytes(ElementType type, double v) {
  std::vector<std::byte> b(element_size(type));
  const auto put = [&](auto x) { std::memcpy(b.data(), &x, sizeof x); };
  switch (type) {
    case ElementType::b8: case ElementType::u8: put(core::c_convert<std::uint8_t>(v)); break;
    case ElementType::i8: put(core::c_convert<std::int8_t>(v)); break;
    case ElementType::u16: put(core::c_convert<std::uint16_t>(v)); break;
    case ElementType::i16: put(core::c_convert<std::int16_t>(v)); break;
    case ElementType::u32: put(core::c_convert<std::uint32_t>(v)); break;
    case ElementType::i32: put(core::c_convert<std::int32_t>(v)); break;
    case ElementType::u64: put(core::c_convert<std::uint64_t>(v)); break;
    case ElementType::i64: put(core::c_convert<std::int64_t>(v)); break;
    case ElementType::f32: put(static_cast<float>(v)); break;
    case ElementType::f64: put(v); break;
    case ElementType::f16: core::store_element(ElementType::f16, b.data(), v); break;
  }
  return b;
}

// Doubles a filter may give past the usual: NaN, infinities, int32's, uint32's and int64's range ends
// (the vector paths' bounds), -1 and just above it (an unsigned type's wrap), values in int64's range
// past int32's, ties.
constexpr double kSpecials[] = {NAN, INFINITY, -INFINITY, 2147483648.0, -2147483649.0, 2147483647.9,
                                -2147483648.5, 4294967296.5, 4294967295.75, 1e19, -1e19, 70000.25, -40000.75,
                                255.5, -0.5, 300.0, -1.0, -0.999, 9223372036854775808.0, -9223372036854775808.0,
                                9223372036854774784.0, -9223372036854777856.0, 1e18, -1e18};

// A run mostly in range with a few specials at random lanes.
std::vector<double> awkward_run(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> in_range(-200.0, 300.0);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kSpecials) - 1);
  std::vector<double> v(n);
  for (double& x : v) x = (rng() % 9 == 0) ? kSpecials[pick(rng)] : in_range(rng);
  return v;
}

// from_doubles, through_type and to_doubles of a run against the scalar model (c_bytes, load_element).
void expect_the_scalar_model(ElementType t, const std::vector<double>& from) {
  const std::size_t n = from.size(), es = element_size(t);
  std::vector<std::byte> got(n * es + 1);
  cpu::from_doubles(t, from.data(), n, got.data() + 1);  // an unaligned destination too
  std::vector<double> round(from), back(n);
  cpu::through_type(t, round.data(), n);
  cpu::to_doubles(t, got.data() + 1, n, back.data());
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<std::byte> want = c_bytes(t, from[i]);
    ASSERT_EQ(std::memcmp(got.data() + 1 + i * es, want.data(), es), 0)
        << to_string(t) << " from_doubles of " << from[i] << " at " << i << " of " << n;
    const double want_back = core::load_element(t == ElementType::b8 ? ElementType::u8 : t, want.data());
    const bool both_nan = std::isnan(want_back) && std::isnan(round[i]);
    ASSERT_TRUE(both_nan || round[i] == want_back)
        << to_string(t) << " through_type of " << from[i] << ": " << round[i] << ", want " << want_back;
    ASSERT_TRUE((std::isnan(want_back) && std::isnan(back[i])) || back[i] == want_back)
        << to_string(t) << " to_doubles at " << i;
  }
}

// check(type, run) on every type: awkward runs of every length up to a few vectors, then each special
// alone in a run of `filler` (a vector whose one lane lies on a path's bound).
template <class Check>
void over_awkward_runs(std::mt19937_64& gen, double filler, const Check& check) {
  for (ElementType t : kTypes)
    for (std::size_t n = 0; n <= 70; ++n) check(t, awkward_run(gen, n));
  for (ElementType t : kTypes)
    for (const double special : kSpecials)
      for (std::size_t at : {std::size_t{0}, std::size_t{5}, std::size_t{13}}) {
        std::vector<double> run(24, filler);
        run[at] = special;
        check(t, run);
      }
}

TEST(ScipyConvert, VectorsMatchTheScalarModelOnEveryTypeAndLength) {
  auto rng = test::rng_for_test();
  std::mt19937_64 gen(rng());
  over_awkward_runs(gen, 17.25, expect_the_scalar_model);
}

// from_doubles_rounded (the exact result rounded once) against core::store_element: integers rounded
// to nearest, ties to even, saturated, NaN to 0; bool nonzero once rounded; floats as C converts.
void expect_rounded_as_stored(ElementType t, const std::vector<double>& from) {
  const std::size_t n = from.size(), es = element_size(t);
  std::vector<std::byte> got(n * es + 1), want(es);
  cpu::from_doubles_rounded(t, from.data(), n, got.data() + 1);  // an unaligned destination too
  for (std::size_t i = 0; i < n; ++i) {
    core::store_element(t, want.data(), from[i]);
    ASSERT_EQ(std::memcmp(got.data() + 1 + i * es, want.data(), es), 0)
        << to_string(t) << " from_doubles_rounded of " << from[i] << " at " << i << " of " << n;
  }
}

TEST(ScipyConvert, RoundedOnceMatchesTheStoredElementOnEveryTypeAndLength) {
  auto rng = test::rng_for_test();
  std::mt19937_64 gen(rng());
  over_awkward_runs(gen, 17.5, expect_rounded_as_stored);  // a tie (to even: 18) in every lane but the special's
  // Ties round to even in the vector lanes: 0.5 -> 0, 1.5 -> 2, -2.5 -> -2.
  std::vector<double> ties{0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 254.5, 255.5, 32766.5, -32768.5, 65535.5, 3.5, 4.5, 5.5, 6.5, 7.5};
  std::vector<std::int16_t> out(ties.size());
  cpu::from_doubles_rounded(ElementType::i16, ties.data(), ties.size(), out.data());
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[5], -2);
  EXPECT_EQ(out[8], 32766);
  EXPECT_EQ(out[9], -32768);
  EXPECT_EQ(out[10], 32767);
  for (ElementType t : kTypes) expect_rounded_as_stored(t, ties);
}

}  // namespace
}  // namespace fastblur
