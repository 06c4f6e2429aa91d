#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

TEST(GaussianWeights, NormalisedSymmetricAndSampledFromTheGaussian) {
  for (double sigma : {0.2, 0.5, 1.0, 3.7, 25.0})
    for (int radius : {0, 1, 4, 30}) {
      const auto w = gaussian_weights(sigma, radius);
      ASSERT_EQ(w.size(), static_cast<std::size_t>(2 * radius + 1));
      double sum = 0.0;
      for (double v : w) sum += v;
      EXPECT_NEAR(sum, 1.0, 1e-14);
      for (int k = 0; k <= radius; ++k) {
        EXPECT_EQ(w[radius + k], w[radius - k]);
        // The ratio to the centre is exp(-k^2 / (2 sigma^2)).
        EXPECT_NEAR(w[radius + k] / w[radius], std::exp(-k * k / (2 * sigma * sigma)), 1e-14);
      }
    }
  EXPECT_THROW(gaussian_weights(0.0, 3), InvalidArgument);
  EXPECT_THROW(gaussian_weights(1.0, -1), InvalidArgument);
}

TEST(GaussianWeights, ScipyKnownValues) {
  // scipy.ndimage._filters._gaussian_kernel1d(1.0, 0, 4)
  const double scipy[] = {0.00013383062461474175, 0.004431861620031266, 0.053991127420704395,
                          0.24197144565660073, 0.39894346935609776};
  const auto w = gaussian_weights(1.0, 4);
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(w[k], scipy[k], 1e-16);
  // _gaussian_kernel1d(2.5, 0, 3)
  const double scipy2[] = {0.09232720006892976, 0.1377359973268962, 0.17509676957048806, 0.18968006606737195};
  const auto w2 = gaussian_weights(2.5, 3);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(w2[k], scipy2[k], 1e-16);
}

TEST(Radius, FromTruncateLikeScipy) {
  EXPECT_EQ(radius_from_truncate(1.0, 4.0), 4);
  EXPECT_EQ(radius_from_truncate(2.4, 4.0), 10);   // int(10.1)
  EXPECT_EQ(radius_from_truncate(0.3, 4.0), 1);    // int(1.7)
  EXPECT_EQ(radius_from_truncate(0.1, 4.0), 0);
  EXPECT_EQ(radius_from_truncate(1.125, 4.0), 5);  // int(5.0): .5 rounds up
  EXPECT_THROW(radius_from_truncate(-1.0, 4.0), InvalidArgument);
  EXPECT_THROW(radius_from_truncate(NAN, 4.0), InvalidArgument);
  EXPECT_THROW(radius_from_truncate(1e9, 4.0), InvalidArgument);
}

double brute_dropped(double sigma, int radius) {
  double in = 0.0, all = 0.0;
  for (int x = -2000; x <= 2000; ++x) {
    const double v = std::exp(-x * double(x) / (2 * sigma * sigma));
    all += v;
    if (std::abs(x) <= radius) in += v;
  }
  return 1.0 - in / all;
}

TEST(Radius, PrecisionRuleOfSeed003) {
  for (double sigma : {0.4, 1.0, 2.5, 10.0, 60.0}) {
    for (int r : {0, 1, 3, 7}) EXPECT_NEAR(dropped_weight(sigma, r), brute_dropped(sigma, r), 1e-13);
    for (double eps : {1.0 / 255, 1.0 / 65535, 1e-7}) {
      const int r = radius_for_precision(sigma, eps);
      EXPECT_LT(dropped_weight(sigma, r), eps) << sigma << " " << eps;
      if (r > 0) {
        EXPECT_GE(dropped_weight(sigma, r - 1), eps) << sigma << " " << eps;
      }
    }
  }
  // 8-bit output needs far fewer taps than scipy's 4 sigma at sigma 10.
  EXPECT_LT(radius_for_precision(10.0, 1.0 / 255), radius_from_truncate(10.0, 4.0));
}

TEST(Radius, SigmaForPrecision) {
  for (int radius : {2, 5, 17, 63})
    for (double eps : {1.0 / 255, 1e-4}) {
      const double s = sigma_for_precision(radius, eps);
      EXPECT_NEAR(gaussian_weights(s, radius).front(), eps, eps * 1e-9) << radius;
    }
  EXPECT_THROW(sigma_for_precision(2, 0.5), InvalidArgument);
}

}  // namespace
}  // namespace fastblur::kernel
