// kernel::sums_stay_in_range: which kernels, types and cvals keep SciPy's sums within one unit of
// the output type's range - checked against the sums themselves, at the range's ends, in SciPy's
// order (cpu::ordered_correlate_rows) - and what it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cpu/ordered_correlate.hpp"
#include "fastblur/kernel.hpp"
#include "kernel/sums_in_range.hpp"

namespace fastblur::kernel {
namespace {

struct Range {
  ElementType type;
  double lowest, highest;
};
const Range kRanges[] = {{ElementType::i8, -128, 127},           {ElementType::u8, 0, 255},
                         {ElementType::i16, -32768, 32767},      {ElementType::u16, 0, 65535},
                         {ElementType::i32, -2147483648.0, 2147483647.0}, {ElementType::u32, 0, 4294967295.0}};

// SciPy's sum of `w` over a line of `v` everywhere (the pair form where w is symmetric).
double sum_of_constant(const std::vector<double>& w, double v) {
  std::vector<double> line(w.size(), v);
  std::vector<const double*> rows;
  for (double& x : line) rows.push_back(&x);
  double out = 0.0;
  const int size1 = static_cast<int>(w.size() / 2);
  cpu::ordered_correlate_rows(rows.data() + size1, 0, &out, 1, w.data() + size1, size1,
                              static_cast<int>(w.size()) - size1 - 1, 1);
  return out;
}

TEST(SumsInRange, GaussiansKeepEveryIntegerTypesSumsWithinItsRange) {
  for (const Range& r : kRanges)
    for (const double sigma : {0.5, 1.3, 4.0, 25.0, 300.0}) {
      const auto w = gaussian_weights(sigma, static_cast<int>(std::ceil(4 * sigma)));
      ASSERT_TRUE(sums_stay_in_range(w, r.type, r.type, 0.0)) << to_string(r.type) << " sigma " << sigma;
      for (const double v : {r.lowest, r.highest}) {  // what the promise is about: the ends, truncated
        const double t = std::trunc(sum_of_constant(w, v));
        EXPECT_GE(t, r.lowest) << to_string(r.type) << " sigma " << sigma;
        EXPECT_LE(t, r.highest) << to_string(r.type) << " sigma " << sigma;
      }
    }
}

TEST(SumsInRange, RefusesWhatCouldLeaveTheRange) {
  const auto g = gaussian_weights(2.0, 8);
  // Weights summing past 1 by more than half a unit at the range's ends: int16's ends move by 3.3.
  std::vector<double> heavy = g;
  for (double& w : heavy) w *= 1.0001;
  EXPECT_FALSE(sums_stay_in_range(heavy, ElementType::i16, ElementType::i16, 0.0));
  EXPECT_GT(std::trunc(sum_of_constant(heavy, 32767.0)), 32767.0);  // and they would have
  EXPECT_TRUE(sums_stay_in_range(heavy, ElementType::u8, ElementType::u8, 0.0));  // 255 moves by 0.03
  // A derivative's negative weights; a NaN weight.
  EXPECT_FALSE(sums_stay_in_range(gaussian_derivative_weights(2.0, 1, 8), ElementType::i16, ElementType::i16, 0.0));
  std::vector<double> nan_weight = g;
  nan_weight[3] = NAN;
  EXPECT_FALSE(sums_stay_in_range(nan_weight, ElementType::u8, ElementType::u8, 0.0));
  // A source wider than the output, a float source, bool, 64-bit and float outputs.
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::i16, ElementType::u8, 0.0));
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::u16, ElementType::i16, 0.0));
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::f32, ElementType::i16, 0.0));
  EXPECT_TRUE(sums_stay_in_range(g, ElementType::u8, ElementType::i16, 0.0));
  EXPECT_TRUE(sums_stay_in_range(g, ElementType::i16, ElementType::i32, 0.0));
  for (const ElementType t : {ElementType::b8, ElementType::i64, ElementType::u64, ElementType::f16, ElementType::f32,
                              ElementType::f64})
    EXPECT_FALSE(sums_stay_in_range(g, t, t, 0.0)) << to_string(t);
  // A cval outside the output's range (SciPy pads with it as given) or NaN.
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::u8, ElementType::u8, -1.5));
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::u16, ElementType::u16, 70000.0));
  EXPECT_FALSE(sums_stay_in_range(g, ElementType::i8, ElementType::i8, NAN));
  EXPECT_TRUE(sums_stay_in_range(g, ElementType::i8, ElementType::i8, -127.5));
}

}  // namespace
}  // namespace fastblur::kernel
