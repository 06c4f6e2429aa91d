// The plan is the only record of a GPU variant (issue 48): for every algorithm the Vulkan backend
// runs (the registry's), in each named variant, 8-bit and float images of 1 to 4 channels and float
// volumes, and a device feature (iir's float64), every pipeline its recorder asks the context for is
// a shader the plan names (algo::planned_shaders: each GpuPass::shader) or the padding every
// image-based pass starts from - and every shader the plan names runs. The plan also sizes each pass's batches
// for its device (GpuPass::batch), which the recorders run as they are or refuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"
#include "algorithms/gpu_variants.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/vulkan_test_support.hpp"
#include "vulkan/work.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

bool is_padding(const std::string& name) { return name.rfind("pad_image_c", 0) == 0; }

TEST_F(VulkanTest, EveryPipelineARecorderRunsIsNamedByItsPlan) {
  const std::shared_ptr<vk::Context> ctx = DeviceAccess::context(device_);
  struct Case {
    Algorithm algorithm;
    ElementType type;
    int channels;
    std::array<std::int64_t, 3> extent;
    const algo::GpuVariant* variant;  // null: the plan as made
    double sigma = 4.0;
    const char* iir_variant = nullptr;  // the device's features choose too: iir's float64
  };
  std::vector<Case> cases;
  for (const auto& [d, v] : test::vulkan_algorithm_variants()) {
    if (d->info().runs_on(Backend::vulkan, 2))
      for (int channels : {1, 2, 3, 4})  // 8-bit and float images, each channel count's variant
        cases.push_back({d->id(), channels % 2 ? ElementType::u8 : ElementType::f32, channels, {67, 29, 1}, v});
    if (d->info().runs_on(Backend::vulkan, 3)) cases.push_back({d->id(), ElementType::f32, 2, {40, 23, 11}, v});
  }
  // Young-van Vliet beyond the sigma float32 holds: float64 recursions where the device has them.
  if (ctx->has_float64()) cases.push_back({Algorithm::iir, ElementType::f32, 2, {300, 9, 1}, nullptr, 30.0, "young-van-vliet"});
  ASSERT_GE(cases.size(), 40u);
  std::vector<std::string> asked;
  for (const Case& c : cases) {
    auto src = test::make_buffer(c.type, c.extent[0], c.extent[1], c.extent[2], c.channels);
    BlurSpec spec;
    spec.sigma = {c.sigma, c.sigma, c.extent[2] > 1 ? 2.0 : 0.0};
    spec.algorithm = c.algorithm;
    if (c.iir_variant) set_parameter(spec, "iir_variant", c.iir_variant);
    Plan plan = make_plan(spec, src.view, device_);
    if (c.variant) c.variant->apply(plan, vk::shape_on(*ctx, c.extent, c.channels, c.type, c.type));
    const std::vector<std::string> named = algo::planned_shaders(plan);
    if (c.iir_variant)
      EXPECT_NE(std::find(named.begin(), named.end(), std::string("iir_line_f64")), named.end()) << describe(plan);
    const std::string what = std::string(to_string(c.algorithm)) + (c.variant ? "-" + std::string(c.variant->name) : "") +
                             " " + std::string(to_string(c.type)) + " C" + std::to_string(c.channels) +
                             (c.extent[2] > 1 ? " volume" : "") + "\n" + describe(plan);
    vk::Work a;
    a.extent = c.extent;
    a.channels = c.channels;
    vk::Job job(ctx);
    a.buffer = job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    vk::Work b = a;
    b.buffer = job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    asked.clear();
    ctx->log_pipelines(&asked);
    try {
      vk::record_algorithm(job, a, b, plan);
    } catch (...) {
      ctx->log_pipelines(nullptr);
      throw;
    }
    ctx->log_pipelines(nullptr);
    job.run();
    for (const std::string& name : asked)
      EXPECT_TRUE(is_padding(name) || std::find(named.begin(), named.end(), name) != named.end())
          << what << ": ran " << name << ", which the plan does not name";
    for (const std::string& name : named)
      EXPECT_NE(std::find(asked.begin(), asked.end(), name), asked.end()) << what << ": names " << name << ", which did not run";
  }
}

