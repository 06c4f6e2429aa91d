// binomial: the dry run of a new algorithm (its descriptor, this test, one line in
// algorithm_list.def). Its twin is the double correlation with kernel::binomial_weights; the
// contract grid runs it over every shape, type, border and channel count.
#include <gtest/gtest.h>

#include <cmath>

#include "support/convolve_reference.hpp"
#include "support/test_support.hpp"
#include "support/twins.hpp"

namespace fastblur {
namespace {

int order_of(const BlurSpec& spec, double sigma) {
  const auto given = test::int_parameter(spec, "binomial_order");
  return given > 0 ? static_cast<int>(given) : std::max(2, 2 * static_cast<int>(std::lround(2.0 * sigma * sigma)));
}

const bool kTwin = test::register_twin({Algorithm::binomial, 64, [](const View& src, const View& exact, const BlurSpec& spec) {
  std::array<std::vector<double>, 3> k;
  for (std::size_t a = 0; a < 3; ++a)
    if (spec.sigma[a] > 1e-15) k[a] = kernel::binomial_weights(order_of(spec, spec.sigma[a]));
  test::convolve_reference(src, exact, k, spec);
}});

TEST(BinomialBlur, OrderVarianceAndPlan) {
  std::vector<float> data(40 * 30);
  const View v = View::packed(data.data(), ElementType::f32, 40, 30);
  BlurSpec spec = BlurSpec::isotropic_2d(std::sqrt(2.0));  // 4 sigma^2 = 8: the order 8 (9 taps), its variance exact
  spec.algorithm = Algorithm::binomial;
  Plan p = make_plan(spec, v);
  EXPECT_EQ(p.axes[0].radius, 4);
  EXPECT_DOUBLE_EQ(p.axes[0].achieved_sigma, std::sqrt(2.0));
  ASSERT_TRUE(p.axes[0].weights);
  EXPECT_EQ(*p.axes[0].weights, kernel::binomial_weights(8));
  EXPECT_LT(p.axes[0].predicted_error, 0.05);  // close to the Gaussian already (2D: about twice)
  EXPECT_LT(p.predicted_max_error, 0.08);
  spec.sigma = {1.5, 1.5, 0.0};  // 4 sigma^2 = 9: the even order 10 (sigma 1.58), and the error says so
  p = make_plan(spec, v);
  EXPECT_EQ(p.axes[0].radius, 5);
  EXPECT_GT(p.axes[0].predicted_error, 0.05);
  set_parameter(spec, "binomial_order", std::int64_t{4});
  EXPECT_EQ(make_plan(spec, v).axes[1].radius, 2);
  EXPECT_THROW(set_parameter(spec, "binomial_order", std::int64_t{3}), InvalidArgument);  // odd: not centred
}

TEST(BinomialBlur, EqualsTheDoubleCorrelationOnEveryType) {
  auto rng = test::rng_for_test();
  for (ElementType type : test::all_types()) {
    auto src = test::make_buffer(type, 23, 17, 3, 2), out = test::make_buffer(type, 23, 17, 3, 2);
    auto exact = test::make_buffer(ElementType::f64, 23, 17, 3, 2);
    test::fill_random(src.view, rng);
    BlurSpec spec = BlurSpec::isotropic_3d(1.2);
    spec.algorithm = Algorithm::binomial;
    spec.with_border(Border::mirror);
    blur(src.view, out.view, spec);
    for (const test::Twin& t : test::twins())
      if (t.algorithm == Algorithm::binomial) t.compute(src.view, exact.view, spec);
    std::string where;
    EXPECT_LE(test::worst_ratio(out.view, exact.view, 16, &where, test::integer_bound_of(make_plan(spec, src.view))), 1.0)
        << "seed " << test::seed() << " " << to_string(type) << " at " << where;
  }
}

}  // namespace
}  // namespace fastblur
