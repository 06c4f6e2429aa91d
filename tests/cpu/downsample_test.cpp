// downsample: the compensated sigma is exact on average over phases, the separable chain equals
// the 2D tent-blur-upsample pipeline, and the result stays close to the Gaussian.
#include <gtest/gtest.h>

#include <cmath>

#include "support/test_support.hpp"

namespace fastblur {
namespace {

// The 1D response to an impulse at `pos` on a long line.
std::vector<double> response(double sigma, int f, int n, int pos) {
  std::vector<double> line(static_cast<std::size_t>(n), 0.0);
  line[static_cast<std::size_t>(pos)] = 1.0;
  BlurSpec spec;
  spec.algorithm = Algorithm::downsample;
  set_parameter(spec, "downsample_factor", static_cast<std::int64_t>(f));
  spec.sigma = {sigma, 0, 0};
  spec.truncate = 8.0;  // so the low-resolution kernel's truncation does not hide the compensation
  spec.with_border(Border::constant);
  const View v = View::packed(line.data(), ElementType::f64, n, 1);
  blur(v, v, spec);
  return line;
}

TEST(DownsampleBlur, PhaseAveragedVarianceIsSigmaSquared) {
  for (int f : {2, 4, 8})
    for (double sigma : {2.5, 4.0, 9.3, 30.0}) {
      if (sigma * sigma <= kernel::downsample_added_variance(f)) continue;
      const int n = static_cast<int>(24 * sigma) + 64, base = n / 2 / f * f;
      double variance = 0.0;
      for (int phase = 0; phase < f; ++phase) {
        const auto h = response(sigma, f, n, base + phase);
        // Second moment about the impulse's position (each phase's centroid may shift slightly).
        double m0 = 0, m2 = 0;
        const int pos = base + phase;
        for (int i = 0; i < n; ++i) m0 += h[i], m2 += h[i] * double(i - pos) * double(i - pos);
        EXPECT_NEAR(m0, 1.0, 1e-12);
        variance += m2 / m0 / f;
      }
      EXPECT_NEAR(std::sqrt(variance), sigma, 1e-6 * sigma) << f << " " << sigma;
    }
}

TEST(DownsampleBlur, EqualsTheImagePipelineAwayFromTheEdges) {
  auto rng = test::rng_for_test();
  const int w = 96, h = 80, f = 2;
  const double sigma = 3.0, low = kernel::downsample_low_sigma(sigma, f);
  const int r = kernel::radius_from_truncate(low, 4.0);
  const auto wl = kernel::gaussian_weights(low, r);
  std::vector<double> img(w * h);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (double& v : img) v = u(rng);
  // 1. the 2D tent onto the centres of 2x2 blocks ([1, 3, 3, 1] / 8 on each axis, 16 taps); 2. a
  // separable Gaussian on the small image; 3. bilinear upsampling.
  const int lw = w / f, lh = h / f;
  const double tent[4] = {1.0 / 8, 3.0 / 8, 3.0 / 8, 1.0 / 8};
  std::vector<double> small(lw * lh), tmp(lw * lh), blurred(lw * lh);
  for (int y = 1; y < lh - 1; ++y)
    for (int x = 1; x < lw - 1; ++x) {
      double s = 0;
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) s += tent[j] * tent[k] * img[(2 * y - 1 + j) * w + 2 * x - 1 + k];
      small[y * lw + x] = s;
    }
  for (int y = 0; y < lh; ++y)
    for (int x = r; x < lw - r; ++x) {
      double s = 0;
      for (int k = -r; k <= r; ++k) s += wl[k + r] * small[y * lw + x + k];
      tmp[y * lw + x] = s;
    }
  for (int y = r; y < lh - r; ++y)
    for (int x = r; x < lw - r; ++x) {
      double s = 0;
      for (int k = -r; k <= r; ++k) s += wl[k + r] * tmp[(y + k) * lw + x];
      blurred[y * lw + x] = s;
    }
  std::vector<double> got = img;
  BlurSpec spec = BlurSpec::isotropic_2d(sigma);
  spec.algorithm = Algorithm::downsample;
  set_parameter(spec, "downsample_factor", static_cast<std::int64_t>(f));
  blur(View::packed(img.data(), ElementType::f64, w, h), View::packed(got.data(), ElementType::f64, w, h), spec);
  const int margin = f * (2 * r + 3);
  for (int y = margin; y < h - margin; ++y)
    for (int x = margin; x < w - margin; ++x) {
      const double ux = (x - 0.5) / f, uy = (y - 0.5) / f;
      const int bx = static_cast<int>(std::floor(ux)), by = static_cast<int>(std::floor(uy));
      const double tx = ux - bx, ty = uy - by;
      const double want = (1 - tx) * (1 - ty) * blurred[by * lw + bx] + tx * (1 - ty) * blurred[by * lw + bx + 1] +
                          (1 - tx) * ty * blurred[(by + 1) * lw + bx] + tx * ty * blurred[(by + 1) * lw + bx + 1];
      ASSERT_NEAR(got[y * w + x], want, 1e-12) << x << "," << y;
    }
}

TEST(DownsampleBlur, AccuracyAgainstTheGaussian) {
  // Single-phase impulse responses (docs/DESIGN.md metrics); the planner predicts the worst phase.
  struct Bound { double sigma, max_error, l1; };
  // With the tent (a block average: 0.16 / 0.07 / 0.032 / 0.05 / 0.02).
  for (const Bound& b : {Bound{2.0, 0.07, 0.045}, Bound{5.0, 0.004, 0.0025}, Bound{10.0, 0.0008, 0.0006},
                         Bound{20.0, 0.004, 0.0022}, Bound{50.0, 0.0011, 0.001}}) {
    BlurSpec spec;
    spec.algorithm = Algorithm::downsample;
    const auto m = analysis::measure_impulse(spec, b.sigma, b.sigma <= 20);
    std::printf("[ measured ] downsample sigma %4.0f (factor %d): effective sigma %.4f, max error %.4f, L1 %.4f, "
                "anisotropy %.4f\n", b.sigma, kernel::downsample_factor_for(b.sigma), m.effective_sigma, m.max_error,
                m.l1_error, m.anisotropy);
    EXPECT_LE(m.max_error, b.max_error) << b.sigma;
    EXPECT_LE(m.l1_error, b.l1) << b.sigma;
  }
}

TEST(DownsampleBlur, RejectsSigmaTooSmallForTheFactor) {
  float px[16] = {};
  const View v = View::packed(px, ElementType::f32, 4, 4);
  BlurSpec spec = BlurSpec::isotropic_2d(0.9);
  spec.algorithm = Algorithm::downsample;
  EXPECT_THROW(blur(v, v, spec), InvalidArgument);
  spec.sigma = {3, 3, 0};
  test::set_unchecked(spec, "downsample_factor", std::int64_t{3});  // what blur() itself refuses
  EXPECT_THROW(blur(v, v, spec), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
