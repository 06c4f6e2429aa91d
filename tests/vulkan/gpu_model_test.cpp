// The GPU benchmark's traffic model (bench/gpu_model.cpp) against the commands the recorders record:
// for every algorithm the backend runs (the registry's) in each named variant, 8-bit and float images
// and float volumes, the passes the model counts
// its bytes over are the dispatches vk::Job records for one blur - so a recorder that gains or loses
// a pass fails here until the model's bytes are revisited - and the bytes are at least one read and
// one write of the image in float per pass.
#include <gtest/gtest.h>

#include <cstring>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_variants.hpp"
#include "gpu_model.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/job.hpp"
#include "vulkan/vulkan_test_support.hpp"
#include "vulkan/work.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, TheBenchmarksModelCountsTheRecordedPasses) {
  const std::shared_ptr<vk::Context> ctx = DeviceAccess::context(device_);
  struct Case {
    Algorithm algorithm;
    ElementType type;
    int channels;
    std::array<std::int64_t, 3> extent;
    double sigma;
    const algo::GpuVariant* variant;  // null: the plan as made
  };
  // Every algorithm the Vulkan backend runs in each of its named variants (correlate's caller's
  // weights are modelled by fir's cases).
  std::vector<Case> cases;
  for (const auto& [d, v] : test::vulkan_algorithm_variants()) {
    if (d->info().runs_on(Backend::vulkan, 2))
      for (double sigma : {1.5, 6.0})
        for (const auto& [type, channels] :
             {std::pair{ElementType::u8, 4}, std::pair{ElementType::f32, 4}, std::pair{ElementType::f32, 1}})
          cases.push_back({d->id(), type, channels, {197, 61, 1}, sigma, v});
    if (d->info().runs_on(Backend::vulkan, 3)) cases.push_back({d->id(), ElementType::f32, 1, {150, 23, 19}, 2.0, v});
  }
  ASSERT_GE(cases.size(), 60u);
  int checked = 0;
  for (const Case& c : cases) {
    auto src = test::make_buffer(c.type, c.extent[0], c.extent[1], c.extent[2], c.channels);
    BlurSpec spec;
    spec.sigma = {c.sigma, c.sigma, c.extent[2] > 1 ? c.sigma : 0.0};
    spec.algorithm = c.algorithm;
    Plan plan = make_plan(spec, src.view, device_);
    if (c.variant) c.variant->apply(plan, vk::shape_on(*ctx, c.extent, c.channels, c.type, c.type));
    const auto bytes = bench::model_bytes(plan, c.type, c.channels, c.extent);
    const auto passes = bench::model_dispatches(plan, c.type, c.channels, c.extent);
    const std::string what = std::string(to_string(c.algorithm)) + (c.variant ? "-" + std::string(c.variant->name) : "") + " " +
                             std::string(to_string(c.type)) + " C" + std::to_string(c.channels) +
                             " sigma " + std::to_string(c.sigma) + (c.extent[2] > 1 ? " volume" : "");
    ASSERT_TRUE(bytes && passes) << what << ": modelled";
    // One blur as the benchmark records it: the conversions around the algorithm's passes.
    vk::Work a;
    a.extent = c.extent;
    a.channels = c.channels;
    const std::uint64_t count = static_cast<std::uint64_t>(a.pixels() * a.channels);
    const ElementType wire = vk::wire_type(c.type);
    vk::Job job(ctx);
    vk::Buffer& words = job.buffer(vk::wire_bytes(count, wire), vk::Buffer::Kind::device);
    a.buffer = job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    vk::Work b = a;
    b.buffer = job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    const vk::Job::Recorded before = job.recorded();
    const bool f32 = wire == ElementType::f32;
    if (!f32) vk::record_convert(job, words.handle(), 0, a.buffer, count, 0, wire, false);
    vk::record_algorithm(job, a, b, plan);
    if (!f32) vk::record_convert(job, words.handle(), 0, b.buffer, count, 0, wire, true);
    const std::uint64_t recorded = job.recorded().dispatches - before.dispatches;
    job.run();
    EXPECT_EQ(recorded, *passes) << what;
    EXPECT_GE(*bytes, 2.0 * 4.0 * static_cast<double>(count) * static_cast<double>(*passes - (f32 ? 0 : 2)) * 0.5) << what;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(cases.size()));
}

}  // namespace
}  // namespace fastblur
