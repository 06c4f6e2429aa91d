// The planner and mip-poisson (planar): its predicted error is its measured 2D error, it is a
// candidate for 2D images blurred along x and y only, and its error is measured only where its
// cost could win.
#include <gtest/gtest.h>

#include <string>

#include "fastblur/analysis.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {
namespace {

const std::string* considered_line(const Plan& p, const std::string& name) {
  for (const std::string& line : p.considered)
    if (line.rfind(name + " ", 0) == 0) return &line;
  return nullptr;
}

TEST(MipPoissonPlan, NamedPlansPredictThe2dErrorOfTheImpulseResponse) {
  std::vector<float> data(96 * 80);
  const View v = View::packed(data.data(), ElementType::f32, 96, 80);
  for (double sigma : {1.5, 6.0}) {
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.algorithm = Algorithm::mip_poisson;
    const Plan p = make_plan(spec, v);
    EXPECT_DOUBLE_EQ(p.predicted_max_error, analysis::measure_impulse(spec, sigma).max_error_2d) << sigma;
    EXPECT_NE(describe(p).find("mip_poisson_samples: 32"), std::string::npos) << describe(p);
    set_parameter(spec, "mip_poisson_samples", static_cast<std::int64_t>(64));
    EXPECT_NE(describe(make_plan(spec, v)).find("mip_poisson_samples: 64"), std::string::npos);
    EXPECT_GT(make_plan(spec, v).predicted_cost, p.predicted_cost);  // more samples, more fetches
  }
}

TEST(MipPoissonPlan, CandidateFor2dImagesOnlyAndMeasuredOnlyWhereItCouldWin) {
  std::vector<float> data(64 * 64 * 2);
  BlurSpec spec = BlurSpec::isotropic_2d(6.0);
  spec.tolerance = 0.9;
  const Plan flat = make_plan(spec, View::packed(data.data(), ElementType::f32, 64, 64));
  const std::string* line = considered_line(flat, "mip-poisson");
  ASSERT_NE(line, nullptr) << describe(flat);
  // Cheaper candidates within the tolerance exist (box, fir truncated), so its error is not measured.
  EXPECT_NE(line->find("not cheaper"), std::string::npos) << *line;
  EXPECT_LE(flat.predicted_max_error, spec.tolerance);
  EXPECT_EQ(considered_line(make_plan(spec, View::packed(data.data(), ElementType::f32, 64, 32, 2)), "mip-poisson"),
            nullptr);
  BlurSpec x_only;
  x_only.sigma = {6.0, 0.0, 0.0};
  x_only.tolerance = 0.9;
  EXPECT_EQ(considered_line(make_plan(x_only, View::packed(data.data(), ElementType::f32, 64, 64)), "mip-poisson"),
            nullptr);
}

}  // namespace
}  // namespace fastblur
