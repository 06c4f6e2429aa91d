// The Vulkan backend on the seed grid of docs/DESIGN.md (kernel sizes 7, 35, 127 and sigma 20, 50 at
// 720p to 4K in RGBA8 / RGBA16F / RGBA32F / R32F; 256^3 and 512^3 float volumes at sigma 1, 4, 16)
// for the exact fir and the fast algorithms. Each case's time is the device's own (timestamp
// queries around the passes, conversions included, transfers not): Google Benchmark's manual
// time. End to end (host packing, transfers both ways, the blur) is reported beside it, and the
// device's copy bandwidth is measured in the same run (a buffer-to-buffer copy), so each case's
// GB/s (one read and one write of the image in its own type) is also a fraction of that floor.
// Beside them: the host's share of a call (packing, and the rest: recording, submission, waking),
// the Vulkan allocations, objects and pipelines the timed calls created (the backend's counters:
// 0 once pooled), and each kernel's global-memory traffic per pixel, from which its bound on any
// GPU follows from that GPU's bandwidth.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fastblur/fastblur.hpp"
#include "device_access.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/job.hpp"
#include "vulkan/work.hpp"
#include "algorithms/box.hpp"

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

// Random data of `type`: drawn as float32 once, then converted by one blur call with no sigma (the
// library's own rounding, f16 included), not one call per element.
std::vector<std::byte> random_bytes(std::size_t n, fastblur::ElementType type) {
  const std::size_t count = n / fastblur::element_size(type);
  std::vector<float> f(count);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float scale = type == fastblur::ElementType::u8 ? 255.0f : 1.0f;
  for (float& v : f) v = u(rng) * scale;
  std::vector<std::byte> b(n);
  const auto c = static_cast<std::int64_t>(count);
  fastblur::blur(fastblur::View::packed(f.data(), fastblur::ElementType::f32, c, 1),
                 fastblur::View::packed(b.data(), type, c, 1), fastblur::BlurSpec{});
  return b;
}

// Global-memory traffic of one blur per pixel, from the shaders as written: the wire copies in and
// out, the conversions, and each axis's passes. Per channel value: fir along x reads its tile with
// the 2R halo once per workgroup of T outputs, 4 (1 + 2R/T) bytes, and writes 4; fir along y and z
// (fir_across.comp) reads 4 and writes 4, its threads' 2R + 1 rows being their neighbours' too,
// served by the cache (assumed to hold 2R + 1 rows); iir reads the line twice (both directions),
// writes and reads its float scratch (8 for float64) and writes 4; box's running sums
// (box_chunk.comp) extend the line into scratch (read 4, write 4), each box reads its chunk and the
// chunk's fresh window, 4 (1 + (2r + 1) / chunk), and writes 4, and the centre goes back (read 4,
// write 4). Empty: not modelled (texture algorithms, prefix sums).
struct Traffic {
  int passes = 0;
  double bytes_per_pixel = 0.0;
};
std::optional<Traffic> traffic(const fastblur::Plan& plan, const Format& f, bool volume) {
  using fastblur::Algorithm;
  const double C = f.channels, es = static_cast<double>(fastblur::element_size(f.type));
  Traffic t;
  t.bytes_per_pixel = C * (2 * es + 2 * es);  // upload copy (read + write), download copy
  if (f.type != fastblur::ElementType::f32) t.bytes_per_pixel += C * (es + 4) + C * (4 + 2 * es);  // conversions (pack keeps neighbours)
  for (int a = 0; a < (volume ? 3 : 2); ++a) {
    const auto& ax = plan.axes[static_cast<std::size_t>(a)];
    if (!(ax.sigma > 0)) continue;
    switch (plan.algorithm) {
      case Algorithm::fir:
      case Algorithm::fir_incremental: {
        const double tile = 256.0;  // gpu_fir.cpp's tile where the 2R halo fits shared memory
        t.bytes_per_pixel += C * (a == 0 ? 4 * (1 + 2 * ax.radius / tile) + 4 : 8.0);
        t.passes += 1;
        break;
      }
      case Algorithm::iir: {
        const double real = plan.schedule.gpu_float64 ? 8 : 4;
        t.bytes_per_pixel += C * (8 + 2 * real + 4);
        t.passes += 1;
        break;
      }
      case Algorithm::box: {
        if (plan.schedule.box[static_cast<std::size_t>(a)] == fastblur::BoxSchedule::prefix_sums) return std::nullopt;
        const auto& r = fastblur::algo::resolved_as<fastblur::algo::BoxResolved>(plan);
        double per_value = 8 + 8;  // into the extended lanes and back
        for (const auto& q : r.passes[static_cast<std::size_t>(a)])
          per_value += 4 * (1 + (2.0 * q.radius + 1) / static_cast<double>(fastblur::vk::box_chunk_length(q.radius))) + 4;
        t.bytes_per_pixel += C * per_value;
        t.passes += static_cast<int>(r.passes[static_cast<std::size_t>(a)].size()) + 2;
        break;
      }
      default: return std::nullopt;
    }
  }
  return t;
}

