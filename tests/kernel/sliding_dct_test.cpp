// The sliding-DCT series: unit gain, exact where the series is a whole DFT, the documented accuracy
// as a Gaussian for each order (docs/DESIGN.md metrics of the equivalent kernel), bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_sliding_dct.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

TEST(SlidingDctKernel, UnitGainAndSymmetric) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> sigma(0.1, 80.0);
  for (int i = 0; i < 12; ++i) {
    const double s = sigma(rng);
    for (int order = kernel::kSlidingDctMinOrder; order <= kernel::kSlidingDctMaxOrder; ++order) {
      const auto k = kernel::sliding_dct_kernel(s, order);
      const auto h = kernel::sliding_dct_weights(k);
      ASSERT_EQ(h.size(), 2 * static_cast<std::size_t>(k.radius) + 1);
      EXPECT_NEAR(std::accumulate(h.begin(), h.end(), 0.0), 1.0, 1e-12) << s << " " << order;
      for (std::size_t j = 0; j < h.size(); ++j) EXPECT_NEAR(h[j], h[h.size() - 1 - j], 1e-15);
    }
  }
}

TEST(SlidingDctKernel, WholeSeriesReproducesTheWindowedGaussian) {
  // With order >= radius the series holds every frequency of the window: h is the sampled
  // Gaussian on the window, its missing tail spread evenly (beta_0 = 1/(2R+1) forces gain 1).
  for (double s : {0.4, 0.8, 1.3}) {
    const auto k = kernel::sliding_dct_kernel_for_radius(s, 8, 3);
    EXPECT_EQ(k.order(), 3);
    const auto h = kernel::sliding_dct_weights(k);
    const auto g = analysis::reference_gaussian(s, 3);
    const double sum = std::accumulate(g.begin(), g.end(), 0.0);
    for (std::size_t j = 0; j < h.size(); ++j) EXPECT_NEAR(h[j], g[j] + (1.0 - sum) / 7.0, 1e-13) << s;
  }
}

// The documented bounds (kernel_sliding_dct.hpp), measured on the equivalent kernel.
TEST(SlidingDctKernel, AccuracyPerOrderMeetsTheDocumentedBounds) {
  struct Bound { int order; double max_error, l1; };
  for (const Bound& b : {Bound{3, 2.3e-3, 3e-3}, Bound{4, 5e-4, 7e-4}, Bound{5, 7e-5, 1.4e-4}, Bound{6, 2e-5, 4e-5}})
    for (double s : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 200.0}) {
      const auto k = kernel::sliding_dct_kernel(s, b.order);
      const auto h = kernel::sliding_dct_weights(k);
      const int half = k.radius + static_cast<int>(std::ceil(8 * s)) + 2;
      const auto g = analysis::reference_gaussian(s, half);
      double worst = 0.0, l1 = 0.0, m2 = 0.0;
      for (int x = -half; x <= half; ++x) {
        const double hv = std::abs(x) <= k.radius ? h[static_cast<std::size_t>(x + k.radius)] : 0.0;
        const double d = std::abs(hv - g[static_cast<std::size_t>(x + half)]);
        worst = std::max(worst, d);
        l1 += d;
        m2 += hv * x * double(x);
      }
      worst /= g[static_cast<std::size_t>(half)];
      std::printf("[ measured ] sliding-dct order %d sigma %5.0f: radius %d, max error %.2e, L1 %.2e, effective sigma "
                  "%.6f\n", b.order, s, k.radius, worst, l1, std::sqrt(m2));
      EXPECT_LE(worst, b.max_error) << b.order << " " << s;
      EXPECT_LE(l1, b.l1) << b.order << " " << s;
      EXPECT_NEAR(std::sqrt(m2), s, (b.order == 3 ? 6e-3 : 2e-3) * s) << b.order << " " << s;
      EXPECT_NEAR(kernel::sliding_dct_max_error(k, s), worst, 1e-12);
    }
}

TEST(SlidingDctKernel, LargeSigmaScalesTheSearchedRadius) {
  const auto k64 = kernel::sliding_dct_kernel(64.0);
  const auto k = kernel::sliding_dct_kernel(5000.0);
  EXPECT_NEAR(k.radius / 5000.0, k64.radius / 64.0, 1e-3);
  EXPECT_LE(kernel::sliding_dct_max_error(k, 5000.0), 7e-5);
}

TEST(SlidingDctKernel, BadInputIsRejected) {
  EXPECT_THROW(kernel::sliding_dct_kernel(0.0), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel(-1.0), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel(NAN), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel(2e6), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel(3.0, 1), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel(3.0, 9), InvalidArgument);
  EXPECT_THROW(kernel::sliding_dct_kernel_for_radius(3.0, 5, 0), InvalidArgument);
}

// fir's kernel as a series (cosines longer than the window): within 1e-5 of fir's weights from order
// 6, 1e-6 from order 8, at every sigma and the usual truncations; more terms, less error.
TEST(SlidingDctKernel, TheSeriesOfFirsKernelMatchesItsWeights) {
  for (double truncate : {3.0, 4.0})
    for (double sigma : {1.5, 2.0, 3.7, 8.0, 21.0, 50.0, 64.0, 200.0, 1500.0}) {
      const int radius = static_cast<int>(truncate * sigma + 0.5);
      const std::vector<double> w = kernel::gaussian_weights(sigma, radius);
      double previous = 1.0;
      for (int order : {6, 7, 8}) {
        const kernel::SlidingDctKernel k = kernel::sliding_dct_kernel_matching_fir(sigma, order, radius);
        ASSERT_GT(k.period, 2.0 * radius + 1.0);
        const double e = kernel::sliding_dct_error_against(k, w);
        EXPECT_LE(e, order == 6 ? 1e-5 : order == 7 ? 2e-6 : 3e-7) << "sigma " << sigma << " order " << order;
        EXPECT_LT(e, previous) << "sigma " << sigma << " order " << order;
        previous = e;
      }
    }
}

}  // namespace
}  // namespace fastblur
