// mip-poisson's kernel math: the sample set, the rotation noise, the fetch variance (against a
// brute-force 1D mip chain) and the solved schedule.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fastblur/error.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::kernel {
namespace {

// The truncated Gaussian's mass inside the radius: the fraction of samples expected within r.
double radial_cdf(double r) {
  return -std::expm1(-0.5 * r * r) / -std::expm1(-0.5 * kMipPoissonRadius * kMipPoissonRadius);
}

TEST(MipPoissonSamples, SymmetricStratifiedAndDeterministic) {
  for (int count : {8, 12, 32, 64, 256}) {
    const auto set = poisson_gaussian_samples(count);
    ASSERT_EQ(set.size(), static_cast<std::size_t>(count));
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, mass = 0;
    std::vector<double> cdf;
    for (const PoissonSample& s : set) {
      const double r = std::hypot(s.x, s.y);
      EXPECT_LT(r, kMipPoissonRadius);
      sx += s.x, sy += s.y, sxx += s.x * s.x, syy += s.y * s.y, sxy += s.x * s.y;
      // area * density = 1 / count: every sample stands for the same share of the Gaussian.
      const double density = std::exp(-0.5 * r * r) / (2 * std::numbers::pi * -std::expm1(-4.5));
      mass += s.area * density;
      cdf.push_back(radial_cdf(r));
    }
    EXPECT_NEAR(sx, 0, 1e-12);
    EXPECT_NEAR(sy, 0, 1e-12);
    EXPECT_NEAR(sxx, syy, 1e-12 * sxx);  // isotropic second moments: every rotation has the same variance
    EXPECT_NEAR(sxy, 0, 1e-12 * sxx);
    EXPECT_NEAR(mass, 1.0, 1e-12);
    // Stratified: the k-th group of four lies at the middle of the k-th equal-mass annulus.
    std::sort(cdf.begin(), cdf.end());
    for (int k = 0; k < count / 4; ++k)
      for (int j = 0; j < 4; ++j) EXPECT_NEAR(cdf[static_cast<std::size_t>(4 * k + j)], (4.0 * k + 2.0) / count, 1e-12);
    // The same set every time.
    const auto again = poisson_gaussian_samples(count);
    for (std::size_t i = 0; i < set.size(); ++i) {
      EXPECT_EQ(set[i].x, again[i].x);
      EXPECT_EQ(set[i].y, again[i].y);
    }
  }
}

TEST(MipPoissonSamples, PoissonDiskSpacing) {
  // In the unit disk before the warp, no two points closer than 0.7 / sqrt(count): a jittered grid
  // of the same density guarantees nothing, random points would average 0.5 / sqrt(count) to the
  // nearest and come much closer than that.
  for (int count : {16, 32, 64, 128}) {
    const auto set = poisson_gaussian_samples(count);
    std::vector<std::pair<double, double>> disk;
    for (const PoissonSample& s : set) {
      const double r = std::hypot(s.x, s.y), ru = std::sqrt(radial_cdf(r));
      disk.emplace_back(s.x * ru / r, s.y * ru / r);
    }
    double nearest = 1e9;
    for (std::size_t i = 0; i < disk.size(); ++i)
      for (std::size_t j = i + 1; j < disk.size(); ++j)
        nearest = std::min(nearest, std::hypot(disk[i].first - disk[j].first, disk[i].second - disk[j].second));
    EXPECT_GE(nearest * std::sqrt(count), 0.7) << count;
  }
}

TEST(MipPoissonSamples, RejectsBadCounts) {
  for (int count : {0, 4, 7, 30, 260, -8}) EXPECT_THROW(poisson_gaussian_samples(count), InvalidArgument) << count;
}

TEST(InterleavedGradientNoise, JimenezFormulaAndUniformity) {
  EXPECT_EQ(interleaved_gradient_noise(0, 0), 0.0);
  const auto frac = [](double v) { return v - std::floor(v); };
  for (auto [x, y] : {std::pair{1.0, 0.0}, {17.0, 3.0}, {1919.0, 1079.0}})
    EXPECT_DOUBLE_EQ(interleaved_gradient_noise(x, y), frac(52.9829189 * frac(0.06711056 * x + 0.00583715 * y)));
  EXPECT_DOUBLE_EQ(interleaved_gradient_noise(3, 4, 2), interleaved_gradient_noise(3 + 2 * 5.588238, 4 + 2 * 5.588238));
  std::vector<int> bins(8, 0);
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) {
      const double v = interleaved_gradient_noise(x, y);
      ASSERT_GE(v, 0.0);
      ASSERT_LT(v, 1.0);
      ++bins[static_cast<std::size_t>(v * 8)];
    }
  for (int b : bins) EXPECT_NEAR(b, 256 * 256 / 8, 256 * 256 / 8 / 10);
}

// The level-l texels of a 1D line under the [1 3 3 1]/8 pyramid, for a unit impulse at pixel j of
// a line of n pixels (n a multiple of 2^l, the impulse far from the ends).
std::vector<double> pyramid(int n, int j, int l) {
  std::vector<double> a(static_cast<std::size_t>(n), 0.0);
  a[static_cast<std::size_t>(j)] = 1.0;
  for (int k = 0; k < l; ++k) {
    std::vector<double> b(a.size() / 2, 0.0);
    const double w[4] = {0.125, 0.375, 0.375, 0.125};
    for (std::size_t x = 0; x < b.size(); ++x)
      for (int t = 0; t < 4; ++t) {
        const long i = 2 * static_cast<long>(x) - 1 + t;
        if (i >= 0 && i < static_cast<long>(a.size())) b[x] += w[t] * a[static_cast<std::size_t>(i)];
      }
    a = std::move(b);
  }
  return a;
}