// box (each variant) and iir (chunks along x, a lane per thread along y) planned for a device whose
// scratch budget is the image's size: the passes that keep a line's scratch run in several batches,
// with the bits of the plan made for the whole budget; that plan, whose batches the small device
// cannot hold, is refused rather than re-batched by the recorder.
TEST_F(VulkanTest, ThePlanSizesEachPassBatchForItsDevice) {
  const std::shared_ptr<vk::Context> ctx = DeviceAccess::context(device_);
  auto rng = test::rng_for_test();
  constexpr std::int64_t w = 300, h = 40;
  constexpr int C = 2;
  auto src = test::make_buffer(ElementType::f32, w, h, 1, C);
  test::fill_random(src.view, rng);
  struct Case {
    Algorithm algorithm;
    const algo::GpuVariant* variant;
    const char* iir_variant;
  };
  std::vector<Case> cases;
  for (const algo::GpuVariant& v : algo::gpu_variants())  // the registry's list lives on; a filtered copy would not
    if (v.algorithm == Algorithm::box) cases.push_back({Algorithm::box, &v, nullptr});
  cases.push_back({Algorithm::iir, nullptr, "deriche"});
  cases.push_back({Algorithm::iir, nullptr, "young-van-vliet"});
  int batched = 0;
  for (const Case& c : cases) {
    BlurSpec spec;
    spec.sigma = {3.0, 2.5, 0.0};
    spec.algorithm = c.algorithm;
    if (c.iir_variant) set_parameter(spec, "iir_variant", c.iir_variant);
    const auto planned = [&] {
      Plan plan = make_plan(spec, src.view, device_);
      if (c.variant) c.variant->apply(plan, vk::shape_on(*ctx, {w, h, 1}, C, ElementType::f32, ElementType::f32));
      return plan;
    };
    const Plan big = planned();
    ctx->set_piece_limit(static_cast<std::uint64_t>(w * h * C) * 4);
    Plan small;
    auto a = test::make_buffer(ElementType::f32, w, h, 1, C), b = test::make_buffer(ElementType::f32, w, h, 1, C);
    bool refused = false;
    try {
      small = planned();
      blur(src.view, a.view, small, device_);
      try {
        blur(src.view, b.view, big, device_);
      } catch (const Unsupported& e) {
        refused = std::string(e.what()).find("plan for this device") != std::string::npos;
        if (!refused) throw;
      }
    } catch (...) {
      ctx->set_piece_limit(0);
      throw;
    }
    ctx->set_piece_limit(0);
    const std::string what = std::string(to_string(c.algorithm)) + (c.variant ? " " + std::string(c.variant->name) : "") +
                             (c.iir_variant ? std::string(" ") + c.iir_variant : "") + "\n" + describe(small);
    bool fewer = false;
    for (std::size_t ax = 0; ax < 2; ++ax) {
      ASSERT_EQ(small.schedule.gpu[ax].shader, big.schedule.gpu[ax].shader) << what;
      EXPECT_GE(small.schedule.gpu[ax].batch, 1) << what;
      EXPECT_LE(small.schedule.gpu[ax].batch, big.schedule.gpu[ax].batch) << what;
      fewer = fewer || small.schedule.gpu[ax].batch < big.schedule.gpu[ax].batch;
    }
    EXPECT_EQ(refused, fewer) << what;
    batched += fewer;
    blur(src.view, b.view, big, device_);
    EXPECT_EQ(a.bytes, b.bytes) << what << ": batches changed the bits";
  }
  EXPECT_GE(batched, 3) << "running sums, prefix sums and iir keep a line's scratch: batched on the small device";
}

}  // namespace
}  // namespace fastblur
