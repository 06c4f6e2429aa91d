// kawase: its twin (its equivalent kernel, run by the contract suite), equal to true 2D diagonal
// bilinear passes, and close to the Gaussian within the documented bound.
#include <gtest/gtest.h>

#include <cmath>

#include "support/convolve_reference.hpp"
#include "support/test_support.hpp"
#include "support/twins.hpp"

namespace fastblur {
namespace {

// kawase's twin: the convolution with the equivalent kernel of its schedule (the contract suite runs it).
const bool kTwin = test::register_twin({Algorithm::kawase, 64, [](const View& src, const View& exact, const BlurSpec& spec) {
  std::array<std::vector<double>, 3> k;
  for (int a = 0; a < 3; ++a)
    if (spec.sigma[a] > 0)
      k[a] = kernel::kawase_kernel(test::list_parameter(spec, "kawase_offsets").empty() ? kernel::kawase_schedule(spec.sigma[a], test::int_parameter(spec, "kawase_passes"))
                                                               : test::list_parameter(spec, "kawase_offsets"));
  test::convolve_reference(src, exact, k, spec);
}});

// Seed 002's pass as a GPU runs it: the mean of four bilinear fetches at (x +- d, y +- d).
std::vector<double> diagonal_pass(const std::vector<double>& img, int w, int h, double d) {
  const auto px = [&](int x, int y) {  // nearest border, like a clamped texture
    return img[static_cast<std::size_t>(std::clamp(y, 0, h - 1)) * w + std::clamp(x, 0, w - 1)];
  };
  const auto bilinear = [&](double x, double y) {
    const double fx = std::floor(x), fy = std::floor(y), tx = x - fx, ty = y - fy;
    const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
    return (1 - tx) * (1 - ty) * px(ix, iy) + tx * (1 - ty) * px(ix + 1, iy) + (1 - tx) * ty * px(ix, iy + 1) +
           tx * ty * px(ix + 1, iy + 1);
  };
  std::vector<double> out(img.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[static_cast<std::size_t>(y) * w + x] = 0.25 * (bilinear(x - d, y - d) + bilinear(x + d, y - d) +
                                                         bilinear(x - d, y + d) + bilinear(x + d, y + d));
  return out;
}

// Away from the edges. At the edges a GPU clamps the intermediate again before every pass, while
// fastblur applies the border mode once to the image (as fir and scipy do), so results differ
// within the schedule's reach of an edge.
TEST(KawaseBlur, EqualsTheTwoDimensionalDiagonalPassesOfTheSeed) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int w = 64, h = 57;
  std::vector<double> img(w * h);
  for (double& v : img) v = u(rng);
  for (const auto& offsets : {kernel::kawase_preset_01223(), kernel::kawase_preset_2333(), kernel::kawase_schedule(3.7)}) {
    std::vector<double> want = img;
    for (double d : offsets) want = diagonal_pass(want, w, h, d);
    std::vector<double> got = img;
    BlurSpec spec = BlurSpec::isotropic_2d(1.0).with_border(Border::nearest);
    spec.algorithm = Algorithm::kawase;
    set_parameter(spec, "kawase_offsets", std::vector<double>(offsets));
    const View v = View::packed(got.data(), ElementType::f64, w, h);
    blur(v, v, spec);
    int reach = 0;
    for (double d : offsets) reach += static_cast<int>(std::floor(d)) + 1;
    ASSERT_LT(2 * reach, h);
    for (int y = reach; y < h - reach; ++y)
      for (int x = reach; x < w - reach; ++x)
        ASSERT_NEAR(got[y * w + x], want[y * w + x], 1e-12) << x << "," << y;
  }
}

TEST(KawaseBlur, AccuracyAgainstTheGaussian) {
  for (double sigma : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
    BlurSpec spec;
    spec.algorithm = Algorithm::kawase;
    const auto m = analysis::measure_impulse(spec, sigma, sigma <= 20);
    std::printf("[ measured ] kawase sigma %4.0f (%zu passes): effective sigma %.6f, max error %.4f, L1 %.4f, "
                "anisotropy %.4f\n", sigma, kernel::kawase_schedule(sigma).size(), m.effective_sigma, m.max_error,
                m.l1_error, m.anisotropy);
    EXPECT_NEAR(m.effective_sigma, sigma, 1e-6 * sigma);
    EXPECT_LE(m.max_error, kernel::kKawaseTargetError);
    EXPECT_LE(m.l1_error, 0.025);
  }
}

}  // namespace
}  // namespace fastblur
