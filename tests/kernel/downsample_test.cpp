#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

TEST(Downsample, AddedVarianceAndCompensation) {
  EXPECT_DOUBLE_EQ(downsample_added_variance(2), 0.75 + 0.75);  // the tent + the interpolation
  EXPECT_DOUBLE_EQ(downsample_added_variance(4), 2.75 + 2.75);
  EXPECT_THROW(downsample_added_variance(3), InvalidArgument);
  // Large low sigmas are close to the continuous value; small ones are raised to beat aliasing.
  EXPECT_NEAR(downsample_low_sigma(20.0, 2), std::sqrt((400.0 - 1.5) / 4.0), 0.02);
  for (auto [sigma, f] : {std::pair{2.5, 4}, {1.3, 2}, {7.0, 2}, {40.0, 4}}) {
    const double low = downsample_low_sigma(sigma, f);
    const int r = std::max(1, radius_from_truncate(low, 4.0));
    const auto w = gaussian_weights(low, r);
    double v = 0.0;
    for (int x = -r; x <= r; ++x) v += w[x + r] * x * x;
    EXPECT_NEAR(v, (sigma * sigma - downsample_added_variance(f)) / (f * f), 1e-9) << sigma;
  }
  EXPECT_GT(downsample_low_sigma(2.5, 4), std::sqrt((6.25 - 5.5) / 16.0) * 1.1);  // aliasing made up for
  EXPECT_THROW(downsample_low_sigma(1.2, 2), InvalidArgument);  // the resampling alone is sigma 1.22
  EXPECT_THROW(downsample_low_sigma(2.3, 4), InvalidArgument);  // and 2.35
  EXPECT_NEAR(downsample_added_variance(8), 21.5, 1e-12);
  EXPECT_THROW(downsample_low_sigma(4.6, 8), InvalidArgument);  // and 4.64
  EXPECT_THROW(downsample_added_variance(6), InvalidArgument);
  EXPECT_EQ(downsample_factor_for(19.9), 2);
  EXPECT_EQ(downsample_factor_for(20.0), 4);
}

// The tent keeps an impulse's centre where it is, at every phase: the first moment of each phase's
// response is the impulse's position (a block average would move it by up to (f - 1) / 2 samples).
TEST(Downsample, EveryPhaseKeepsTheImpulsesCentre) {
  for (int f : {2, 4, 8})
    for (double sigma : {3.0, 7.5, 25.0}) {
      if (sigma * sigma <= downsample_added_variance(f)) continue;  // 3 is below factor 8's 4.64
      const int half = static_cast<int>(10 * sigma) + 8 * f;
      for (int phase = 0; phase < f; ++phase) {
        const auto h = downsample_impulse_response(sigma, f, 4.0, phase, half);
        double m0 = 0.0, m1 = 0.0;
        for (int j = -half; j <= half; ++j) m0 += h[static_cast<std::size_t>(j + half)], m1 += j * h[static_cast<std::size_t>(j + half)];
        EXPECT_NEAR(m0, 1.0, 1e-12) << f << " " << sigma << " " << phase;
        EXPECT_NEAR(m1 / m0, 0.0, 1e-9) << f << " " << sigma << " " << phase;
      }
    }
}

}  // namespace
}  // namespace fastblur::kernel
