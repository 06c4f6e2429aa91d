// The floors every GPU case is compared with (gpu_floor.hpp), measured with timestamp queries on
// the device, and the SM clock read from nvidia-smi (a read-only query; no clock is set).
#include "gpu_floor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "vulkan/buffer.hpp"
#include "vulkan/job.hpp"
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

ClockSampler::Readings ClockSampler::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  return readings_;
}

namespace {

std::uint64_t copy_bytes(const vk::Context& ctx) { return std::min<std::uint64_t>(256ull << 20, ctx.piece_limit() / 4 * 4); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// `count` copies of `bytes` back to back in one job, each between two timestamps (a job holds 64),
// or past 63 copies all of them between two: their times in ms (each the mean in the second case).
std::vector<double> timed_copies(const std::shared_ptr<vk::Context>& ctx, vk::Buffer& a, vk::Buffer& b, std::uint64_t bytes,
                                 int count, bool kernel) {
  vk::Job job(ctx);
  job.timestamp("start");
  for (int i = 0; i < count; ++i) {
    if (kernel)
      vk::record_convert(job, i % 2 ? b.handle() : a.handle(), 0, i % 2 ? a.handle() : b.handle(), bytes / 4, 0,
                         ElementType::f32, false);
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
  // Empty dispatches: one workgroup converting one value, each followed by the barrier the next one
  // waits on (what a pass costs at least).
  {
    const int n = 200;
    vk::Job job(ctx);
    job.timestamp("start");
    for (int i = 0; i < n; ++i) vk::record_convert(job, a.handle(), 0, b.handle(), 1, 0, ElementType::f32, false);
    job.timestamp("end");
    job.run();
    const auto t = job.timestamps();
    if (t.size() == 2) f.empty_dispatch_us = (t[1].second - t[0].second) * 1e3 / n;
  }
  return f;
}

void keep_warm(const std::shared_ptr<vk::Context>& ctx, const Floors& floors, double ms) {
  if (!(floors.copy_gbs > 0) || ms <= 0) return;
  const std::uint64_t bytes = copy_bytes(*ctx);
  vk::Buffer a(ctx, bytes, vk::Buffer::Kind::device), b(ctx, bytes, vk::Buffer::Kind::device);
  const double each_ms = 2.0 * static_cast<double>(bytes) / floors.copy_gbs / 1e6;
  timed_copies(ctx, a, b, bytes, std::clamp(static_cast<int>(ms / each_ms), 1, 2000), false);
}

}  // namespace fastblur::bench
