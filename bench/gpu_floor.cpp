// The floors every GPU case is compared with (gpu_floor.hpp), measured with timestamp queries on
// the device, and the SM clock read from nvidia-smi (a read-only query; no clock is set).
#include "gpu_floor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <vector>

#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::bench {

std::optional<SmClock> read_sm_clock() {
  FILE* p = popen("nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv,noheader,nounits -i 0 2>/dev/null", "r");
  if (!p) return std::nullopt;
  SmClock c;
  const int n = std::fscanf(p, "%lf , %lf", &c.mhz, &c.max_mhz);
  pclose(p);
  if (n != 2) return std::nullopt;
  return c;
}

ClockSampler::ClockSampler(int period_ms) {
  thread_ = std::thread([this, period_ms] {
    do {
      if (const auto c = read_sm_clock()) {
        std::lock_guard<std::mutex> lock(mutex_);
        Readings& r = readings_;
        if (r.count == 0) r.first = r.min = r.max = c->mhz;
        r.last = c->mhz;
        r.min = std::min(r.min, c->mhz);
        r.max = std::max(r.max, c->mhz);
        r.max_mhz = c->max_mhz;
        ++r.count;
      } else {
        return;  // no nvidia-smi: nothing to sample
      }
      for (int t = 0; t < period_ms && !stop_; t += 10) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    } while (!stop_);
  });
}

ClockSampler::~ClockSampler() { stop(); }

ClockSampler::Readings ClockSampler::latest() {
  std::lock_guard<std::mutex> lock(mutex_);
  return readings_;
}

ClockSampler::Readings ClockSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  return readings_;
}

namespace {

std::uint64_t copy_bytes(const vk::Context& ctx) { return std::min<std::uint64_t>(256ull << 20, ctx.piece_limit() / 16 * 16); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// copy_words.comp: `bytes` (a multiple of 16) from a to b, 16 bytes a thread.
void record_kernel_copy(vk::Job& job, VkBuffer a, VkBuffer b, std::uint64_t bytes) {
  const vk::ComputePipeline& p = job.context().pipeline("copy_words", vk::shaders::words("copy_words"), {},
                                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                                                        sizeof(std::uint32_t));
  const auto count = static_cast<std::uint32_t>(bytes / 16);
  job.dispatch(p, {vk::Binding::storage(a), vk::Binding::storage(b)}, count, vk::spread_groups((count + 255) / 256));
}

// `count` copies of `bytes` back to back in one job, each between two timestamps (a job holds 64),
// or past 63 copies all of them between two: their times in ms (each the mean in the second case).
std::vector<double> timed_copies(const std::shared_ptr<vk::Context>& ctx, vk::Buffer& a, vk::Buffer& b, std::uint64_t bytes,
                                 int count, bool kernel) {
  vk::Job job(ctx);
  job.timestamp("start");
  for (int i = 0; i < count; ++i) {
    if (kernel)
      record_kernel_copy(job, i % 2 ? b.handle() : a.handle(), i % 2 ? a.handle() : b.handle(), bytes);
    else
      job.copy(i % 2 ? b.handle() : a.handle(), i % 2 ? a.handle() : b.handle(), bytes);
    if (count < 64 || i + 1 == count) job.timestamp("copy");
  }
  job.run();
  const auto t = job.timestamps();
  std::vector<double> each;
  if (count >= 64 && t.size() == 2) return std::vector<double>(static_cast<std::size_t>(count), t[1].second / count);
  for (std::size_t i = 1; i < t.size(); ++i) each.push_back(t[i].second - t[i - 1].second);
  return each;
}

}  // namespace

Floors measure_floors(const std::shared_ptr<vk::Context>& ctx, double min_s, double max_s) {
  Floors f;
  const std::uint64_t bytes = copy_bytes(*ctx);
  vk::Buffer a(ctx, bytes, vk::Buffer::Kind::device), b(ctx, bytes, vk::Buffer::Kind::device);
  const auto gbs = [&](double ms) { return ms > 0 ? 2.0 * static_cast<double>(bytes) / ms / 1e6 : 0.0; };
  // Warm-up: batches of copies sized to about 50 ms from the first, until the rate settles.
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  int batch = 4;
  double last = 0;
  if (min_s > 0) {
    while (elapsed() < max_s) {
      const std::vector<double> t = timed_copies(ctx, a, b, bytes, batch, false);
      const double rate = gbs(median(t));
      ++f.warm_batches;
      double sum = 0;
      for (double x : t) sum += x;
      batch = std::clamp(static_cast<int>(batch * 50.0 / std::max(sum, 1e-3)), 4, 2000);
      const bool settled = last > 0 && std::abs(rate - last) <= 0.02 * last;
      last = rate;
      if (settled && elapsed() >= min_s) break;
    }
  }
  f.warm_s = elapsed();
  f.copy_gbs = gbs(median(timed_copies(ctx, a, b, bytes, 9, false)));
  f.kernel_copy_gbs = gbs(median(timed_copies(ctx, a, b, bytes, 9, true)));
  // Empty dispatches: one workgroup copying 16 bytes, each followed by the barrier the next one
  // waits on (what a pass costs at least).
  {
    const int n = 200;
    vk::Job job(ctx);
    job.timestamp("start");
    for (int i = 0; i < n; ++i) record_kernel_copy(job, a.handle(), b.handle(), 16);
    job.timestamp("end");
    job.run();
    const auto t = job.timestamps();
    if (t.size() == 2) f.empty_dispatch_us = (t[1].second - t[0].second) * 1e3 / n;
  }
  return f;
}

double keep_warm(const std::shared_ptr<vk::Context>& ctx, const Floors& floors, double min_ms, double max_ms) {
  if (!(floors.copy_gbs > 0) || max_ms <= 0) return 0;
  static std::unique_ptr<vk::Buffer> a, b;  // kept: no allocation between cases
  const std::uint64_t bytes = copy_bytes(*ctx);
  if (!a) {
    a = std::make_unique<vk::Buffer>(ctx, bytes, vk::Buffer::Kind::device);
    b = std::make_unique<vk::Buffer>(ctx, bytes, vk::Buffer::Kind::device);
  }
  const double each_ms = 2.0 * static_cast<double>(bytes) / floors.copy_gbs / 1e6;
  const int batch = std::clamp(static_cast<int>(20.0 / each_ms), 1, 2000);  // about 20 ms
  ClockSampler clock(20);
  const auto start = std::chrono::steady_clock::now();
  double ms = 0, last = 0;
  for (;;) {
    const std::vector<double> t = timed_copies(ctx, *a, *b, bytes, batch, false);
    const double rate = median(t);
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const auto r = clock.latest();
    const bool clock_up = r.count == 0 || r.last >= 0.9 * r.max_mhz;  // no nvidia-smi: the copy rate alone
    const bool settled = last > 0 && std::abs(rate - last) <= 0.02 * last;
    last = rate;
    if ((settled && clock_up && ms >= min_ms) || ms >= max_ms) break;
  }
  return ms;
}

}  // namespace fastblur::bench
