// What every GPU case is measured against, on the device in the same run: the GPU warmed until its
// clock is steady, the SM clock as nvidia-smi reads it (read-only; nothing is set), the bandwidth
// of a copy, and the cost of an empty dispatch with the barrier after it.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "vulkan/context.hpp"

namespace fastblur::bench {

/// The SM clock and its maximum in MHz from `nvidia-smi --query-gpu=clocks.sm,clocks.max.sm` (the
/// first GPU); empty where there is no nvidia-smi or it answers nothing.
struct SmClock {
  double mhz = 0, max_mhz = 0;
};
std::optional<SmClock> read_sm_clock();

/// Samples the SM clock every `period_ms` on a thread of its own while alive: the first, last,
/// lowest and highest reading (0 where none).
class ClockSampler {
 public:
  explicit ClockSampler(int period_ms = 100);
  ~ClockSampler();
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;
  struct Readings {
    double first = 0, last = 0, min = 0, max = 0, max_mhz = 0;
    int count = 0;
  };
  /// What has been read so far.
  Readings latest();
  /// Stops sampling (after one reading at least, where nvidia-smi answers) and returns what was read.
  Readings stop();

 private:
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  Readings readings_;
  std::thread thread_;
};

/// The floors of a device, measured once per run.
struct Floors {
  double copy_gbs = 0;          ///< vkCmdCopyBuffer, bytes read + written per second / 1e9 (median)
  double kernel_copy_gbs = 0;   ///< a compute shader's copy (copy_words.comp, 16 bytes a thread), likewise
  double empty_dispatch_us = 0; ///< one dispatch of one workgroup and the barrier after it
  double warm_s = 0;            ///< how long the GPU was run before its copy rate settled
  int warm_batches = 0;
  /// The faster copy: what a pass that reads and writes once can at best reach.
  double bandwidth_gbs() const { return copy_gbs > kernel_copy_gbs ? copy_gbs : kernel_copy_gbs; }
};

/// Runs copies of 256 MiB (or what one piece allows) in batches of about 50 ms until two batches in a
/// row agree within 2% and at least `min_s` seconds have passed (at most `max_s`), then measures the
/// floors. min_s 0 measures without the warm-up (a CPU device's smoke test).
Floors measure_floors(const std::shared_ptr<vk::Context>& ctx, double min_s, double max_s);

/// Keeps the device busy with batches of copies of about 20 ms (before a case, after the host's work
/// for it) until two batches agree within 2% and the SM clock, where nvidia-smi reads it, is at 90%
/// of its maximum, at least `min_ms` and at most `max_ms`: so no case starts at a clock that fell
/// while the host prepared it. Returns the milliseconds it took.
double keep_warm(const std::shared_ptr<vk::Context>& ctx, const Floors& floors, double min_ms, double max_ms);

}  // namespace fastblur::bench
