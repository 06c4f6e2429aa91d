// The Vulkan backend's recorders (algorithm_list.def) against the registry's capabilities: a
// recorder for exactly the algorithms whose descriptors promise the Vulkan backend, and each of
// them blurs a small image on the device (an image and, where promised, a volume). The plan names
// every pass's variant (shader, tile, block, transfer parts) and the recorders run what it names.
#include <gtest/gtest.h>

#include "vulkan/context.hpp"
#include "vulkan/vulkan_test_support.hpp"
#include "vulkan/work.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST(VulkanRecorders, ExistForExactlyWhatTheCapabilitiesPromise) {
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic) continue;
    EXPECT_EQ(vk::recorder(a.id) != nullptr, a.capabilities.vulkan) << a.name;
  }
}

TEST_F(VulkanTest, EveryPromisedRecorderBlursImagesAndVolumes) {
  auto rng = test::rng_for_test();
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic || !a.capabilities.vulkan) continue;
    for (const int depth : {1, 5}) {
      if (depth > 1 && !(a.capabilities.vulkan_volumes && a.capabilities.max_dimensions == 3)) continue;
      auto src = test::make_buffer(ElementType::f32, 23, 17, depth, 1);
      auto dst = test::make_buffer(ElementType::f32, 23, 17, depth, 1);
      test::fill_random(src.view, rng);
      BlurSpec spec = depth > 1 ? BlurSpec::isotropic_3d(2.0) : BlurSpec::isotropic_2d(2.0);
      spec.algorithm = a.id;
      EXPECT_NO_THROW(blur(src.view, dst.view, spec, device_)) << a.name << " depth " << depth;
    }
  }
}

TEST_F(VulkanTest, ThePlanNamesEveryPassVariantAndTheRecordersRunIt) {
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f32, 300, 41, 1, 4);
  test::fill_random(src.view, rng);
  BlurSpec spec = BlurSpec::isotropic_2d(0.9);  // radius 4: the tile's smallest bucket, 8
  spec.algorithm = Algorithm::fir;
  Plan plan = make_plan(spec, src.view, ElementType::f32, device_);
  EXPECT_EQ(plan.schedule.gpu[0].shader, "fir_line_c4");
  EXPECT_EQ(plan.schedule.gpu[0].tile, 8);
  EXPECT_EQ(plan.schedule.gpu[1].shader, "fir_across");
  EXPECT_EQ(plan.schedule.transfer_parts, 1);  // 190 KB: one part
  EXPECT_NE(describe(plan).find("x fir_line_c4 tile 8"), std::string::npos) << describe(plan);
  // The other variant the plan can name (taps from device memory) compiles its own pipeline and
  // gives the same result.
  vk::Context& ctx = test::context_of(device_);
  auto a = test::make_buffer(ElementType::f32, 300, 41, 1, 4), b = test::make_buffer(ElementType::f32, 300, 41, 1, 4);
  blur(src.view, a.view, plan, device_);
  const auto before = ctx.counters();
  Plan global = plan;
  global.schedule.gpu[0].tile = 0;
  blur(src.view, b.view, global, device_);
  EXPECT_EQ(ctx.counters().pipelines_created, before.pipelines_created + 1) << "the plan's variant ran";
  EXPECT_LE(test::max_difference(a.view, b.view), 1e-6);
  // iir (Deriche, float32) along x on lines of 4 chunks or more: chunks of 32 samples in parallel;
  // on shorter lines whole lines per workgroup (64 / 4 lines of 4 channels), a block within 1 to 32.
  spec.algorithm = Algorithm::iir;
  spec.sigma = {3.0, 0.0, 0.0};
  plan = make_plan(spec, src.view, ElementType::f32, device_);
  EXPECT_EQ(plan.schedule.gpu[0].shader, "iir_chunks_starts");
  EXPECT_EQ(plan.schedule.gpu[0].block, 32);
  EXPECT_NE(describe(plan).find("x iir_chunks_starts chunks of 32"), std::string::npos) << describe(plan);
  auto narrow = test::make_buffer(ElementType::f32, 40, 41, 1, 4);
  spec.with_border(Border::nearest);  // no padding: 40 samples, under 4 chunks
  plan = make_plan(spec, narrow.view, ElementType::f32, device_);
  EXPECT_EQ(plan.schedule.gpu[0].tile, 64);
  EXPECT_GE(plan.schedule.gpu[0].block, 1);
  EXPECT_LE(plan.schedule.gpu[0].block, 32);
  EXPECT_EQ(plan.schedule.gpu[0].shader, "iir_line_f32");  // Deriche: float32, in its parallel form
  EXPECT_EQ(plan.schedule.gpu[0].recursion, GpuPass::Recursion::deriche_parallel);
  spec.with_border(Border::reflect);
  // A large image travels in parts of rows, as its plan says.
  auto big = test::make_buffer(ElementType::f32, 1024, 1024, 1, 4);
  EXPECT_EQ(make_plan(spec, big.view, ElementType::f32, device_).schedule.transfer_parts, 4);  // 16 MiB: 4 parts
}

}  // namespace
}  // namespace fastblur