// A bilinear fetch at continuous position p (texel k centred at k + 1/2).
double fetch(const std::vector<double>& t, double p) {
  const double u = p - 0.5, f = std::floor(u), w = u - f;
  const auto at = [&](double i) { return i >= 0 && i < static_cast<double>(t.size()) ? t[static_cast<std::size_t>(i)] : 0.0; };
  return (1 - w) * at(f) + w * at(f + 1);
}

TEST(MipFetchVariance, MatchesABruteForceChain) {
  // The weights a trilinear fetch at lod gives each pixel, from the pyramid of each pixel's
  // impulse; their variance about the fetched point, averaged over the pixel phases and over the
  // rotations of an offset of length r.
  constexpr int n = 512;
  for (double lod : {0.0, 0.4, 1.0, 2.5, 3.0})
    for (double r : {0.0, 0.3, 1.7, 6.25}) {
      const int l0 = static_cast<int>(lod);
      const double up = lod - l0;
      std::vector<std::vector<double>> lo(n), hi(n);
      for (int j = 0; j < n; ++j) {
        lo[static_cast<std::size_t>(j)] = pyramid(n, j, l0);
        if (up > 0) hi[static_cast<std::size_t>(j)] = pyramid(n, j, l0 + 1);
      }
      const int s = 1 << l0, angles = 360;
      double total = 0;
      for (int phase = 0; phase < 2 * s; ++phase)
        for (int a = 0; a < angles; ++a) {
          const double p = 256 + phase + 0.5 + r * std::cos(2 * std::numbers::pi * (a + 0.5) / angles);
          double m0 = 0, m1 = 0, m2 = 0;
          for (int j = 0; j < n; ++j) {
            double w = (1 - up) * fetch(lo[static_cast<std::size_t>(j)], p / s);
            if (up > 0) w += up * fetch(hi[static_cast<std::size_t>(j)], p / (2 * s));
            const double d = j + 0.5 - p;
            m0 += w, m1 += w * d, m2 += w * d * d;
          }
          ASSERT_NEAR(m0, 1.0, 1e-12);
          ASSERT_NEAR(m1, 0.0, 1e-9) << "a fetch is centred on its point";
          total += m2;
        }
      const double brute = total / (2 * s * angles), model = mip_fetch_variance(lod, r);
      EXPECT_NEAR(model, brute, 0.01 * brute + 1e-3) << "lod " << lod << " radius " << r;
    }
}

TEST(MipPoissonSchedule, VarianceIsSigmaSquaredAndLevelsFollowTheArea) {
  for (auto [sx, sy] : {std::pair{0.05, 0.05}, {0.7, 0.7}, {3.0, 3.0}, {20.0, 20.0}, {2.0, 9.0}, {40.0, 5.0}, {1e4, 1e4}}) {
    const MipPoissonSchedule s = mip_poisson_schedule(sx, sy);
    EXPECT_EQ(s.samples.size(), static_cast<std::size_t>(kMipPoissonDefaultSamples));
    EXPECT_NEAR(s.variance[0], sx * sx, 1e-9 * sx * sx) << sx << " " << sy;
    EXPECT_NEAR(s.variance[1], sy * sy, 1e-9 * sy * sy) << sx << " " << sy;
    EXPECT_GT(s.scale[0], 0);
    EXPECT_EQ(sx < sy, s.scale[0] < s.scale[1]);
    double deepest = 0;
    for (std::size_t i = 0; i < s.lod.size(); ++i) {
      EXPECT_GE(s.lod[i], 0.0);
      deepest = std::max(deepest, s.lod[i]);
      // Larger shares of the disk (the outer samples) are fetched at coarser levels.
      for (std::size_t j = 0; j < s.lod.size(); ++j)
        if (s.samples[i].area < s.samples[j].area) EXPECT_LE(s.lod[i], s.lod[j]);
    }
    EXPECT_EQ(s.max_level, static_cast<int>(std::ceil(deepest)));
  }
  // Above the finest levels, the levels grow by one per doubling of sigma.
  const auto a = mip_poisson_schedule(16, 16), b = mip_poisson_schedule(32, 32);
  for (std::size_t i = 0; i < a.lod.size(); ++i)
    if (a.lod[i] > 0.5) EXPECT_NEAR(b.lod[i] - a.lod[i], 1.0, 0.02);
  EXPECT_EQ(mip_poisson_schedule(5, 5, 64).samples.size(), 64u);
}

TEST(MipPoissonSchedule, RejectsBadSigmas) {
  for (double s : {0.0, -1.0, double(NAN), double(INFINITY), 2e5}) EXPECT_THROW(mip_poisson_schedule(s, 1.0), InvalidArgument) << s;
  EXPECT_THROW(mip_poisson_schedule(3, 3, 10), InvalidArgument);
}

}  // namespace
}  // namespace fastblur::kernel
