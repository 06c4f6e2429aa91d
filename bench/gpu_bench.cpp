// The Vulkan backend on the seed grid (kernel sizes 7, 35, 127 and sigma 20, 50 on images from 720p to
// 4K in RGBA8 / RGBA16F / RGBA32F / R32F; 256^3 and 512^3 float volumes at sigma 1, 4, 16), timed so
// that the figures can be trusted on a real GPU (issue 29):
//  - the GPU is first run until its copy rate settles (its clock is steady), and each case starts
//    after a short burst of copies, so no case starts at the idle clock;
//  - the SM clock is sampled from nvidia-smi (read-only) while each case runs: first, last, lowest;
//  - each case's time is device time: blurs recorded back to back on data already on the device,
//    each between two timestamps (conversions from and to the element type included), for at least
//    FB_CASE_S seconds (default 0.2) of device time; the median;
//  - the floors are measured on the device in the same run: a copy's bandwidth (vkCmdCopyBuffer and
//    a compute shader's copy; the faster counts) and an empty dispatch with its barrier;
//  - each case prints its model - bytes read and written (gpu_model.cpp), dispatches and barriers
//    (counted from the recorded commands) - its floor, bytes / bandwidth + dispatches x empty
//    dispatch, and measured / floor.
// End to end (host packing, transfers both ways, the blur) and the Vulkan objects the timed calls
// created (0 once pooled) are reported beside it. Every case is written as one JSON line to
// $FB_JSONL as it finishes (so a run cut off keeps what it measured); names listed in the file
// $FB_DONE are not run (a run resumed). Cases are registered in priority order: issue 29's targets
// first.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "fastblur/fastblur.hpp"
#include "algorithms/gpu_variants.hpp"
#include "device_access.hpp"
#include "gpu_floor.hpp"
#include "gpu_model.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/job.hpp"
#include "vulkan/work.hpp"

namespace {

namespace fb = fastblur;

struct Format {
  const char* name;
  fb::ElementType type;
  int channels;
};
const Format kRGBA8{"RGBA8", fb::ElementType::u8, 4}, kRGBA16F{"RGBA16F", fb::ElementType::f16, 4},
    kRGBA32F{"RGBA32F", fb::ElementType::f32, 4}, kR32F{"R32F", fb::ElementType::f32, 1};
struct Shape {
  std::int64_t w, h, d;
  std::string name() const {
    return d > 1 ? std::to_string(w) + "^3" : std::to_string(w) + "x" + std::to_string(h);
  }
};
struct Kernel {
  std::string name;
  double sigma;
};
const Kernel kK7{"k7", 1.0}, kK35{"k35", 34.0 / 6}, kK127{"k127", 21.0}, kS20{"s20", 20.0}, kS50{"s50", 50.0};

double env_double(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : fallback;
}

fb::Device& device() {
  static fb::Device d = fb::Device::vulkan();
  return d;
}

fb::bench::Floors& floors() {
  static fb::bench::Floors f;
  return f;
}

// Random data of the format and shape, made once per run: uniform in [0, 1) (0 to 255 for 8-bit)
// from a counter-based hash on every core, then converted by one blur call with no sigma (the
// library's own rounding, f16 included).
const std::vector<std::byte>& random_input(const Format& f, const Shape& s) {
  static std::map<std::string, std::vector<std::byte>> cache;
  const std::string key = std::string(f.name) + "/" + s.name();
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() > 2) cache.clear();  // the grid is in format-major order: keep the memory bounded
  const std::size_t count = static_cast<std::size_t>(s.w * s.h * s.d * f.channels);
  std::vector<float> v(count);
  const float scale = f.type == fb::ElementType::u8 ? 255.0f : 1.0f;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = count * t / threads; i < count * (t + 1) / threads; ++i) {
        std::uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;  // splitmix64
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        v[i] = static_cast<float>(z >> 40) / 16777216.0f * scale;
      }
    });
  for (auto& t : pool) t.join();
  std::vector<std::byte> b(count * fb::element_size(f.type));
  const auto c = static_cast<std::int64_t>(count);
  fb::blur(fb::View::packed(v.data(), fb::ElementType::f32, c, 1), fb::View::packed(b.data(), f.type, c, 1), fb::BlurSpec{});
  return cache.emplace(key, std::move(b)).first->second;
}

