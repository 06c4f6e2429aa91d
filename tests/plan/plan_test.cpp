// The planner: exact at tolerance 0, within tolerance otherwise, and its predicted errors checked
// against measured 2D impulse responses.
#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "fastblur/plan.hpp"
#include "algorithms/descriptor.hpp"
#include "plan/planner.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

// Max |h - g| / max g of the 2D impulse response of `spec`, g the separable sampled Gaussian.
double measured_2d_error(const BlurSpec& spec_in, double sx, double sy) {
  const int hx = static_cast<int>(std::ceil(10 * sx)) + 8, hy = static_cast<int>(std::ceil(10 * sy)) + 8;
  const int w = 2 * hx + 1, h = 2 * hy + 1;
  std::vector<double> img(static_cast<std::size_t>(w) * h, 0.0);
  img[static_cast<std::size_t>(hy) * w + hx] = 1.0;
  BlurSpec spec = spec_in;
  spec.with_border(Border::constant);
  const View v = View::packed(img.data(), ElementType::f64, w, h);
  blur(v, v, spec);
  const auto gx = analysis::reference_gaussian(sx, hx), gy = analysis::reference_gaussian(sy, hy);
  double worst = 0.0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) worst = std::max(worst, std::abs(img[static_cast<std::size_t>(y) * w + x] - gx[x] * gy[y]));
  return worst / (gx[hx] * gy[hy]);
}

TEST(Plan, ToleranceZeroIsExactFir) {
  float data[64 * 64] = {};
  const View v = View::packed(data, ElementType::f32, 64, 64);
  BlurSpec spec = BlurSpec::isotropic_2d(3.0);
  const Plan p = make_plan(spec, v);
  EXPECT_EQ(p.spec.algorithm, Algorithm::fir);
  EXPECT_EQ(effective_radius(p.spec, 0), 12);
  EXPECT_LT(p.predicted_max_error, 1e-3);
  EXPECT_FALSE(describe(p).empty());
  spec.tolerance = -1;
  EXPECT_THROW(make_plan(spec, v), InvalidArgument);
}

// Exact at a cost independent of sigma: at tolerance 0, large sigma on float data runs sliding-dct
// fitted to fir's kernel (within 1e-5 of it: measured by blurring an impulse with both); small sigma
// keeps fir, and float64 data (promised a double computation) never takes it.
TEST(Plan, ToleranceZeroTakesTheSeriesOfFirsKernelWhereCheaper) {
  const View rgba = View::packed(nullptr, ElementType::f32, 1920, 1080, 1, 4);
  const Plan small = make_plan(BlurSpec::isotropic_2d(1.0), rgba);
  EXPECT_EQ(small.spec.algorithm, Algorithm::fir);
  for (double sigma : {21.0, 50.0}) {
    const Plan p = make_plan(BlurSpec::isotropic_2d(sigma), rgba);
    ASSERT_EQ(p.spec.algorithm, Algorithm::sliding_dct) << sigma << "\n" << describe(p);
    EXPECT_EQ(test::choice_parameter(p.spec, "sliding_dct_fit"), "fir");
    EXPECT_NE(describe(p).find("sliding-dct fitted to fir's kernel"), std::string::npos);
    // The impulse response against fir's, in float data as the plan runs it.
    const int half = static_cast<int>(4 * sigma + 0.5) + 4, n = 2 * half + 1;
    std::vector<float> a(static_cast<std::size_t>(n) * n, 0.0f), b = a;
    a[static_cast<std::size_t>(half) * n + half] = b[static_cast<std::size_t>(half) * n + half] = 1.0f;
    BlurSpec exact = p.spec, fir = algo::with_algorithm(p.spec, Algorithm::fir);
    exact.with_border(Border::constant), fir.with_border(Border::constant);
    blur(View::packed(a.data(), ElementType::f32, n, n), View::packed(a.data(), ElementType::f32, n, n), exact);
    blur(View::packed(b.data(), ElementType::f32, n, n), View::packed(b.data(), ElementType::f32, n, n), fir);
    double worst = 0.0, peak = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(std::abs(a[i] - b[i]))), peak = std::max(peak, double(b[i]));
    EXPECT_LE(worst / peak, 1e-5) << sigma;
  }
  const View f64 = View::packed(nullptr, ElementType::f64, 1920, 1080, 1, 4);
  EXPECT_NE(make_plan(BlurSpec::isotropic_2d(50.0), f64).spec.algorithm, Algorithm::sliding_dct);
}

