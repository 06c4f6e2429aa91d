// No per-call cost: after warm-up a blur on the same device allocates no memory, creates no Vulkan
// object and compiles no pipeline (the backend's own counters), a new sigma reuses fir's pipelines,
// jobs on several threads share the device, and compiled pipelines persist in the user cache dir.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include <fstream>
#include <unistd.h>

#include "vulkan/context.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, TheHundredthBlurAllocatesNothingAndCompilesNothing) {
  auto rng = test::rng_for_test();
  // FASTBLUR_TEST_SCALE=small (sanitizers): 320x320, still past core::kSmallWork (threaded packing).
  const int n = test::scaled(512, 320);
  auto src = test::make_buffer(ElementType::u8, n, n, 1, 4), dst = test::make_buffer(ElementType::u8, n, n, 1, 4);
  test::fill_random(src.view, rng);
  // A small sigma keeps the hundred blurs short on a software device (fir: 9 taps an axis).
  const BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  vk::Context& ctx = test::context_of(device_);
  for (int i = 0; i < 99; ++i) blur(src.view, dst.view, spec, device_);
  std::printf("[ plan     ] %s\n", describe(make_plan(spec, src.view, ElementType::u8, device_)).c_str());
  const auto before = ctx.counters();
  blur(src.view, dst.view, spec, device_);  // the 100th
  const auto after = ctx.counters();
  vk::Timing t;
  test::gpu_blur_timed(device_, src.view, dst.view, spec, &t);
  std::printf("[ measured ] one %dx%d RGBA8 blur: %.2f ms in all, device %.2f ms (blur %.2f, transfers %.2f), host packing "
              "%.2f ms, other host work %.2f ms\n",
              n, n, t.total_ms, t.gpu_blur_ms + t.gpu_transfer_ms, t.gpu_blur_ms, t.gpu_transfer_ms, t.host_pack_ms,
              t.host_overhead_ms);
  std::printf("[ measured ] after 100 blurs of %dx%d RGBA8: %llu memory allocations, %llu objects, %llu pipelines in all\n",
              n, n, static_cast<unsigned long long>(after.memory_allocations),
              static_cast<unsigned long long>(after.objects_created),
              static_cast<unsigned long long>(after.pipelines_created));
  EXPECT_EQ(after.memory_allocations, before.memory_allocations);
  EXPECT_EQ(after.objects_created, before.objects_created);
  EXPECT_EQ(after.pipelines_created, before.pipelines_created);
  // The result is still the blur (the pooled buffers hold the last call's data, not this one's).
  auto want = test::make_buffer(ElementType::u8, n, n, 1, 4);
  blur(src.view, want.view, spec, device_);
  EXPECT_EQ(dst.bytes, want.bytes);
}

TEST(VulkanPool, TheIdleBudgetFollowsTheDevicesMemory) {
  constexpr std::uint64_t GiB = 1ull << 30;
  // An 80 GB GPU keeps 10 GiB idle: a 512^3 float32 call's 2.5 GiB stays pooled between calls (it
  // did not under the old fixed 1 GiB, and every such call allocated and pinned again).
  EXPECT_EQ(vk::idle_budget_for("discrete", 80 * GiB), 10 * GiB);
  EXPECT_GE(vk::idle_budget_for("discrete", 80 * GiB), 5 * GiB / 2);
  EXPECT_EQ(vk::idle_budget_for("integrated", 4 * GiB), GiB);     // never below 1 GiB
  EXPECT_EQ(vk::idle_budget_for("discrete", 512 * GiB), 16 * GiB);  // nor above 16 GiB
  EXPECT_EQ(vk::idle_budget_for("cpu", 64 * GiB), GiB);           // lavapipe: the process's own memory
}

TEST_F(VulkanTest, AnAnimatedSigmaReusesTheFirPipelines) {
  // fir's radius is a push constant; its shared tile is sized per power-of-two bucket of radii.
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f32, 64, 48, 1, 4), dst = test::make_buffer(ElementType::f64, 64, 48, 1, 4);
  test::fill_random(src.view, rng);
  vk::Context& ctx = test::context_of(device_);
  BlurSpec spec = BlurSpec::isotropic_2d(2.6);  // radius 10: the bucket of 9..16
  spec.algorithm = Algorithm::fir;
  blur(src.view, dst.view, spec, device_);
  const auto before = ctx.counters();
  for (double sigma = 2.3; sigma < 3.9; sigma += 0.2) {  // radii 9 to 16
    spec.sigma = {sigma, sigma, 0.0};
    EXPECT_LE(test::gpu_cpu_difference(device_, spec, ElementType::f32, 64, 48, 1, 4, rng, Algorithm::fir), 4e-6) << sigma;
  }
  EXPECT_EQ(ctx.counters().pipelines_created, before.pipelines_created);
}

TEST_F(VulkanTest, BlursFromSeveralThreadsShareTheDevice) {
  // Each job records into a command pool of its own and waits on its own fence without holding
  // the context's locks; the validation layer's thread checks see every call.
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f32, 96, 64, 1, 2);
  test::fill_random(src.view, rng);
  const BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  auto want = test::make_buffer(ElementType::f32, 96, 64, 1, 2);
  blur(src.view, want.view, spec, device_);
  std::vector<test::Buffer> outs;
  for (int t = 0; t < 4; ++t) outs.push_back(test::make_buffer(ElementType::f32, 96, 64, 1, 2));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) blur(src.view, outs[static_cast<std::size_t>(t)].view, spec, device_);
    });
  for (auto& th : threads) th.join();
  for (const auto& o : outs) EXPECT_EQ(o.bytes, want.bytes);
}

TEST_F(VulkanTest, PipelinesPersistInTheUserCacheDirectory) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fastblur-pipeline-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  std::uintmax_t size = 0;
  {
    auto ctx = std::make_shared<vk::Context>(0);
    auto src = test::make_buffer(ElementType::f32, 16, 16, 1, 1);
    vk::gpu_blur(ctx, src.view, src.view, make_plan(BlurSpec::isotropic_2d(1.0), src.view, ElementType::f32, device_), nullptr);
    EXPECT_GT(ctx->counters().pipelines_created, 0u);
  }  // saved as the context goes
  const std::filesystem::path folder = dir / "fastblur";
  ASSERT_TRUE(std::filesystem::is_directory(folder));
  for (const auto& e : std::filesystem::directory_iterator(folder)) size += e.file_size();
  EXPECT_GE(size, 16u + VK_UUID_SIZE);  // at least the header the next context checks
  {
    vk::Context again(0);  // reads it (a damaged or foreign file would be ignored)
  }
  std::filesystem::path junk;
  for (const auto& e : std::filesystem::directory_iterator(folder)) junk = e.path();
  { std::ofstream(junk, std::ios::binary | std::ios::trunc) << "not a pipeline cache"; }
  {
    vk::Context damaged(0);  // starts empty, no error
  }
  if (old) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fastblur
