// The kernel eigenvalues each border's transform multiplies by, and FFTW's fast lengths.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "cpu/fft_spectrum.hpp"
#include "cpu/fftw_plans.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
// lambda_k = sum_{j=-r..r} w_j cos(2 pi k j / period), summed directly.
double direct_eigenvalue(const std::vector<double>& half, std::int64_t period, std::int64_t k) {
  double s = half[0];
  for (std::size_t j = 1; j < half.size(); ++j)
    s += 2.0 * half[j] *
         std::cos(2.0 * std::numbers::pi * static_cast<double>((k * static_cast<std::int64_t>(j)) % period) /
                  static_cast<double>(period));
  return s;
}

TEST(FftSpectrum, FoldingKeepsTheSumAndWrapsEveryTap) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> sd(0.3, 60.0);
  std::uniform_int_distribution<std::int64_t> pd(1, 40);
  for (int trial = 0; trial < 50; ++trial) {
    const double sigma = sd(rng);
    const int r = kernel::radius_from_truncate(sigma, 4.0);
    const std::vector<double> w = kernel::gaussian_weights(sigma, r);
    const std::vector<double> half(w.begin() + r, w.end());
    const std::int64_t period = pd(rng);
    const std::vector<double> folded = cpu::fold_symmetric_kernel(half, period);
    ASSERT_EQ(folded.size(), static_cast<std::size_t>(period));
    std::vector<double> expect(static_cast<std::size_t>(period), 0.0);
    for (int j = -r; j <= r; ++j) expect[static_cast<std::size_t>(((j % period) + period) % period)] += w[static_cast<std::size_t>(j + r)];
    double sum = 0.0;
    for (std::int64_t m = 0; m < period; ++m) {
      ASSERT_NEAR(folded[static_cast<std::size_t>(m)], expect[static_cast<std::size_t>(m)], 1e-15) << "m " << m;
      ASSERT_NEAR(folded[static_cast<std::size_t>(m)], folded[static_cast<std::size_t>((period - m) % period)], 1e-16);
      sum += folded[static_cast<std::size_t>(m)];
    }
    ASSERT_NEAR(sum, 1.0, 1e-14) << "sigma " << sigma << " period " << period;
  }
}

// The eigenvalues each border uses: wrap on period n, reflect on 2n, mirror on 2n-2 (the first n of
// each), and the cut kernel of nearest/constant on the padded length; r below and far above n.
TEST(FftSpectrum, EigenvaluesEqualTheDirectCosineSums) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> sd(0.3, 80.0);
  std::uniform_int_distribution<std::int64_t> nd(2, 97);
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    const double sigma = sd(rng);
    const int r = kernel::radius_from_truncate(sigma, 4.0);
    const std::vector<double> w = kernel::gaussian_weights(sigma, r);
    const std::vector<double> half(w.begin() + r, w.end());
    const std::int64_t n = nd(rng);
    for (std::int64_t period : {n, 2 * n, 2 * n - 2, cpu::fftw_fast_length(n + std::min<std::int64_t>(r, n - 1))}) {
      const std::vector<double> lambda = cpu::symmetric_kernel_spectrum(half, period);
      ASSERT_EQ(lambda.size(), static_cast<std::size_t>(period / 2 + 1));
      for (std::int64_t k = 0; k <= period / 2; ++k) {
        const double e = std::abs(lambda[static_cast<std::size_t>(k)] - direct_eigenvalue(half, period, k));
        worst = std::max(worst, e);
        ASSERT_LE(e, 1e-14) << "sigma " << sigma << " r " << r << " period " << period << " k " << k;
      }
      ASSERT_NEAR(lambda[0], 1.0, 1e-14);  // the kernel sums to 1
    }
  }
  std::printf("[ measured ] eigenvalues vs direct cosine sums: worst difference %.2e\n", worst);
}

TEST(FftSpectrum, FastLengthsHaveOnlySmallPrimeFactors) {
  const std::pair<std::int64_t, std::int64_t> cases[] = {{0, 1}, {1, 1}, {11, 12}, {13, 14}, {17, 18}, {97, 98},
                                                         {121, 125}, {1031, 1050}, {4097, 4116}};
  for (auto [in, out] : cases) EXPECT_EQ(cpu::fftw_fast_length(in), out) << in;
}

}  // namespace
}  // namespace fastblur
