// The planner and dual-kawase (a planar algorithm): its error is the 2D max error of its impulse
// response, and it is a candidate only for 2D images blurred along x and y.
#include <gtest/gtest.h>

#include <string>

#include "fastblur/analysis.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {
namespace {

bool considered(const Plan& p, const std::string& name) {
  for (const std::string& line : p.considered)
    if (line.rfind(name + " ", 0) == 0) return true;
  return false;
}

TEST(DualKawasePlan, NamedPlansPredictThe2dErrorOfTheImpulseResponse) {
  std::vector<float> data(128 * 96 * 4);
  const View v = View::packed(data.data(), ElementType::f32, 128, 96, 1, 4);  // RGBA, as the costs were measured
  for (double sigma : {2.0, 7.5, 20.0}) {
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.algorithm = Algorithm::dual_kawase;
    const Plan p = make_plan(spec, v);
    const analysis::ImpulseMetrics m = analysis::measure_impulse(spec, sigma);
    EXPECT_DOUBLE_EQ(p.predicted_max_error, m.max_error_2d) << sigma;
    EXPECT_GT(p.predicted_max_error, m.max_error) << sigma;  // the 2D error, not the marginal's
    EXPECT_DOUBLE_EQ(predicted_axis_error(spec, 0), m.max_error_2d);
    EXPECT_NE(describe(p).find("dual_kawase_levels: "), std::string::npos) << describe(p);
    BlurSpec box = spec;
    box.algorithm = Algorithm::box;
    // Measured at 1080p RGBA32F since box runs in SIMD lanes: box 15.3 ms, dual-kawase 20.7-27.1 ms.
    EXPECT_GT(p.predicted_cost, make_plan(box, v).predicted_cost);
  }
  // Anisotropic: the worse of the two sigmas, each measured isotropically.
  BlurSpec a;
  a.sigma = {3.0, 12.0, 0.0};
  a.algorithm = Algorithm::dual_kawase;
  const double worst = std::max(analysis::measure_impulse(a, 3.0).max_error_2d, analysis::measure_impulse(a, 12.0).max_error_2d);
  EXPECT_DOUBLE_EQ(make_plan(a, v).predicted_max_error, worst);
  // Large sigma: measured at 64, like the other algorithms' kernels.
  a.sigma = {100.0, 100.0, 0.0};
  EXPECT_DOUBLE_EQ(make_plan(a, v).predicted_max_error, analysis::measure_impulse(a, 64.0).max_error_2d);
  // Unless the spec's own levels do not reach 64: then at its own sigma.
  set_parameter(a, "dual_kawase_levels", static_cast<std::int64_t>(7));  // from sigma 73.9
  EXPECT_DOUBLE_EQ(make_plan(a, v).predicted_max_error, analysis::measure_impulse(a, 100.0).max_error_2d);
}

TEST(DualKawasePlan, CandidateOnlyFor2dImagesBlurredAlongXAndY) {
  std::vector<float> data(64 * 64 * 2);
  BlurSpec spec = BlurSpec::isotropic_2d(10.0);
  spec.tolerance = 0.9;
  const Plan flat = make_plan(spec, View::packed(data.data(), ElementType::f32, 64, 64));
  EXPECT_TRUE(considered(flat, "dual-kawase")) << describe(flat);
  EXPECT_LE(flat.predicted_max_error, spec.tolerance);
  // A volume, a blur along z, a line of one pixel along x, a sigma below the chain's smallest.
  EXPECT_FALSE(considered(make_plan(spec, View::packed(data.data(), ElementType::f32, 64, 32, 2)), "dual-kawase"));
  BlurSpec z = BlurSpec::isotropic_3d(10.0);
  z.tolerance = 0.9;
  EXPECT_FALSE(considered(make_plan(z, View::packed(data.data(), ElementType::f32, 64, 64)), "dual-kawase"));
  EXPECT_FALSE(considered(make_plan(spec, View::packed(data.data(), ElementType::f32, 1, 64)), "dual-kawase"));
  BlurSpec small = BlurSpec::isotropic_2d(0.8);
  small.tolerance = 0.9;
  EXPECT_FALSE(considered(make_plan(small, View::packed(data.data(), ElementType::f32, 64, 64)), "dual-kawase"));
  // Chosen when it is the cheapest within the tolerance, and the plan runs.
  BlurSpec big = BlurSpec::isotropic_2d(40.0);
  big.tolerance = 0.9;
  const View v = View::packed(data.data(), ElementType::f32, 64, 64);
  const Plan p = make_plan(big, v);
  std::printf("[ measured ] sigma 40, tolerance 0.9: %s", describe(p).c_str());
  EXPECT_TRUE(considered(p, "dual-kawase"));
  EXPECT_NO_THROW(blur(v, v, p.spec));
}

}  // namespace
}  // namespace fastblur