// Blurs recorded back to back on the device, each between two timestamps, in jobs of at most 16
// (a job holds 64 timestamps; the job keeps each blur's work images until it ends, so fewer for large
// images) until `seconds` of device time: the median, and what one blur records.
struct DeviceTime {
  double median_ms = 0;
  int blurs = 0;
  fb::vk::Job::Recorded per_blur;
};
std::optional<DeviceTime> device_time(const fb::View& in, const fb::Plan& plan, double seconds) {
  namespace vk = fb::vk;
  const auto ctx = fb::DeviceAccess::context(device());
  vk::Work a;
  a.extent = in.extent;
  a.channels = in.channels;
  if (static_cast<double>(a.bytes()) > static_cast<double>(ctx->piece_limit()) || !ctx->has_timestamps()) return std::nullopt;
  const std::uint64_t count = static_cast<std::uint64_t>(a.pixels() * a.channels);
  const fb::ElementType type = vk::wire_type(in.type);
  const std::uint64_t bytes = vk::wire_bytes(count, type);
  const bool f32 = type == fb::ElementType::f32;
  const int per_job = static_cast<int>(std::clamp<std::uint64_t>((4ull << 30) / (3 * a.bytes() + 1), 2, 16));
  std::vector<double> each;
  double total = 0;
  DeviceTime out;
  vk::Buffer up(ctx, bytes, vk::Buffer::Kind::upload), words(ctx, bytes, vk::Buffer::Kind::device),
      out_words(ctx, bytes, vk::Buffer::Kind::device);
  std::memcpy(up.data(), in.data, bytes);  // packed, and f64 is not benchmarked
  up.flush();
  for (int j = 0; j < 64 && (j == 0 || total < seconds * 1e3); ++j) {
    vk::Job job(ctx);
    if (j == 0) job.copy(up.handle(), words.handle(), bytes);
    a.buffer = f32 ? words.handle() : job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    vk::Work b = a;
    b.buffer = f32 ? out_words.handle() : job.buffer(a.bytes(), vk::Buffer::Kind::device).handle();
    job.timestamp("start");
    const vk::Job::Recorded before = job.recorded();
    for (int r = 0; r < per_job; ++r) {
      if (!f32) vk::record_convert(job, words.handle(), 0, a.buffer, count, 0, type, false);
      vk::record_algorithm(job, a, b, plan);
      if (!f32) vk::record_convert(job, out_words.handle(), 0, b.buffer, count, 0, type, true);
      job.timestamp("blur");
    }
    const vk::Job::Recorded after = job.recorded();
    out.per_blur = {(after.dispatches - before.dispatches) / per_job, (after.copies - before.copies) / per_job,
                    (after.barriers - before.barriers + per_job - 1) / per_job};
    job.run();
    const auto t = job.timestamps();
    if (t.size() != static_cast<std::size_t>(per_job) + 1) return std::nullopt;
    for (std::size_t i = 1; i < t.size(); ++i) {
      each.push_back(t[i].second - t[i - 1].second);
      total += each.back();
    }
  }
  std::sort(each.begin(), each.end());
  out.median_ms = each[each.size() / 2];
  out.blurs = static_cast<int>(each.size());
  return out;
}

struct Result {
  // What a measured profile (src/algorithms/gpu_profile.hpp) keeps of the case.
  std::string algorithm, variant, type;
  int channels = 0;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  double sigma = 0, model_cost = 0;
  std::optional<DeviceTime> dev;
  std::optional<double> model_bytes;
  double floor_ms = 0, e2e_ms = 0, pixels = 0, warm_ms = 0;
  fb::bench::ClockSampler::Readings clock;
  int pieces = 0;
  std::uint64_t allocations = 0, objects = 0, pipelines = 0;  // during the end-to-end calls (after warm-up)
};
std::map<std::string, Result>& results() {
  static std::map<std::string, Result> r;
  return r;
}
std::vector<std::string>& order() {
  static std::vector<std::string> o;
  return o;
}

