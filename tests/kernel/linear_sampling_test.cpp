// Seed 003, appendix A: the bilinear pairs, applied with exact linear interpolation, reproduce the
// original kernel's output.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "fastblur/kernel.hpp"
#include "support/test_support.hpp"

namespace fastblur::kernel {
namespace {

double lerp_at(const std::vector<double>& s, double x) {
  const double i = std::floor(x), f = x - i;
  const auto k = static_cast<std::size_t>(i);
  return f == 0.0 ? s[k] : (1.0 - f) * s[k] + f * s[k + 1];
}

// n values uniform in [0, 1).
std::vector<double> random_signal(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> signal(n);
  for (double& v : signal) v = u(rng);
  return signal;
}

// The fetches reproduce the kernel w (first tap at `first`) on the signal at every x in [x0, x1).
void expect_reproduces(const std::vector<LinearTap>& taps, const std::vector<double>& w, int first,
                       const std::vector<double>& signal, int x0, int x1, const std::string& what) {
  for (int x = x0; x < x1; ++x) {
    double direct = 0.0, paired = 0.0;
    for (std::size_t k = 0; k < w.size(); ++k) direct += w[k] * signal[static_cast<std::size_t>(x + first) + k];
    for (const auto& t : taps) paired += t.weight * lerp_at(signal, x + t.offset);
    ASSERT_NEAR(paired, direct, 1e-12) << what << ", x " << x;
  }
}

TEST(LinearSampling1D, ReproducesAnyKernel) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int len : {1, 2, 3, 8, 31})
    for (bool mixed_signs : {false, true}) {
      std::vector<double> w(len), signal(200);
      for (double& v : w) v = mixed_signs ? u(rng) : std::abs(u(rng));
      for (double& v : signal) v = u(rng);
      const int first = -len / 2;
      const auto taps = linear_sampling_1d(w, first);
      if (!mixed_signs) {
        EXPECT_EQ(taps.size(), static_cast<std::size_t>((len + 1) / 2));
      }
      expect_reproduces(taps, w, first, signal, 50, 150, "len " + std::to_string(len) + " mixed " + std::to_string(mixed_signs));
    }
}

TEST(LinearSampling1D, GaussianSymmetricPairs) {
  auto rng = test::rng_for_test();
  const std::vector<double> signal = random_signal(rng, 400);
  for (double sigma : {0.8, 2.0, 5.3, 20.0}) {
    const int r = radius_from_truncate(sigma, 4.0);
    const auto w = gaussian_weights(sigma, r);
    const auto taps = linear_sampling_gaussian(sigma, r);
    EXPECT_EQ(taps.size(), static_cast<std::size_t>(1 + 2 * ((r + 1) / 2)));  // seed 003: about N/2 + 1
    double total = 0.0;
    for (std::size_t i = 0; i < taps.size(); ++i) {
      total += taps[i].weight;
      EXPECT_DOUBLE_EQ(taps[i].offset, -taps[taps.size() - 1 - i].offset);
    }
    EXPECT_NEAR(total, 1.0, 1e-14);
    expect_reproduces(taps, w, -r, signal, 100, 300, "sigma " + std::to_string(sigma));
  }
}

// Any centred kernel (the plan's weights, which fir-linear's recorder pairs): symmetric ones in
// mirrored pairs, any other as linear_sampling_1d; either reproduces the kernel.
TEST(LinearSampling1D, CentredKernelsOfThePlan) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::vector<double> signal = random_signal(rng, 300);
  for (int r : {0, 1, 4, 7}) {
    std::vector<double> sym(static_cast<std::size_t>(2 * r + 1)), asym(sym.size());
    for (int k = 0; k <= r; ++k) sym[static_cast<std::size_t>(r + k)] = sym[static_cast<std::size_t>(r - k)] = u(rng);
    for (double& v : asym) v = u(rng);
    asym[0] += 0.5;  // not symmetric
    for (const auto* w : {&sym, &asym}) {
      const auto taps = linear_sampling_centred(*w);
      if (w == &sym)
        for (std::size_t i = 0; i < taps.size(); ++i) EXPECT_DOUBLE_EQ(taps[i].offset, -taps[taps.size() - 1 - i].offset);
      else
        EXPECT_EQ(taps.size(), linear_sampling_1d(*w, -r).size());
      expect_reproduces(taps, *w, -r, signal, 50, 250,
                        "radius " + std::to_string(r) + (w == &sym ? " symmetric" : " asymmetric"));
    }
  }
}

double bilerp_at(const std::vector<double>& img, int width, double x, double y) {
  const double ix = std::floor(x), iy = std::floor(y), fx = x - ix, fy = y - iy;
  const auto at = [&](double xx, double yy) { return img[static_cast<std::size_t>(yy) * width + static_cast<std::size_t>(xx)]; };
  double v = (1 - fx) * (1 - fy) * at(ix, iy);
  if (fx) v += fx * (1 - fy) * at(ix + 1, iy);
  if (fy) v += (1 - fx) * fy * at(ix, iy + 1);
  if (fx && fy) v += fx * fy * at(ix + 1, iy + 1);
  return v;
}

TEST(LinearSampling2D, GaussianQuadsAndArbitraryKernels) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int W = 64;
  std::vector<double> img(W * W);
  for (double& v : img) v = u(rng);
  struct Case { int cols, rows; bool gaussian; };
  for (const auto& c : {Case{5, 5, true}, Case{9, 7, true}, Case{4, 3, false}, Case{7, 6, false}}) {
    std::vector<double> k(static_cast<std::size_t>(c.cols * c.rows));
    if (c.gaussian) {
      const auto wx = gaussian_weights(1.3, c.cols / 2), wy = gaussian_weights(0.9, c.rows / 2);
      for (int y = 0; y < c.rows; ++y)
        for (int x = 0; x < c.cols; ++x) k[y * c.cols + x] = wx[x] * wy[y];
    } else {
      for (double& v : k) v = u(rng);
    }
    const int fx = -c.cols / 2, fy = -c.rows / 2;
    const auto taps = linear_sampling_2d(k, c.cols, c.rows, fx, fy);
    if (c.gaussian) EXPECT_EQ(taps.size(), static_cast<std::size_t>(((c.cols + 1) / 2) * ((c.rows + 1) / 2)));
    for (int y = 20; y < 40; ++y)
      for (int x = 20; x < 40; ++x) {
        double direct = 0.0, paired = 0.0;
        for (int j = 0; j < c.rows; ++j)
          for (int i = 0; i < c.cols; ++i) direct += k[j * c.cols + i] * img[(y + fy + j) * W + x + fx + i];
        for (const auto& t : taps) paired += t.weight * bilerp_at(img, W, x + t.x, y + t.y);
        ASSERT_NEAR(paired, direct, 1e-12) << c.cols << "x" << c.rows;
      }
  }
}

}  // namespace
}  // namespace fastblur::kernel
