#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

double variance_of(const std::vector<double>& k) {
  const double c = (k.size() - 1) / 2.0;
  double v = 0.0, s = 0.0;
  for (std::size_t i = 0; i < k.size(); ++i) v += k[i] * (i - c) * (i - c), s += k[i];
  return v / s;
}

TEST(ExtendedBox, VarianceIsExactForEverySigma) {
  for (int n = 1; n <= 6; ++n)
    for (double sigma = 0.05; sigma < 80; sigma *= 1.37) {
      const auto passes = extended_box_passes(sigma, n);
      ASSERT_EQ(passes.size(), static_cast<std::size_t>(n));
      for (const auto& p : passes) {
        EXPECT_GE(p.alpha, 0.0);
        EXPECT_LT(p.alpha, 1.0);
        EXPECT_NEAR(p.variance(), sigma * sigma / n, 1e-9 * sigma * sigma);
      }
      EXPECT_NEAR(achieved_sigma(passes), sigma, 1e-9 * sigma);
      const auto k = box_kernel(passes);
      double sum = 0.0;
      for (double w : k) sum += w;
      EXPECT_NEAR(sum, 1.0, 1e-12);
      EXPECT_NEAR(variance_of(k), sigma * sigma, 1e-9 * sigma * sigma + 1e-12);
    }
  EXPECT_THROW(extended_box_passes(1.0, 0), InvalidArgument);
  EXPECT_THROW(extended_box_passes(1.0, 7), InvalidArgument);
}

TEST(IntegerBox, OddWidthsCloseToSigma) {
  for (int n = 1; n <= 6; ++n)
    for (double sigma : {1.0, 2.5, 7.0, 20.0}) {
      const auto passes = integer_box_passes(sigma, n);
      for (const auto& p : passes) EXPECT_EQ(p.alpha, 0.0);
      // Kovesi's rounding keeps the variance within one width step of the target.
      const double step = (4.0 * passes.front().radius * 2 + 8) / 12.0;  // variance change of wl -> wl + 2
      EXPECT_NEAR(achieved_sigma(passes) * achieved_sigma(passes), sigma * sigma, step) << n << " " << sigma;
    }
  // Sigma 5, 3 passes by hand: ideal width sqrt(101) = 10.05, wl = 9, wu = 11,
  // m = round((300 - 243 - 108 - 9) / -40) = round(1.5) = 2: widths 9, 9, 11.
  const auto p = integer_box_passes(5.0, 3);
  EXPECT_EQ(p[0].radius, 4);
  EXPECT_EQ(p[1].radius, 4);
  EXPECT_EQ(p[2].radius, 5);
}

}  // namespace
}  // namespace fastblur::kernel