TEST(Plan, PredictionsMatchMeasurementsAndMeetTheTolerance) {
  std::vector<double> data(64 * 64);
  const View v = View::packed(data.data(), ElementType::f64, 64, 64);
  for (double tol : {1e-4, 1e-3, 1e-2, 3e-2, 1e-1})
    for (double sigma : {1.0, 2.5, 6.0, 20.0}) {
      BlurSpec spec = BlurSpec::isotropic_2d(sigma);
      spec.tolerance = tol;
      const Plan p = make_plan(spec, v);
      const double measured = measured_2d_error(p.spec, sigma, sigma);
      std::printf("[ measured ] tolerance %.0e sigma %4.1f -> %-7s predicted %.4g measured %.4g\n", tol, sigma,
                  std::string(to_string(p.spec.algorithm)).c_str(), p.predicted_max_error, measured);
      EXPECT_LE(p.predicted_max_error, tol);
      EXPECT_LE(measured, tol * 1.0001) << tol << " " << sigma;
      EXPECT_LE(measured, p.predicted_max_error * 1.0001 + 1e-12);  // the prediction bounds the error
      EXPECT_GE(measured, p.predicted_max_error * 0.5);             // and is not loose
    }
}

// Under a tolerance, downsample's candidate truncates its low-resolution Gaussian (most of the
// chain's arithmetic) as short as each axis's share of the tolerance allows: the plan's truncation
// is the least on its grid of eighths whose predicted error is within the share, below the blur's
// truncate, and the measured 2D error stays within the tolerance.
TEST(Plan, DownsampleTruncatesItsLowResolutionKernelWithinTheShare) {
  const View rgba = View::packed(nullptr, ElementType::f32, 1920, 1080, 1, 4);
  const double tol = 1e-2, share = std::sqrt(1.0 + tol) - 1.0;
  for (double sigma : {5.0, 10.0, 20.0, 50.0}) {
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.tolerance = tol;
    const Plan p = make_plan(spec, rgba);
    ASSERT_EQ(p.spec.algorithm, Algorithm::downsample) << describe(p);
    const double truncate = algo::option_value<double>(p.spec, "downsample_low_truncate");
    std::printf("[ measured ] sigma %4.1f: factor %d, low truncate %.3f, low radius %d\n", sigma,
                algo::option_int(p.spec, "downsample_factor"), truncate, p.axes[0].radius);
    EXPECT_GE(truncate, 1.5) << sigma;
    EXPECT_LT(truncate, spec.truncate) << sigma;
    EXPECT_LE(p.predicted_max_error, tol) << sigma;
    for (int a = 0; a < 2; ++a) EXPECT_LE(predicted_axis_error(p.spec, a), share) << sigma;
    EXPECT_LE(measured_2d_error(p.spec, sigma, sigma), tol) << sigma;
    // An eighth of a sigma shorter is past the share; the blur's own truncate is a longer kernel.
    BlurSpec shorter = p.spec, full = p.spec;
    algo::set_option(shorter, "downsample_low_truncate", truncate - 0.125);
    EXPECT_GT(predicted_axis_error(shorter, 0), share) << sigma;
    algo::set_option(full, "downsample_low_truncate", 0.0);
    EXPECT_GT(make_plan(full, rgba).axes[0].radius, p.axes[0].radius) << sigma;
  }
}

TEST(Plan, NamedAlgorithmsArePredictedToo) {
  std::vector<double> data(64 * 64);
  const View v = View::packed(data.data(), ElementType::f64, 64, 64);
  for (Algorithm a : {Algorithm::box, Algorithm::kawase, Algorithm::iir, Algorithm::fft, Algorithm::downsample,
                      Algorithm::sliding_dct})
    for (double sigma : {2.5, 7.0}) {
      BlurSpec spec = BlurSpec::isotropic_2d(sigma);
      spec.algorithm = a;
      const Plan p = make_plan(spec, v);
      const double measured = measured_2d_error(p.spec, sigma, sigma);
      std::printf("[ measured ] %-10s sigma %.1f: predicted %.4g measured %.4g\n", std::string(to_string(a)).c_str(), sigma,
                  p.predicted_max_error, measured);
      EXPECT_LE(measured, p.predicted_max_error * 1.0001 + 1e-12) << to_string(a);
      EXPECT_GE(measured, p.predicted_max_error * 0.5) << to_string(a);
    }
}

TEST(Plan, LargeSigmaPrefersConstantTimeAlgorithms) {
  std::vector<float> data(256 * 256);
  const View v = View::packed(data.data(), ElementType::f32, 256, 256);
  BlurSpec spec = BlurSpec::isotropic_2d(60.0);
  spec.tolerance = 0.1;
  EXPECT_NE(make_plan(spec, v).spec.algorithm, Algorithm::fir);
  spec.sigma = {1.0, 1.0, 0.0};
  EXPECT_EQ(make_plan(spec, v).spec.algorithm, Algorithm::fir);  // small kernels: fir is cheapest
}

