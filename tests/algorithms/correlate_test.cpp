// correlate: the caller's weights against the double-precision correlation, for symmetric,
// asymmetric and even-length kernels, every border and type, in place and not, 2D and 3D; without
// weights it is fir; the plan shows the weights and the driver they run on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "support/convolve_reference.hpp"
#include "support/twins.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

// n random weights summing to 1 (some negative where `signed_weights`: a first tap of 1 and the
// others within +-0.25, so that the sum stays away from 0), symmetric where asked.
std::vector<double> random_weights(std::mt19937_64& rng, int n, bool symmetric, bool signed_weights) {
  std::uniform_real_distribution<double> u(signed_weights ? -0.25 : 0.05, signed_weights ? 0.25 : 1.0);
  std::vector<double> w(static_cast<std::size_t>(n));
  for (auto& v : w) v = u(rng);
  if (signed_weights) w[0] = 1.0;
  if (symmetric)
    for (int k = 0; k < n / 2; ++k) w[static_cast<std::size_t>(n - 1 - k)] = w[static_cast<std::size_t>(k)];
  double sum = 0.0;
  for (double v : w) sum += v;
  for (auto& v : w) v /= sum;
  return w;
}

BlurSpec correlate_spec(const std::vector<double>& w, std::array<double, 3> axes) {
  BlurSpec spec;
  spec.sigma = axes;  // the axes filtered; the weights alone define the kernel
  spec.algorithm = Algorithm::correlate;
  set_parameter(spec, "correlate_weights", w);
  return spec;
}

// The twin (tests/support/twins.hpp): the double correlation with the weights, or fir's Gaussian.
const bool kTwin = test::register_twin({Algorithm::correlate, 64, [](const View& src, const View& exact, const BlurSpec& spec) {
  const auto w = std::get<std::vector<double>>(get_parameter(spec, "correlate_weights"));
  std::array<std::vector<double>, 3> k;
  for (int a = 0; a < 3; ++a)
    if (spec.sigma[static_cast<std::size_t>(a)] > 1e-15)
      k[static_cast<std::size_t>(a)] = w.empty() ? kernel::gaussian_weights(spec.sigma[static_cast<std::size_t>(a)], effective_radius(spec, a)) : w;
  test::convolve_reference(src, exact, k, spec);
}});

TEST(Correlate, EqualsTheDoubleCorrelationForAnyWeights) {
  auto rng = test::rng_for_test();
  struct Kernel { int n; bool symmetric, signed_weights; };
  const Kernel kernels[] = {{5, true, false}, {7, false, false}, {4, false, true}, {1, true, false}, {9, true, true}, {2, false, false}};
  struct Case { std::int64_t w, h, d; int c; std::array<double, 3> axes; };
  const Case cases[] = {{19, 13, 1, 1, {1, 1, 0}}, {7, 11, 1, 3, {1, 0, 0}}, {9, 6, 5, 2, {1, 1, 1}}, {1, 12, 1, 4, {1, 1, 0}},
                        {6, 5, 4, 1, {0, 0, 1}}};
  for (const Kernel& kn : kernels)
    for (ElementType type : {ElementType::u8, ElementType::u16, ElementType::f16, ElementType::f32, ElementType::f64})
      for (Border border : test::all_borders())
        for (const Case& cs : cases) {
          if (!test::grid_cell(static_cast<int>(type), static_cast<int>(border), static_cast<int>(&cs - cases), 3)) continue;
          const std::vector<double> w = random_weights(rng, kn.n, kn.symmetric, kn.signed_weights);
          BlurSpec spec = correlate_spec(w, cs.axes);
          spec.with_border(border);
          spec.cval = 0.25 * test::type_scale(type);
          for (const bool in_place : {false, true}) {
            auto src = test::make_buffer(type, cs.w, cs.h, cs.d, cs.c);
            test::fill_random(src.view, rng);
            auto exact = test::make_buffer(ElementType::f64, cs.w, cs.h, cs.d, cs.c);
            std::array<std::vector<double>, 3> k;
            for (std::size_t a = 0; a < 3; ++a)
              if (cs.axes[a] > 0) k[a] = w;
            test::convolve_reference(src.view, exact.view, k, spec);
            auto out = test::make_buffer(type, cs.w, cs.h, cs.d, cs.c);
            if (in_place) std::memcpy(out.bytes.data(), src.bytes.data(), src.bytes.size());
            const Plan plan = make_plan(spec, src.view);
            blur(in_place ? out.view : src.view, out.view, spec);
            std::string where;
            const double worst = test::worst_ratio(out.view, exact.view, 4 * kn.n, &where, test::integer_bound_of(plan));
            ASSERT_LE(worst, 1.0) << "seed " << test::seed() << " n " << kn.n << " " << to_string(type) << " "
                                  << to_string(border) << " " << cs.w << "x" << cs.h << "x" << cs.d << " c" << cs.c
                                  << (in_place ? " in place " : " ") << to_string(plan.schedule.driver) << " at " << where;
          }
        }
}

