// The recursive-Gaussian coefficients, checked by running the recursions exactly as the header
// documents them: unit DC gain, symmetry, closeness to the Gaussian, decay within the stated
// length, the published Young-van Vliet numbers, and the Triggs-Sdika matrix against its definition.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_iir.hpp"
#include "support/test_support.hpp"

namespace fastblur::kernel {
namespace {

// Impulse responses at offsets -half..half (index half is offset 0), from an impulse in the middle
// of a zero line of 2*half + 1 samples, recursions started at rest.
std::vector<double> deriche_impulse_response(const DericheCoefficients& c, int half) {
  const int n = 2 * half + 1;
  std::vector<double> x(static_cast<std::size_t>(n), 0.0), causal(x), anticausal(x);
  x[static_cast<std::size_t>(half)] = 1.0;
  const auto at = [&](const std::vector<double>& v, int i) { return i < 0 || i >= n ? 0.0 : v[static_cast<std::size_t>(i)]; };
  for (int i = 0; i < n; ++i) {
    double y = 0.0;
    for (int k = 0; k < 4; ++k) y += c.causal[k] * at(x, i - k) - c.feedback[k] * at(causal, i - k - 1);
    causal[static_cast<std::size_t>(i)] = y;
  }
  for (int i = n - 1; i >= 0; --i) {
    double y = 0.0;
    for (int k = 0; k < 4; ++k) y += c.anticausal[k] * at(x, i + k + 1) - c.feedback[k] * at(anticausal, i + k + 1);
    anticausal[static_cast<std::size_t>(i)] = y;
  }
  for (int i = 0; i < n; ++i) causal[static_cast<std::size_t>(i)] += anticausal[static_cast<std::size_t>(i)];
  return causal;
}

std::vector<double> young_van_vliet_impulse_response(const YoungVanVlietCoefficients& c, int half) {
  const int n = 2 * half + 1;
  std::vector<double> w(static_cast<std::size_t>(n), 0.0), v(w);
  const auto at = [&](const std::vector<double>& s, int i) { return i < 0 || i >= n ? 0.0 : s[static_cast<std::size_t>(i)]; };
  const auto& a = c.feedback;
  for (int i = 0; i < n; ++i)
    w[static_cast<std::size_t>(i)] = c.B * (i == half ? 1.0 : 0.0) + a[0] * at(w, i - 1) + a[1] * at(w, i - 2) + a[2] * at(w, i - 3);
  for (int i = n - 1; i >= 0; --i)
    v[static_cast<std::size_t>(i)] = c.B * w[static_cast<std::size_t>(i)] + a[0] * at(v, i + 1) + a[1] * at(v, i + 2) + a[2] * at(v, i + 3);
  return v;
}

double sum_of(const std::vector<double>& h) {
  double s = 0.0;
  for (double v : h) s += v;
  return s;
}
double sigma_of(const std::vector<double>& h) {
  const int half = static_cast<int>(h.size() / 2);
  double m2 = 0.0;
  for (int i = 0; i < static_cast<int>(h.size()); ++i) m2 += h[static_cast<std::size_t>(i)] * (i - half) * (i - half);
  return std::sqrt(m2 / sum_of(h));
}
// The weight of the response at |offset| > k.
double tail_beyond(const std::vector<double>& h, std::int64_t k) {
  const std::int64_t half = static_cast<std::int64_t>(h.size() / 2);
  double t = 0.0;
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(h.size()); ++i)
    if (std::abs(i - half) > k) t += std::abs(h[static_cast<std::size_t>(i)]);
  return t;
}

const double kSigmas[] = {0.5, 0.8, 1.0, 1.7, 2.5, 4.2, 10.0, 33.3, 100.0};

TEST(IirDeriche, UnitDcGainSymmetricAndCloseToTheGaussian) {
  for (double sigma : kSigmas) {
    const auto c = deriche_coefficients(sigma);
    EXPECT_NEAR(c.causal_gain + c.anticausal_gain, 1.0, 1e-15) << sigma;
    const int half = static_cast<int>(40 * sigma) + 40;
    const auto h = deriche_impulse_response(c, half);
    // Exact but for rounding, which the 4th-order denominator (1 + a1 + ... + a4 ~ (1.75/sigma)^4)
    // amplifies: 1e-10 at sigma 100.
    EXPECT_NEAR(sum_of(h), 1.0, 1e-9) << sigma;
    for (int k = 1; k <= half; ++k)
      ASSERT_NEAR(h[static_cast<std::size_t>(half + k)], h[static_cast<std::size_t>(half - k)], 1e-9 * h[half])
          << sigma << " " << k;
    // Deriche's fit: within 0.5% of the peak everywhere, sigma within 8% (0.5) to 0.3% (from 1).
    const auto g = analysis::reference_gaussian(sigma, half);
    double worst = 0.0;
    for (int i = 0; i <= 2 * half; ++i) worst = std::max(worst, std::abs(h[i] - g[i]));
    EXPECT_LE(worst, 5e-4 * g[static_cast<std::size_t>(half)]) << sigma;
    EXPECT_NEAR(sigma_of(h), sigma, sigma >= 1.0 ? 3e-3 * sigma : 0.08 * sigma) << sigma;
  }
}

TEST(IirDeriche, ParallelFormHasTheDirectFormsImpulseResponse) {
  // The partial fractions, run as documented in double, against the direct form.
  for (double sigma : {0.5, 1.0, 4.2, 33.3, 300.0, 1000.0}) {
    const DericheParallelForm f = deriche_parallel_form(sigma);
    const int half = static_cast<int>(22 * sigma) + 20, n = 2 * half + 1;  // the tail below 1e-15
    const std::vector<double> direct = deriche_impulse_response(deriche_coefficients(sigma), half);
    std::vector<double> parallel(static_cast<std::size_t>(n), 0.0);
    for (int k = 0; k < 2; ++k) {
      const std::complex<double> p = f.pole[static_cast<std::size_t>(k)], r = f.residue[static_cast<std::size_t>(k)];
      std::complex<double> u = 0.0, v = 0.0;
      for (int i = 0; i < n; ++i) {
        u = r * (i == half ? 1.0 : 0.0) + p * u;
        parallel[static_cast<std::size_t>(i)] += 2.0 * u.real();
      }
      for (int i = n - 1; i >= 0; --i) {
        parallel[static_cast<std::size_t>(i)] += 2.0 * v.real();  // v at i uses x[i + 1]...
        v = p * r * (i == half ? 1.0 : 0.0) + p * v;
      }
    }
    double worst = 0.0, peak = 0.0;
    for (int i = 0; i < n; ++i) {
      worst = std::max(worst, std::abs(parallel[static_cast<std::size_t>(i)] - direct[static_cast<std::size_t>(i)]));
      peak = std::max(peak, direct[static_cast<std::size_t>(i)]);
    }
    // The direct form's 4th-order denominator loses digits as its poles crowd at 1 (about
    // sigma^3 eps), the parallel form does not: its DC gain stays 1 to double precision.
    EXPECT_LE(worst, 1e-9 * peak * std::max(1.0, std::pow(sigma / 30.0, 3))) << sigma;
    EXPECT_NEAR(sum_of(parallel), 1.0, 1e-12) << sigma;
  }
}

TEST(IirDeriche, ResponseDecaysWithinTheStatedLength) {
  for (double sigma : kSigmas) {
    const auto c = deriche_coefficients(sigma);
    EXPECT_GT(c.pole_radius, 0.0);
    EXPECT_LT(c.pole_radius, 1.0);
    const auto h = deriche_impulse_response(c, static_cast<int>(40 * sigma) + 40);
    // What src/cpu/iir.cpp relies on when it pads reflect, mirror and wrap lines, at a cost of
    // about 11 sigma of padding.
    const std::int64_t length = recursive_decay_length(c.pole_radius, 1e-8);
    EXPECT_LE(tail_beyond(h, length), 1e-7) << sigma;
    EXPECT_LE(length, 11 * sigma + 6) << sigma;
  }
}

TEST(IirYoungVanVliet, QFollowsThePublishedFit) {
  // q(0.5) is 0.11477 (the value other implementations hard-code below sigma 0.5); the two
  // branches of the fit do not meet at 2.5 (1.5983 from below, 1.5045 at and above).
  EXPECT_NEAR(young_van_vliet_q(0.5), 0.1147705, 1e-6);
  EXPECT_NEAR(young_van_vliet_q(1.0), 3.97156 - 4.14554 * std::sqrt(1.0 - 0.26891), 1e-12);
  EXPECT_NEAR(young_van_vliet_q(2.4999999), 1.59835, 1e-5);
  EXPECT_NEAR(young_van_vliet_q(2.5), 1.504475, 1e-9);
  EXPECT_NEAR(young_van_vliet_q(10.0), 8.9078, 1e-9);
  EXPECT_NEAR(young_van_vliet_q(1000.0), 986.1467, 1e-9);
  EXPECT_THROW(young_van_vliet_q(0.49), InvalidArgument);
  EXPECT_THROW(young_van_vliet_q(1000.1), InvalidArgument);
  EXPECT_THROW(young_van_vliet_q(std::nan("")), InvalidArgument);
}

TEST(IirYoungVanVliet, CoefficientsAreThePublishedCubics) {
  for (double sigma : kSigmas) {
    const auto c = young_van_vliet_coefficients(sigma);
    const double q = c.q;
    // Young & van Vliet 1995's printed cubics; ours are their exact factors, equal to 5 digits.
    const double b0 = 1.57825 + 2.44413 * q + 1.4281 * q * q + 0.422205 * q * q * q;
    const double b1 = 2.44413 * q + 2.85619 * q * q + 1.26661 * q * q * q;
    const double b2 = -(1.4281 * q * q + 1.26661 * q * q * q);
    const double b3 = 0.422205 * q * q * q;
    EXPECT_NEAR(c.b0, b0, 1e-5 * b0) << sigma;
    EXPECT_NEAR(c.b1, b1, 2e-5 * b0) << sigma;
    EXPECT_NEAR(c.b2, b2, 2e-5 * b0) << sigma;
    EXPECT_NEAR(c.b3, b3, 2e-5 * b0) << sigma;
    // Exact factors keep b0 - b1 - b2 - b3 at the constant term for every q (the printed cubics
    // drift from it by 1e-5 q^2, which is what spoils them at large sigma).
    EXPECT_NEAR(c.b0 - c.b1 - c.b2 - c.b3, 1.57825, 1e-5 + 1e-15 * b0) << sigma;
    EXPECT_NEAR(c.B / (1.0 - c.feedback[0] - c.feedback[1] - c.feedback[2]), 1.0, 1e-15) << sigma;
  }
}

TEST(IirYoungVanVliet, UnitDcGainSymmetricAndDecaysWithinTheStatedLength) {
  for (double sigma : kSigmas) {
    const auto c = young_van_vliet_coefficients(sigma);
    EXPECT_GT(c.pole_radius, 0.0);
    EXPECT_LT(c.pole_radius, 1.0);
    const int half = static_cast<int>(60 * sigma) + 60;
    const auto h = young_van_vliet_impulse_response(c, half);
    EXPECT_NEAR(sum_of(h), 1.0, 1e-10) << sigma;
    for (int k = 1; k <= half; ++k)
      ASSERT_NEAR(h[static_cast<std::size_t>(half + k)], h[static_cast<std::size_t>(half - k)], 1e-9 * h[half])
          << sigma << " " << k;
    const std::int64_t length = recursive_decay_length(c.pole_radius, 1e-8);  // about 16.4 sigma
    EXPECT_LE(tail_beyond(h, length), 1e-7) << sigma;
    EXPECT_LE(length, 17 * sigma + 10) << sigma;
    // The published q makes the filter wider than sigma: 1.07 sigma as sigma grows, up to 1.27
    // below 2.
    const double ratio = sigma_of(h) / sigma;
    EXPECT_GE(ratio, 1.06) << sigma;
    EXPECT_LE(ratio, sigma >= 2.0 ? 1.14 : 1.3) << sigma;
  }
}

// The definition: run the forward recursion on past the line's end with a constant input u
// (deviations from u+ evolve freely), then the backward one from far away back to N-1.
TEST(IirTriggsSdika, MatrixEqualsRunningThroughALongConstantContinuation) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> dev(-1.0, 1.0);
  for (double sigma : kSigmas) {
    const auto c = young_van_vliet_coefficients(sigma);
    const auto& a = c.feedback;
    const Matrix3 m = triggs_sdika_matrix(a);
    const int far = static_cast<int>(recursive_decay_length(c.pole_radius, 1e-18)) + 8;
    // Deviations of the forward pass from its steady state: d[0..2] = w[N-1], w[N-2], w[N-3].
    std::vector<double> d(static_cast<std::size_t>(far + 3), 0.0);
    const double d0 = dev(rng), d1 = dev(rng), d2 = dev(rng);
    d[2] = d0, d[1] = d1, d[0] = d2;  // d[j + 2] is the deviation at N-1+j
    for (int j = 1; j <= far; ++j) {
      const std::size_t i = static_cast<std::size_t>(j + 2);
      d[i] = a[0] * d[i - 1] + a[1] * d[i - 2] + a[2] * d[i - 3];
    }
    std::vector<double> e(static_cast<std::size_t>(far + 6), 0.0);  // backward deviations, 0 far away
    for (int j = far; j >= 0; --j) {
      const std::size_t i = static_cast<std::size_t>(j + 2);
      e[i] = d[i] + a[0] * e[i + 1] + a[1] * e[i + 2] + a[2] * e[i + 3];
    }
    for (int r = 0; r < 3; ++r) {
      const double predicted = m[r][0] * d0 + m[r][1] * d1 + m[r][2] * d2;
      EXPECT_NEAR(predicted, e[static_cast<std::size_t>(r + 2)], 1e-9 * std::max(1.0, std::abs(predicted)))
          << "sigma " << sigma << " row " << r;
    }
  }
}

TEST(IirDecayLength, SmallestLengthReachingTheTolerance) {
  EXPECT_EQ(recursive_decay_length(0.5, 1e-3), 10);  // 0.5^10 = 9.8e-4, 0.5^9 = 2e-3
  EXPECT_EQ(recursive_decay_length(0.9, 0.9), 1);
  EXPECT_EQ(recursive_decay_length(0.0, 1e-9), 1);
  EXPECT_THROW(recursive_decay_length(1.0, 1e-3), InvalidArgument);
  EXPECT_THROW(recursive_decay_length(0.5, 0.0), InvalidArgument);
  EXPECT_THROW(deriche_coefficients(0.3), InvalidArgument);
  EXPECT_THROW(deriche_coefficients(2000.0), InvalidArgument);
}

}  // namespace
}  // namespace fastblur::kernel