// Tight tolerances at large sigma: only fir (costly) and the sliding DCT (constant time) qualify.
TEST(Plan, TightToleranceAtLargeSigmaPicksOnlyWhatMeetsIt) {
  // At max error 2e-4 neither box nor the recursive filters qualify; fir, fft and sliding-dct of
  // order 5 or more do, and the cheapest of those by the fitted cost model is chosen (on 256^2 at
  // sigma 40: fir, as measured - sliding-dct extends each line by 4.4 sigma per side).
  std::vector<float> data(256 * 256);
  const View v = View::packed(data.data(), ElementType::f32, 256, 256);
  BlurSpec spec = BlurSpec::isotropic_2d(40.0);
  spec.tolerance = 2e-4;
  const Plan p = make_plan(spec, v);
  EXPECT_TRUE(p.spec.algorithm == Algorithm::fir || p.spec.algorithm == Algorithm::fft ||
              p.spec.algorithm == Algorithm::sliding_dct) << describe(p);
  EXPECT_LE(p.predicted_max_error, 2e-4);
  // A sliding-dct of order 5 is within it, so asking for it by name gives a valid plan too.
  spec.tolerance = 0.0;
  spec.algorithm = Algorithm::sliding_dct;
  EXPECT_LE(make_plan(spec, v).predicted_max_error, 2e-4);
}

TEST(Plan, WithinOnePercentAConstantTimeLaneFilterBeatsLongKernels) {
  // The fitted CPU model (bench/RESULTS.md, "Lanes"): at 1080p RGBA float, sigma 20, the SIMD lane
  // filters measured 12.7 ms (Deriche) and 12-15 ms (sliding-dct of order 2 to 5) against 54 ms for
  // fir, and downsample's 2D chain 4.4-4.6 ms against Deriche's 7.3-7.8 (issue 28); within 1e-2 the
  // plan must take one of them, never fir or the line driver's filters.
  const View v = View::packed(nullptr, ElementType::f32, 1920, 1080, 1, 4);
  BlurSpec spec = BlurSpec::isotropic_2d(20.0);
  spec.tolerance = 1e-2;
  const Plan p = make_plan(spec, v);
  EXPECT_TRUE((p.algorithm == Algorithm::iir && test::choice_parameter(p.spec, "iir_variant") == "deriche") ||
              p.algorithm == Algorithm::sliding_dct || p.algorithm == Algorithm::downsample)
      << describe(p);
  EXPECT_EQ(p.schedule.driver, p.algorithm == Algorithm::downsample ? CpuDriver::chain : CpuDriver::lanes) << describe(p);
  // At sigma 1 the short exact kernel is cheaper than any O(1) filter.
  spec.sigma = {1.0, 1.0, 0.0};
  EXPECT_EQ(make_plan(spec, v).spec.algorithm, Algorithm::fir);
}

TEST(Plan, AGpuSamplersSubTexelErrorIsInTheTextureAlgorithmsPrediction) {
  // On a hardware GPU (software_device false) the texture-filtered algorithms predict the sampler's
  // 8 sub-texel bits on top of their shape error, per filtered axis; lavapipe filters in float.
  std::vector<float> a(96 * 64 * 4);
  const View v = View::packed(a.data(), ElementType::f32, 96, 64, 1, 4);
  algo::Shape gpu = planner::shape_of(v, ElementType::f32, Backend::vulkan), lavapipe = gpu;
  lavapipe.software_device = true;
  for (Algorithm alg : {Algorithm::fir_linear, Algorithm::kawase, Algorithm::dual_kawase, Algorithm::mip_poisson,
                        Algorithm::fir, Algorithm::box, Algorithm::iir}) {
    BlurSpec spec = BlurSpec::isotropic_2d(6.0);
    spec.algorithm = alg;
    const Plan hw = planner::plan_for(spec, gpu), sw = planner::plan_for(spec, lavapipe);
    const bool filtered = algo::descriptor(alg).info().capabilities.texture_filtering;
    EXPECT_NEAR(hw.predicted_max_error - sw.predicted_max_error, filtered ? 2 * algo::kSubTexelError : 0.0, 1e-12)
        << to_string(alg);
    for (int axis = 0; axis < 2; ++axis)
      EXPECT_NEAR(hw.axes[axis].predicted_error - sw.axes[axis].predicted_error, filtered ? algo::kSubTexelError : 0.0,
                  1e-12)
          << to_string(alg) << " axis " << axis;
  }
}

}  // namespace
}  // namespace fastblur
