// The Vulkan backend on the seed grid of DESIGN.md (kernel sizes 7, 35, 127 and sigma 20, 50 at
// 720p to 4K in RGBA8 / RGBA16F / RGBA32F / R32F; 256^3 and 512^3 float volumes at sigma 1, 4, 16)
// for the exact fir and the fast algorithms. Each case's time is the device's own (timestamp
// queries around the passes, conversions included, transfers not): Google Benchmark's manual
// time. End to end (host packing, transfers both ways, the blur) is reported beside it, and the
// device's copy bandwidth is measured in the same run (a buffer-to-buffer copy), so each case's
// GB/s (one read and one write of the image in its own type) is also a fraction of that floor.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "fastblur/fastblur.hpp"
#include "device_access.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/job.hpp"

namespace {

struct Format {
  const char* name;
  fastblur::ElementType type;
  int channels;
};
const Format kFormats[] = {{"RGBA8", fastblur::ElementType::u8, 4},
                           {"RGBA16F", fastblur::ElementType::f16, 4},
                           {"RGBA32F", fastblur::ElementType::f32, 4},
                           {"R32F", fastblur::ElementType::f32, 1}};
struct Shape {
  std::int64_t w, h, d;
};
const Shape kSizes[] = {{1280, 720, 1}, {1920, 1080, 1}, {2560, 1600, 1}, {3840, 2160, 1}};
struct Kernel {
  std::string name;
  double sigma;
};
const Kernel kKernels[] = {{"k7", 1.0}, {"k35", 34.0 / 6}, {"k127", 21.0}, {"s20", 20.0}, {"s50", 50.0}};

fastblur::Device& device() {
  static fastblur::Device d = fastblur::Device::vulkan();
  return d;
}

std::vector<std::byte> random_bytes(std::size_t n, fastblur::ElementType type) {
  std::vector<std::byte> b(n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const std::size_t es = fastblur::element_size(type);
  for (std::size_t i = 0; i + es <= n; i += es) {
    const double v = u(rng) * (type == fastblur::ElementType::u8 ? 255.0 : 1.0);
    std::byte tmp[8];
    fastblur::View one = fastblur::View::packed(tmp, type, 1, 1);
    (void)one;
    switch (type) {
      case fastblur::ElementType::u8: b[i] = static_cast<std::byte>(static_cast<int>(v)); break;
      default: {  // float data: through the library's own conversion (f16 included)
        float f = static_cast<float>(v);
        fastblur::View from = fastblur::View::packed(&f, fastblur::ElementType::f32, 1, 1);
        fastblur::View to = fastblur::View::packed(b.data() + i, type, 1, 1);
        fastblur::blur(from, to, fastblur::BlurSpec{});
      }
    }
  }
  return b;
}

struct Result {
  double gpu_ms = 0, e2e_ms = 0, bytes = 0;
  int pieces = 0;
};
std::map<std::string, Result>& results() {
  static std::map<std::string, Result> r;
  return r;
}

void bench_case(benchmark::State& st, std::string id, Format f, Shape s, double sigma, fastblur::Algorithm a,
                fastblur::BoxSchedule schedule) {
  const std::size_t bytes = static_cast<std::size_t>(s.w * s.h * s.d * f.channels) * fastblur::element_size(f.type);
  std::vector<std::byte> src = random_bytes(bytes, f.type), dst(bytes);
  const fastblur::View in = fastblur::View::packed(src.data(), f.type, s.w, s.h, s.d, f.channels);
  const fastblur::View out = fastblur::View::packed(dst.data(), f.type, s.w, s.h, s.d, f.channels);
  fastblur::BlurSpec spec;
  spec.sigma = {sigma, sigma, s.d > 1 ? sigma : 0.0};
  spec.algorithm = a;
  fastblur::vk::Timing t;
  fastblur::Plan plan;
  try {
    plan = fastblur::make_plan(spec, in, device());
    if (schedule != fastblur::BoxSchedule::automatic) plan.schedule.box = {schedule, schedule, schedule};
    fastblur::blur(in, out, plan, device());  // warm-up: pipelines, first allocations
  } catch (const fastblur::Error& e) {
    st.SkipWithError(e.what());
    return;
  }
  std::vector<double> gpu, e2e;
  for (auto _ : st) {
    fastblur::vk::gpu_blur(fastblur::DeviceAccess::context(device()), in, out, plan, &t);
    st.SetIterationTime(t.gpu_blur_ms / 1e3);
    gpu.push_back(t.gpu_blur_ms);
    e2e.push_back(t.total_ms);
  }
  std::sort(gpu.begin(), gpu.end());
  std::sort(e2e.begin(), e2e.end());
  Result& r = results()[id];
  r.gpu_ms = gpu[gpu.size() / 2];
  r.e2e_ms = e2e[e2e.size() / 2];
  r.bytes = 2.0 * static_cast<double>(bytes);
  r.pieces = t.pieces;
  st.counters["GB/s"] = r.bytes / r.gpu_ms / 1e6;
  st.counters["e2e_ms"] = r.e2e_ms;
  st.counters["pieces"] = r.pieces;
}

// The device's copy bandwidth (read + write) on a buffer as large as one piece allows, up to 256 MiB.
double copy_bandwidth_gbs() {
  const auto ctx = fastblur::DeviceAccess::context(device());
  const std::uint64_t bytes = std::min<std::uint64_t>(256ull << 20, ctx->piece_limit() / 2 * 2);
  fastblur::vk::Buffer a(ctx, bytes, fastblur::vk::Buffer::Kind::device), b(ctx, bytes, fastblur::vk::Buffer::Kind::device);
  double best = 0.0;
  for (int i = 0; i < 5; ++i) {
    fastblur::vk::Job job(ctx);
    job.timestamp("start");
    job.copy(a.handle(), b.handle(), bytes);
    job.timestamp("end");
    job.run();
    const auto t = job.timestamps();
    if (t.size() == 2 && t[1].second > 0) best = std::max(best, 2.0 * static_cast<double>(bytes) / t[1].second / 1e6);
  }
  return best;
}

void print_table(double copy_gbs) {
  std::printf("\ndevice: %s; copy bandwidth (read + write, vkCmdCopyBuffer): %.1f GB/s\n",
              device().description().c_str(), copy_gbs);
  std::printf("%-44s %10s %10s %8s %9s %7s\n", "case", "gpu ms", "e2e ms", "GB/s", "of copy", "pieces");
  for (const auto& [id, r] : results()) {
    const double gbs = r.bytes / r.gpu_ms / 1e6;
    std::printf("%-44s %10.3f %10.2f %8.1f %8.1f%% %7d\n", id.c_str(), r.gpu_ms, r.e2e_ms, gbs,
                copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0, r.pieces);
  }
}

using Schedules = std::vector<std::pair<fastblur::BoxSchedule, std::string>>;
const Schedules kBoxSchedules{{fastblur::BoxSchedule::automatic, ""},
                              {fastblur::BoxSchedule::prefix_sums, "-prefix-sums"},
                              {fastblur::BoxSchedule::running_sums, "-running-sums"}};
const Schedules kOneSchedule{{fastblur::BoxSchedule::automatic, ""}};

}  // namespace

int main(int argc, char** argv) {
  using fastblur::Algorithm;
  const Algorithm image_algorithms[] = {Algorithm::fir, Algorithm::fir_incremental, Algorithm::fir_linear, Algorithm::box,
                                        Algorithm::iir, Algorithm::kawase, Algorithm::dual_kawase, Algorithm::downsample,
                                        Algorithm::mip_poisson};
  for (const Format& f : kFormats)
    for (const Shape& s : kSizes)
      for (const Kernel& k : kKernels)
        for (Algorithm a : image_algorithms) {
          if ((a == Algorithm::dual_kawase && k.sigma < 1.0) || (a == Algorithm::downsample && k.sigma <= 1.0)) continue;
          // box in both seed schedules as well as the automatic mix (prefix sums along x).
          for (const auto& [schedule, suffix] : a == Algorithm::box ? kBoxSchedules : kOneSchedule) {
            const std::string id = std::string(fastblur::to_string(a)) + suffix + "/" + f.name + "/" + std::to_string(s.w) +
                                   "x" + std::to_string(s.h) + "/" + k.name;
            benchmark::RegisterBenchmark(id.c_str(), bench_case, id, f, s, k.sigma, a, schedule)
                ->Unit(benchmark::kMillisecond)->UseManualTime();
          }
        }
  for (std::int64_t n : {256, 512})
    for (double sigma : {1.0, 4.0, 16.0})
      for (Algorithm a : {Algorithm::fir, Algorithm::box, Algorithm::iir})
        for (const auto& [schedule, suffix] : a == Algorithm::box ? kBoxSchedules : kOneSchedule) {
          const std::string id = std::string(fastblur::to_string(a)) + suffix + "/R32F/" + std::to_string(n) + "^3/s" +
                                 std::to_string(static_cast<int>(sigma));
          benchmark::RegisterBenchmark(id.c_str(), bench_case, id, kFormats[3], Shape{n, n, n}, sigma, a, schedule)
              ->Unit(benchmark::kMillisecond)->UseManualTime();
        }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    std::printf("device: %s\n", device().description().c_str());
  } catch (const fastblur::Error& e) {
    std::fprintf(stderr, "fastblur_gpu_bench: no Vulkan device: %s\n", e.what());
    return 2;
  }
  const double copy = copy_bandwidth_gbs();
  benchmark::RunSpecifiedBenchmarks();
  print_table(copy);
  benchmark::Shutdown();
}
