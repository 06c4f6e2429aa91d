#include <gtest/gtest.h>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

TEST(Binomial, PascalRows) {
  const auto w = binomial_weights(4);
  const double want[] = {1, 4, 6, 4, 1};
  for (int k = 0; k < 5; ++k) EXPECT_NEAR(w[k], want[k] / 16.0, 1e-15);
  EXPECT_EQ(binomial_weights(0).size(), 1u);
}

TEST(Binomial, SumAndVarianceAtAnyOrder) {
  for (int n : {1, 2, 7, 64, 1000, 100000}) {
    const auto w = binomial_weights(n);
    double sum = 0.0, mean = 0.0, var = 0.0;
    for (int k = 0; k <= n; ++k) sum += w[k], mean += k * w[k];
    for (int k = 0; k <= n; ++k) var += (k - mean) * (k - mean) * w[k];
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_NEAR(mean, n / 2.0, 1e-9 * n + 1e-12);
    EXPECT_NEAR(var, n / 4.0, 1e-9 * n + 1e-12);
  }
  EXPECT_THROW(binomial_weights(-1), InvalidArgument);
}

TEST(Binomial, OrderForSigma) {
  EXPECT_EQ(binomial_order_for_sigma(2.0), 16);
  EXPECT_EQ(binomial_order_for_sigma(0.0), 0);
  EXPECT_EQ(binomial_order_for_sigma(1.1), 5);  // 4.84 -> 5
}

}  // namespace
}  // namespace fastblur::kernel
