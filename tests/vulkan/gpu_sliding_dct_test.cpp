// sdct_chunks.comp (src/vulkan/gpu_sliding_dct.cpp): sliding-dct's recurrences in double over chunks
// of every line in parallel give what the CPU's sliding-dct gives, up to float rounding: every border,
// 1 to 4 channels, each axis of a volume, lines of one chunk and of several (ending inside one),
// orders 2 to 8, the series of the Gaussian and fitted to fir's kernel, in place. And the exact blur
// through it: at sigma 50 within 1e-5 of the CPU's fir, as tolerance 0 promises.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "fastblur/plan.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, SlidingDctOnTheGpuGivesTheCpusSeries) {
  auto rng = test::rng_for_test();
  struct Case {
    std::int64_t w, h, d;
    std::array<double, 3> sigma;
    int channels, order;
    bool fir;
  };
  // Chunks of max(128, 2 (2R + 1)) outputs: lines of 517 and 300 are several, 37 one.
  const Case cases[] = {{517, 9, 1, {3.0, 0, 0}, 4, 5, false},  {37, 300, 1, {0, 2.0, 0}, 3, 4, false},
                        {23, 19, 140, {0, 0, 1.5}, 1, 6, true},   {61, 45, 1, {6.0, 2.5, 0}, 2, 8, true},
                        {19, 23, 29, {1.5, 1.2, 2.0}, 1, 2, false}, {300, 40, 1, {12.0, 12.0, 0}, 4, 6, true}};
  int compared = 0;
  double worst = 0;
  for (const Case& c : cases)
    for (const Border border : test::all_borders()) {
      auto src = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      test::fill_random(src.view, rng);
      BlurSpec spec;
      spec.sigma = c.sigma;
      spec.algorithm = Algorithm::sliding_dct;
      spec.with_border(border);
      spec.cval = 0.35;
      set_parameter(spec, "sliding_dct_order", std::int64_t{c.order});
      set_parameter(spec, "sliding_dct_fit", std::string(c.fir ? "fir" : "gaussian"));
      const Plan plan = make_plan(spec, src.view, ElementType::f32, device_);
      for (int a = 0; a < 3; ++a)
        if (c.sigma[static_cast<std::size_t>(a)] > 0) EXPECT_EQ(plan.schedule.gpu[static_cast<std::size_t>(a)].shader, "sdct_chunks");
      auto cpu = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      auto gpu = cpu;
      gpu.view.data = gpu.bytes.data();
      blur(src.view, cpu.view, spec);
      blur(src.view, gpu.view, plan, device_);
      const double diff = test::max_difference(gpu.view, cpu.view);
      worst = std::max(worst, diff);
      const std::string what = test::describe_case(spec, ElementType::f32, c.w, c.h, c.d, c.channels) + " order " +
                               std::to_string(c.order) + (c.fir ? " fitted to fir" : "");
      EXPECT_LE(diff, 2e-6) << what;
      blur(src.view, src.view, plan, device_);  // in place
      EXPECT_LE(test::max_difference(src.view, cpu.view), 2e-6) << "in place: " << what;
      ++compared;
    }
  std::printf("[ measured ] sliding-dct GPU against CPU over %d cases: max |diff| %.3g\n", compared, worst);
  EXPECT_EQ(compared, 6 * static_cast<int>(test::all_borders().size()));
}

TEST_F(VulkanTest, ExactThroughSlidingDctIsFirWithinItsPromise) {
  auto rng = test::rng_for_test();
  BlurSpec spec = BlurSpec::isotropic_2d(50.0);
  spec.with_border(Border::reflect);
  // An image wider than fir's radius (200): the planner's exact plan is the series (its model).
  auto src = test::make_buffer(ElementType::f32, 450, 420, 1, 1);
  test::fill_random(src.view, rng);
  const Plan plan = make_plan(spec, src.view, ElementType::f32, device_);
  ASSERT_EQ(plan.spec.algorithm, Algorithm::sliding_dct) << describe(plan);
  auto gpu = test::make_buffer(ElementType::f64, 450, 420, 1, 1), fir = gpu;
  fir.view.data = fir.bytes.data();
  blur(src.view, gpu.view, plan, device_);
  blur(src.view, fir.view, algo::with_algorithm(spec, Algorithm::fir));
  const double diff = test::max_difference(gpu.view, fir.view);
  std::printf("[ measured ] exact at sigma 50 on the GPU (sliding-dct) against the CPU's fir: max |diff| %.3g\n", diff);
  EXPECT_LE(diff, 1e-5);
}

}  // namespace
}  // namespace fastblur
