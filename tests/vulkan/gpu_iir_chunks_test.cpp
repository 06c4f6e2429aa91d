// iir_chunks.comp (src/vulkan/gpu_iir_chunks.cpp): Deriche's parallel form with every line cut into
// chunks that run in parallel gives, up to float rounding, what one thread walking the whole line
// gives (iir_line.comp's VARIANT 2, the plan's other pass for it) and what the CPU gives: every
// border, 1 to 4 channels, each axis of a volume, lines that end inside a chunk or on its edge,
// paddings longer than a chunk, and batches of a few lanes.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "fastblur/plan.hpp"
#include "algorithms/gpu_passes.hpp"
#include "algorithms/iir.hpp"
#include "vulkan/context.hpp"
#include "vulkan/work.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, IirChunksGiveWhatALanePerThreadGives) {
  auto rng = test::rng_for_test();
  vk::Context& ctx = test::context_of(device_);
  struct Case {
    std::int64_t w, h, d;
    std::array<double, 3> sigma;
    int channels;
  };
  // Line lengths (with the border's padding) from 4 chunks of 32 up, ending on a chunk's edge (128)
  // and inside one; sigma 0.8 to 12 (paddings of 9 to 132 samples); each axis.
  const Case cases[] = {{128, 5, 1, {0.8, 0, 0}, 1}, {173, 3, 1, {3.0, 0, 0}, 4}, {9, 160, 1, {0, 2.5, 0}, 3},
                        {6, 5, 150, {0, 0, 1.7, }, 2}, {200, 131, 1, {12.0, 4.0, 0}, 4}, {140, 135, 130, {1.5, 1.5, 1.5}, 1},
                        {150, 23, 1, {2.0, 0, 0}, 3}, {133, 37, 1, {1.2, 0, 0}, 2},
                        {150, 7, 1, {40.0, 0, 0}, 2}};  // shorter than the decay length (about 440): padded
  int compared = 0;
  double worst = 0, worst_cpu = 0, worst_padded = 0;
  for (const Case& c : cases)
    for (const Border border : test::all_borders()) {
      auto src = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      test::fill_random(src.view, rng);
      BlurSpec spec;
      spec.sigma = c.sigma;
      spec.algorithm = Algorithm::iir;
      set_parameter(spec, "iir_variant", test::iir_name(IirVariant::deriche));
      spec.with_border(border);
      spec.cval = 0.25;
      Plan plan = make_plan(spec, src.view, ElementType::f32, device_);
      int chunked = 0;
      Plan lane_plan = plan;
      for (std::size_t a = 0; a < 3; ++a) {
        GpuPass& g = plan.schedule.gpu[a];
        if (!algo::iir_chunks_pass(g)) continue;
        ++chunked;
        lane_plan.schedule.gpu[a] = GpuPass{"iir_line_f32", 0, 1};  // a lane per thread, the same recursion
        lane_plan.schedule.gpu[a].recursion = GpuPass::Recursion::deriche_parallel;
        g.batch = std::max<std::int64_t>(1, g.batch / 3 + 1);  // several batches of lanes per axis
      }
      ASSERT_GT(chunked, 0) << "the plan cuts lines of 4 chunks or more into chunks";
      algo::schedule_gpu_batches(lane_plan, vk::shape_on(ctx, {c.w, c.h, c.d}, c.channels, ElementType::f32, ElementType::f32));
      // The plan's chunks compute reflect's, mirror's and wrap's starts (iir_chunks_starts); the
      // other way pads their lines.
      Plan padded_plan = plan;
      for (GpuPass& g : padded_plan.schedule.gpu)
        if (algo::iir_chunks_pass(g)) {
          EXPECT_EQ(g.shader, algo::kIirChunksStarts);
          g.shader = algo::kIirChunksPadded;
        }
      auto chunks = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      auto padded = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      auto lanes = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      auto cpu = test::make_buffer(ElementType::f32, c.w, c.h, c.d, c.channels);
      blur(src.view, chunks.view, plan, device_);
      blur(src.view, padded.view, padded_plan, device_);
      blur(src.view, lanes.view, lane_plan, device_);
      blur(src.view, cpu.view, spec);
      const double d = test::max_difference(chunks.view, lanes.view), dc = test::max_difference(chunks.view, cpu.view);
      const double dp = test::max_difference(chunks.view, padded.view);
      worst = std::max(worst, d);
      worst_cpu = std::max(worst_cpu, dc);
      worst_padded = std::max(worst_padded, dp);
      const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + "x" + std::to_string(c.d) + " C" +
                               std::to_string(c.channels) + " " + std::string(to_string(border));
      EXPECT_LE(d, 1e-5) << what;
      EXPECT_LE(dc, 2e-5) << what;
      EXPECT_LE(dp, 1e-5) << "computed starts against padded lines, " << what;
      EXPECT_LE(test::max_difference(padded.view, cpu.view), 2e-5) << "padded, " << what;
      ++compared;
    }
  std::printf("[ measured ] iir chunks: max |chunks - lane per thread| %.3g, max |chunks - cpu| %.3g, max |computed starts"
              " - padded| %.3g over %d cases\n", worst, worst_cpu, worst_padded, compared);
  EXPECT_EQ(compared, 45);
}

}  // namespace
}  // namespace fastblur