// The blur as a DeviceImage chain runs it: the image already on the device in its own type (one
// buffer copy from the host, outside the timing), then `reps` blurs recorded back to back in one
// command buffer, each timed between two timestamps (valid bits masked), the conversion from and
// to the element type included; the median. No host work, submission or fence wait in the figure.
// Empty where the image needs more than one piece.
std::optional<double> back_to_back_ms(const fastblur::View& in, const fastblur::Plan& plan, int reps) {
  namespace vk = fastblur::vk;
  const auto ctx = fastblur::DeviceAccess::context(device());
  vk::Work a;
  a.extent = in.extent;
  a.channels = in.channels;
  if (static_cast<double>(a.bytes()) > static_cast<double>(ctx->piece_limit()) || !ctx->has_timestamps()) return std::nullopt;
  const std::uint64_t count = static_cast<std::uint64_t>(a.pixels() * a.channels);
  const fastblur::ElementType type = vk::wire_type(in.type);
  const std::uint64_t bytes = vk::wire_bytes(count, type);
  vk::Job job(ctx);
  vk::Buffer& up = job.buffer(bytes, vk::Buffer::Kind::upload);
  std::memcpy(up.data(), in.data, bytes);  // packed, and f64 is not benchmarked
  up.flush();
  vk::Buffer& words = job.buffer(bytes, vk::Buffer::Kind::device);
  vk::Buffer& out_words = job.buffer(bytes, vk::Buffer::Kind::device);
  job.copy(up.handle(), words.handle(), bytes);
  const bool f32 = type == fastblur::ElementType::f32;
  a.buffer = f32 ? words.handle() : job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
  vk::Work b = a;
  b.buffer = f32 ? out_words.handle() : job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
  job.timestamp("start");
  for (int r = 0; r < reps; ++r) {
    if (!f32) vk::record_convert(job, words.handle(), 0, a.buffer, count, 0, type, false);
    vk::record_algorithm(job, a, b, plan);
    if (!f32) vk::record_convert(job, out_words.handle(), 0, b.buffer, count, 0, type, true);
    job.timestamp("blur");
  }
  job.run();
  const auto t = job.timestamps();
  if (t.size() != static_cast<std::size_t>(reps) + 1) return std::nullopt;
  std::vector<double> each;
  for (std::size_t i = 1; i < t.size(); ++i) each.push_back(t[i].second - t[i - 1].second);
  std::sort(each.begin(), each.end());
  return each[each.size() / 2];
}

