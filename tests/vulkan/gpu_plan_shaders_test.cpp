// The plan is the only record of a GPU variant (issue 48): for every algorithm the Vulkan backend
// runs (the registry's), in each named variant, 8-bit and float images of 1 to 4 channels and float
// volumes, every pipeline its recorder asks the context for is a shader the plan names
// (algo::planned_shaders: GpuPass::shader, box's schedules, downsample's design) or the padding
// every image-based pass starts from - and every shader the plan names runs.
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
  };
  std::vector<Case> cases;
  for (const algo::Descriptor* d : algo::registry()) {
    if (d->id() == Algorithm::correlate) continue;  // fir's recorder with the caller's weights
    std::vector<const algo::GpuVariant*> variants;
    for (const algo::GpuVariant& v : algo::gpu_variants())
      if (v.algorithm == d->id()) variants.push_back(&v);
    if (variants.empty()) variants.push_back(nullptr);
    for (const algo::GpuVariant* v : variants) {
      if (d->info().runs_on(Backend::vulkan, 2))
        for (int channels : {1, 2, 3, 4})  // 8-bit and float images, each channel count's variant
          cases.push_back({d->id(), channels % 2 ? ElementType::u8 : ElementType::f32, channels, {67, 29, 1}, v});
      if (d->info().runs_on(Backend::vulkan, 3)) cases.push_back({d->id(), ElementType::f32, 2, {40, 23, 11}, v});
    }
  }
  ASSERT_GE(cases.size(), 40u);
  std::vector<std::string> asked;
  for (const Case& c : cases) {
    auto src = test::make_buffer(c.type, c.extent[0], c.extent[1], c.extent[2], c.channels);
    BlurSpec spec;
    spec.sigma = {4.0, 4.0, c.extent[2] > 1 ? 2.0 : 0.0};
    spec.algorithm = c.algorithm;
    Plan plan = make_plan(spec, src.view, device_);
    if (c.variant) c.variant->apply(plan, vk::shape_on(*ctx, c.extent, c.channels, c.type, c.type));
    const std::vector<std::string> named = algo::planned_shaders(plan);
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

}  // namespace
}  // namespace fastblur