TEST(Correlate, WithoutWeightsIsFirBitForBit) {
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f32, 37, 23, 3, 2);
  test::fill_random(src.view, rng);
  auto a = test::make_buffer(ElementType::f32, 37, 23, 3, 2), b = test::make_buffer(ElementType::f32, 37, 23, 3, 2);
  BlurSpec spec = BlurSpec::isotropic_3d(2.5);
  spec.algorithm = Algorithm::fir;
  blur(src.view, a.view, spec);
  spec.algorithm = Algorithm::correlate;
  blur(src.view, b.view, spec);
  EXPECT_EQ(a.bytes, b.bytes);
}

TEST(Correlate, ThePlanCarriesTheWeightsAndPicksTheDriverTheyNeed) {
  std::vector<float> data(40 * 30);
  const View v = View::packed(data.data(), ElementType::f32, 40, 30);
  const std::vector<double> symmetric{0.25, 0.5, 0.25}, asymmetric{0.5, 0.3, 0.2};
  Plan p = make_plan(correlate_spec(symmetric, {1, 1, 0}), v);
  ASSERT_TRUE(p.axes[0].weights && p.axes[1].weights);
  EXPECT_EQ(*p.axes[0].weights, symmetric);
  EXPECT_EQ(p.axes[0].radius, 1);
  EXPECT_NE(p.schedule.driver, CpuDriver::lines);  // fir's SIMD passes
  EXPECT_NE(describe(p).find("correlate_weights"), std::string::npos) << describe(p);
  p = make_plan(correlate_spec(asymmetric, {1, 1, 0}), v);
  EXPECT_EQ(p.schedule.driver, CpuDriver::lines);
  BlurSpec scipy = correlate_spec(asymmetric, {1, 0, 0});
  scipy.rounding = Rounding::scipy;
  EXPECT_EQ(make_plan(scipy, v).schedule.driver, CpuDriver::scipy_order);
  // fir's weights are in its plan too: the sampled Gaussian of the axis's sigma.
  BlurSpec fir = BlurSpec::isotropic_2d(2.0);
  fir.algorithm = Algorithm::fir;
  p = make_plan(fir, v);
  ASSERT_TRUE(p.axes[0].weights);
  EXPECT_EQ(*p.axes[0].weights, kernel::gaussian_weights(2.0, 8));
}

TEST(Correlate, RefusesWhatItCannotRunWithOneLine) {
  std::vector<float> data(16 * 16);
  const View v = View::packed(data.data(), ElementType::f32, 16, 16);
  BlurSpec spec = correlate_spec({0.5, 0.3, 0.2}, {1, 1, 0});
  EXPECT_THROW((void)make_plan(spec, v, Backend::vulkan), Unsupported);  // the GPU's fir takes symmetric odd kernels
  EXPECT_NO_THROW((void)make_plan(correlate_spec({0.25, 0.5, 0.25}, {1, 1, 0}), v, Backend::vulkan));
  EXPECT_THROW(set_parameter(spec, "correlate_weights", std::vector<double>{1.0, NAN}), InvalidArgument);
  EXPECT_THROW(set_parameter(spec, "correlate_weights", std::vector<double>{1.0, INFINITY}), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
