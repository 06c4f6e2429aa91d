#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

TEST(Downsample, AddedVarianceAndCompensation) {
  EXPECT_DOUBLE_EQ(downsample_added_variance(2), 0.25 + 0.75);  // box of 2 + interpolation
  EXPECT_DOUBLE_EQ(downsample_added_variance(4), 1.25 + 2.75);
  EXPECT_THROW(downsample_added_variance(3), InvalidArgument);
  // Large low sigmas are close to the continuous value; small ones are raised to beat aliasing.
  EXPECT_NEAR(downsample_low_sigma(20.0, 2), std::sqrt((400.0 - 1.0) / 4.0), 0.02);
  for (auto [sigma, f] : {std::pair{2.5, 4}, {1.3, 2}, {7.0, 2}, {40.0, 4}}) {
    const double low = downsample_low_sigma(sigma, f);
    const int r = std::max(1, radius_from_truncate(low, 4.0));
    const auto w = gaussian_weights(low, r);
    double v = 0.0;
    for (int x = -r; x <= r; ++x) v += w[x + r] * x * x;
    EXPECT_NEAR(v, (sigma * sigma - downsample_added_variance(f)) / (f * f), 1e-9) << sigma;
  }
  EXPECT_GT(downsample_low_sigma(2.5, 4), std::sqrt((6.25 - 4.0) / 16.0) * 1.1);  // aliasing made up for
  EXPECT_THROW(downsample_low_sigma(1.0, 2), InvalidArgument);  // the resampling alone is sigma 1
  EXPECT_THROW(downsample_low_sigma(1.9, 4), InvalidArgument);
  EXPECT_EQ(downsample_factor_for(11.9), 2);
  EXPECT_EQ(downsample_factor_for(12.0), 4);
}

}  // namespace
}  // namespace fastblur::kernel