struct Result {
  std::optional<Traffic> traffic;
  std::optional<double> device_ms;  // back to back on the device (back_to_back_ms)
  double gpu_ms = 0, transfer_ms = 0, e2e_ms = 0, pack_ms = 0, overhead_ms = 0, bytes = 0;
  int pieces = 0;
  std::uint64_t allocations = 0, objects = 0, pipelines = 0;  // during the timed calls (after warm-up)
  double pixels = 0;
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
  std::vector<double> gpu, e2e, transfer, pack, overhead;
  const auto ctx = fastblur::DeviceAccess::context(device());
  const auto before = ctx->counters();
  for (auto _ : st) {
    fastblur::vk::gpu_blur(ctx, in, out, plan, &t);
    st.SetIterationTime(t.gpu_blur_ms / 1e3);
    gpu.push_back(t.gpu_blur_ms);
    e2e.push_back(t.total_ms);
    transfer.push_back(t.gpu_transfer_ms);
    pack.push_back(t.host_pack_ms);
    overhead.push_back(t.host_overhead_ms);
  }
  const auto after = ctx->counters();
  const auto median = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  Result& r = results()[id];
  r.gpu_ms = median(gpu);
  r.e2e_ms = median(e2e);
  r.transfer_ms = median(transfer);
  r.pack_ms = median(pack);
  r.overhead_ms = median(overhead);
  r.allocations = after.memory_allocations - before.memory_allocations;
  r.objects = after.objects_created - before.objects_created;
  r.pipelines = after.pipelines_created - before.pipelines_created;
  r.bytes = 2.0 * static_cast<double>(bytes);
  r.traffic = traffic(plan, f, s.d > 1);
  r.device_ms = back_to_back_ms(in, plan, 7);
  r.pixels = static_cast<double>(s.w * s.h * s.d);
  r.pieces = t.pieces;
  st.counters["GB/s"] = r.bytes / r.gpu_ms / 1e6;
  if (r.device_ms) st.counters["dev_ms"] = *r.device_ms;
  st.counters["e2e_ms"] = r.e2e_ms;
  st.counters["host_ms"] = r.pack_ms + r.overhead_ms;
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
  std::printf("dev ms: median of 7 blurs recorded back to back on data already on the device, each between two timestamps,\n"
              "conversions from and to the element type included (a DeviceImage chain's cost); dev GB/s: one read + one write\n"
              "of the image in its own type over dev ms.\n");
  std::printf("gpu ms: the device's passes with the type conversions (timestamps); xfer: its copies between host-visible\n"
              "and device memory; pack: host rows into the upload buffer and back; other: the rest of the call on the host\n"
              "(recording, descriptors, submission, fence wake); allocs/objs/pipes: Vulkan memory allocations, objects and\n"
              "pipelines created during the timed calls (0 after warm-up: pooled). GB/s: one read + one write of the image.\n");
  std::printf("%-44s %8s %8s %9s %8s %9s %8s %8s %8s %8s %6s %6s/%s/%s\n", "case", "dev ms", "dev GB/s", "gpu ms", "xfer ms",
              "e2e ms", "pack ms", "other ms", "GB/s", "of copy", "pieces", "allocs", "objs", "pipes");
  for (const auto& [id, r] : results()) {
    const double gbs = r.bytes / r.gpu_ms / 1e6;
    char dev[32] = "-", dev_gbs[32] = "-";
    if (r.device_ms) {
      std::snprintf(dev, sizeof dev, "%.3f", *r.device_ms);
      std::snprintf(dev_gbs, sizeof dev_gbs, "%.1f", r.bytes / *r.device_ms / 1e6);
    }
    std::printf("%-44s %8s %8s %9.3f %8.2f %9.2f %8.2f %8.2f %8.2f %7.1f%% %6d %6llu/%llu/%llu\n", id.c_str(), dev, dev_gbs, r.gpu_ms,
                r.transfer_ms, r.e2e_ms, r.pack_ms, r.overhead_ms, gbs, copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0,
                r.pieces, static_cast<unsigned long long>(r.allocations), static_cast<unsigned long long>(r.objects),
                static_cast<unsigned long long>(r.pipelines));
  }
  std::printf("\nglobal-memory traffic per pixel (model from the shaders; see traffic()): bytes moved, passes, and the\n"
              "time any GPU needs for them at its bandwidth (ms per GB/s: divide by the bandwidth in GB/s)\n");
  std::printf("%-44s %8s %7s %12s %12s\n", "case", "B/pixel", "passes", "ms at 1TB/s", "ms at copy");
  for (const auto& [id, r] : results()) {
    if (!r.traffic) continue;
    const double total = r.traffic->bytes_per_pixel * r.pixels;
    std::printf("%-44s %8.1f %7d %12.4f %12.3f\n", id.c_str(), r.traffic->bytes_per_pixel, r.traffic->passes, total / 1e9,
                copy_gbs > 0 ? total / copy_gbs / 1e6 : 0.0);
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
          // box in both seed schedules; the unsuffixed row is the plan's own choice, which is running
          // sums on every axis (src/algorithms/box.cpp's schedule), so it repeats -running-sums.
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