std::string json_number(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

void write_json_line(const std::string& id, const Result& r) {
  const char* path = std::getenv("FB_JSONL");
  if (!path || !*path) return;
  const auto& f = floors();
  std::string s = "{\"name\":\"" + id + "\"";
  const auto add = [&](const char* k, double v) { s += std::string(",\"") + k + "\":" + json_number(v); };
  const auto text = [&](const char* k, const std::string& v) { s += std::string(",\"") + k + "\":\"" + v + "\""; };
  text("device_name", fb::DeviceAccess::context(device())->info().name);
  text("algorithm", r.algorithm);
  text("variant", r.variant);
  text("type", r.type);
  add("channels", r.channels);
  s += ",\"extent\":[" + std::to_string(r.extent[0]) + "," + std::to_string(r.extent[1]) + "," + std::to_string(r.extent[2]) + "]";
  add("sigma", r.sigma);
  add("model_cost", r.model_cost);
  if (r.dev) {
    add("dev_ms", r.dev->median_ms);
    add("blurs_timed", r.dev->blurs);
    add("dispatches", static_cast<double>(r.dev->per_blur.dispatches));
    add("copies", static_cast<double>(r.dev->per_blur.copies));
    add("barriers", static_cast<double>(r.dev->per_blur.barriers));
  }
  if (r.model_bytes) {
    add("model_bytes", *r.model_bytes);
    add("bytes_per_pixel", *r.model_bytes / r.pixels);
  }
  if (r.floor_ms > 0) {
    add("floor_ms", r.floor_ms);
    if (r.dev) add("of_floor", r.dev->median_ms / r.floor_ms);
  }
  add("e2e_ms", r.e2e_ms);
  add("warm_ms", r.warm_ms);
  add("pieces", r.pieces);
  add("allocations", static_cast<double>(r.allocations));
  add("sm_mhz_first", r.clock.first);
  add("sm_mhz_last", r.clock.last);
  add("sm_mhz_min", r.clock.min);
  add("sm_mhz_max_spec", r.clock.max_mhz);
  add("copy_GBps", f.copy_gbs);
  add("kernel_copy_GBps", f.kernel_copy_gbs);
  add("empty_dispatch_us", f.empty_dispatch_us);
  s += "}\n";
  std::ofstream(path, std::ios::app) << s << std::flush;
}

// A named variant of the plan (a lever of issue 47): how it changes the planner's schedule for the
// device's view of the shape; none: the plan as made.
using Variant = std::function<void(fb::Plan&, const fb::algo::Shape&)>;

void bench_case(benchmark::State& st, std::string id, Format f, Shape s, double sigma, fb::Algorithm a, Variant variant) {
  const std::vector<std::byte>& src = random_input(f, s);
  std::vector<std::byte> dst(src.size());
  const fb::View in = fb::View::packed(const_cast<std::byte*>(src.data()), f.type, s.w, s.h, s.d, f.channels);
  const fb::View out = fb::View::packed(dst.data(), f.type, s.w, s.h, s.d, f.channels);
  fb::BlurSpec spec;
  spec.sigma = {sigma, sigma, s.d > 1 ? sigma : 0.0};
  spec.algorithm = a;
  fb::Plan plan;
  Result r;
  const auto ctx = fb::DeviceAccess::context(device());
  try {
    plan = fb::make_plan(spec, in, device());
    if (variant) variant(plan, fb::vk::shape_on(*ctx, {s.w, s.h, s.d}, f.channels, f.type, f.type));
    r.algorithm = std::string(fb::to_string(a));
    r.variant = std::string(fb::algo::gpu_variant_of(plan));
    r.type = std::string(fb::to_string(f.type));
    r.channels = f.channels;
    r.extent = {s.w, s.h, s.d};
    r.sigma = sigma;
    {  // The model's cost (a profile of this device, if any, set aside): what a profile converts by.
      const auto profile = ctx->profile();
      ctx->set_profile(nullptr);
      r.model_cost = fb::make_plan(spec, in, device()).predicted_cost;
      ctx->set_profile(profile);
    }
    fb::blur(in, out, plan, device());  // warm-up: pipelines, first allocations
    r.warm_ms = fb::bench::keep_warm(ctx, floors(), 60, 3000);
    fb::bench::ClockSampler clock;
    for (auto _ : st) {
      r.dev = device_time(in, plan, env_double("FB_CASE_S", 0.2));
      st.SetIterationTime(r.dev ? r.dev->median_ms / 1e3 : 0.0);
    }
    r.clock = clock.stop();
    // End to end, host memory to host memory: the median of three calls.
    const auto before = ctx->counters();
    std::vector<double> e2e;
    fb::vk::Timing t;
    for (int i = 0; i < 3; ++i) {
      fb::vk::gpu_blur(ctx, in, out, plan, &t);
      e2e.push_back(t.total_ms);
    }
    const auto after = ctx->counters();
    std::sort(e2e.begin(), e2e.end());
    r.e2e_ms = e2e[1];
    r.pieces = t.pieces;
    r.allocations = after.memory_allocations - before.memory_allocations;
    r.objects = after.objects_created - before.objects_created;
    r.pipelines = after.pipelines_created - before.pipelines_created;
  } catch (const fb::Error& e) {
    st.SkipWithError(e.what());
    return;
  }
  r.pixels = static_cast<double>(s.w * s.h * s.d);
  r.model_bytes = fb::bench::model_bytes(plan, f.type, f.channels, {s.w, s.h, s.d});
  if (r.model_bytes && r.dev && floors().bandwidth_gbs() > 0)
    r.floor_ms = *r.model_bytes / floors().bandwidth_gbs() / 1e6 +
                 static_cast<double>(r.dev->per_blur.dispatches) * floors().empty_dispatch_us / 1e3;
  if (r.dev) {
    st.counters["dev_ms"] = r.dev->median_ms;
    st.counters["dispatches"] = static_cast<double>(r.dev->per_blur.dispatches);
    st.counters["barriers"] = static_cast<double>(r.dev->per_blur.barriers);
  }
  if (r.model_bytes) st.counters["B_per_px"] = *r.model_bytes / r.pixels;
  if (r.floor_ms > 0) {
    st.counters["floor_ms"] = r.floor_ms;
    if (r.dev) st.counters["of_floor"] = r.dev->median_ms / r.floor_ms;
  }
  st.counters["e2e_ms"] = r.e2e_ms;
  st.counters["sm_mhz_first"] = r.clock.first;
  st.counters["sm_mhz_last"] = r.clock.last;
  st.counters["sm_mhz_min"] = r.clock.min;
  st.counters["allocs"] = static_cast<double>(r.allocations);
  write_json_line(id, r);
  results()[id] = r;
}

void print_table() {
  const auto& f = floors();
  std::printf("\ndevice: %s\nwarm-up %.2f s (%d batches of copies until the rate settled); copy %.0f GB/s (vkCmdCopyBuffer), "
              "%.0f GB/s (compute copy), read + write; empty dispatch + barrier %.2f us\n",
              device().description().c_str(), f.warm_s, f.warm_batches, f.copy_gbs, f.kernel_copy_gbs, f.empty_dispatch_us);
  std::printf("dev ms: median of blurs back to back on the device; floor: model bytes / %.0f GB/s + dispatches x %.2f us;\n"
              "SM MHz: nvidia-smi while the case ran (first / last / lowest); e2e: host to host, median of 3\n",
              f.bandwidth_gbs(), f.empty_dispatch_us);
  std::printf("%-36s %9s %9s %7s %8s %5s %5s %16s %9s %6s %6s\n", "case", "dev ms", "floor ms", "x floor", "B/pixel", "disp",
              "barr", "SM MHz", "e2e ms", "pieces", "allocs");
  for (const std::string& id : order()) {
    const auto it = results().find(id);
    if (it == results().end()) continue;
    const Result& r = it->second;
    char dev[32] = "-", flo[32] = "-", of[32] = "-", bpp[32] = "-", disp[16] = "-", barr[16] = "-", clk[48] = "-";
    if (r.dev) {
      std::snprintf(dev, sizeof dev, "%.4f", r.dev->median_ms);
      std::snprintf(disp, sizeof disp, "%llu", static_cast<unsigned long long>(r.dev->per_blur.dispatches));
      std::snprintf(barr, sizeof barr, "%llu", static_cast<unsigned long long>(r.dev->per_blur.barriers));
    }
    if (r.floor_ms > 0) std::snprintf(flo, sizeof flo, "%.4f", r.floor_ms);
    if (r.floor_ms > 0 && r.dev) std::snprintf(of, sizeof of, "%.2f", r.dev->median_ms / r.floor_ms);
    if (r.model_bytes) std::snprintf(bpp, sizeof bpp, "%.1f", *r.model_bytes / r.pixels);
    if (r.clock.count) std::snprintf(clk, sizeof clk, "%.0f/%.0f/%.0f", r.clock.first, r.clock.last, r.clock.min);
    std::printf("%-36s %9s %9s %7s %8s %5s %5s %16s %9.2f %6d %6llu\n", id.c_str(), dev, flo, of, bpp, disp, barr, clk, r.e2e_ms,
                r.pieces, static_cast<unsigned long long>(r.allocations));
  }
}

}  // namespace

int main(int argc, char** argv) {
  using fb::Algorithm;
  std::set<std::string> done;
  if (const char* p = std::getenv("FB_DONE"); p && *p) {
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) done.insert(line);
  }
  std::set<std::string> registered;
  const auto add = [&](Algorithm a, const std::string& suffix, const Variant& variant, const Format& f, const Shape& s,
                       const Kernel& k) {
    if ((a == Algorithm::dual_kawase && k.sigma < 1.0) || (a == Algorithm::downsample && k.sigma <= 1.0)) return;
    const std::string id = std::string(fb::to_string(a)) + suffix + "/" + f.name + "/" + s.name() + "/" + k.name;
    if (done.count(id) || !registered.insert(id).second) return;
    order().push_back(id);
    benchmark::RegisterBenchmark(id.c_str(), bench_case, id, f, s, k.sigma, a, variant)
        ->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(1);
  };
  const Variant planned;  // the plan as the planner made it
  // Each algorithm's named variants (issue 47's levers, src/algorithms/gpu_variants.cpp) besides the
  // plan's own case: "-NAME" after the algorithm in the case's name. The first variant is the model's
  // choice, which the plan's own case runs where the device has no profile yet (each case's JSON
  // line names the variant it ran).
  const auto add_with_variants = [&](Algorithm a, const Format& f, const Shape& s, const Kernel& k) {
    add(a, "", planned, f, s, k);
    const auto variants = fb::algo::gpu_variants(a);
    for (std::size_t i = 1; i < variants.size(); ++i)
      add(a, "-" + std::string(variants[i].name), variants[i].apply, f, s, k);
  };
  // 1. Issue 47's targets: the seeds' algorithms and their variants on RGBA8 1080p and RGBA32F 4K at
  //    k7 / k35 / k127 / s50, exact fir on RGBA32F 1080p (bench/gpu_peers.py's CuPy cases), and the
  //    volumes (256^3 and 512^3).
  //    sliding-dct (beyond the seeds): the exact plan's series on the GPU, constant in sigma.
  const Algorithm seeds[] = {Algorithm::fir,    Algorithm::fir_linear,  Algorithm::box,        Algorithm::iir,
                             Algorithm::kawase, Algorithm::dual_kawase, Algorithm::downsample, Algorithm::sliding_dct};
  for (const auto& [f, s] : {std::pair{kRGBA8, Shape{1920, 1080, 1}}, std::pair{kRGBA32F, Shape{3840, 2160, 1}}})
    for (Algorithm a : seeds)
      for (const Kernel& k : {kK7, kK35, kK127, kS50}) add_with_variants(a, f, s, k);
  for (const Kernel& k : {kK7, kK35, kK127, kS50}) add_with_variants(Algorithm::fir, kRGBA32F, Shape{1920, 1080, 1}, k);
  for (std::int64_t n : {256, 512})
    for (Algorithm a : {Algorithm::fir, Algorithm::box, Algorithm::iir, Algorithm::downsample, Algorithm::sliding_dct})
      for (const Kernel& k : {Kernel{"s1", 1.0}, Kernel{"s4", 4.0}, Kernel{"s16", 16.0}})
        add_with_variants(a, kR32F, Shape{n, n, n}, k);
  // 2. The rest of the grid: the other algorithms, the other formats and sizes, s20.
  const Algorithm all[] = {Algorithm::fir, Algorithm::fir_incremental, Algorithm::fir_linear, Algorithm::box, Algorithm::iir,
                           Algorithm::kawase, Algorithm::dual_kawase, Algorithm::downsample, Algorithm::mip_poisson};
  for (const Format& f : {kRGBA8, kRGBA32F, kRGBA16F, kR32F})
    for (const Shape& s : {Shape{1920, 1080, 1}, Shape{3840, 2160, 1}, Shape{1280, 720, 1}, Shape{2560, 1600, 1}})
      for (const Kernel& k : {kK7, kK35, kK127, kS20, kS50})
        for (Algorithm a : all) add_with_variants(a, f, s, k);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    const auto ctx = fb::DeviceAccess::context(device());
    std::printf("device: %s\n", device().description().c_str());
    if (const auto c = fb::bench::read_sm_clock()) std::printf("SM clock before the warm-up: %.0f MHz (max %.0f)\n", c->mhz, c->max_mhz);
    floors() = fb::bench::measure_floors(ctx, env_double("FB_WARM_S", 2.0), 20.0);
    if (const auto c = fb::bench::read_sm_clock()) std::printf("SM clock after the warm-up: %.0f MHz (max %.0f)\n", c->mhz, c->max_mhz);
  } catch (const fb::Error& e) {
    std::fprintf(stderr, "fastblur_gpu_bench: no Vulkan device: %s\n", e.what());
    return 2;
  }
  std::fflush(stdout);
  benchmark::RunSpecifiedBenchmarks();
  print_table();
  benchmark::Shutdown();
}
