// box on the CPU: the plan's extended boxes as running sums along lines, in double. Float data runs
// in SIMD lanes (double sums over float lanes, box_lanes.hpp); float64 data on the line driver,
// whose double filter is also the lanes' twin in the tests.
#include <utility>

#include "algorithms/box.hpp"
#include "cpu/box_lanes.hpp"
#include "cpu/execute.hpp"
#include "cpu/lane_lines.hpp"
#include "cpu/line_driver.hpp"

namespace fastblur::cpu {
namespace {

// Each line is padded by the passes' reach (BoxResolved::reach, the plan's).

// One pass over in[lo, hi): writes out[lo + h, hi - h), h = radius + 1.
void box_pass(const double* in, double* out, std::int64_t lo, std::int64_t hi, const kernel::BoxPass& p) {
  const std::int64_t r = p.radius, h = r + 1;
  const double inv = 1.0 / (2.0 * r + 1.0 + 2.0 * p.alpha);
  double sum = 0.0;
  for (std::int64_t j = lo + h - r; j <= lo + h + r; ++j) sum += in[j];
  for (std::int64_t i = lo + h; i < hi - h; ++i) {
    out[i] = (sum + p.alpha * (in[i - h] + in[i + h])) * inv;
    sum += in[i + r + 1] - in[i - r];  // slides the window to i + 1
  }
}

LineFilter box_line_filter(std::vector<kernel::BoxPass> passes, std::int64_t reach) {
  LineFilter f;
  f.pad = reach;
  f.apply = [passes = std::move(passes), pad = f.pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
    s.a.assign(in, in + len);
    s.b.resize(len);
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(len);
    for (const auto& p : passes) {
      box_pass(s.a.data(), s.b.data(), lo, hi, p);
      lo += p.radius + 1;
      hi -= p.radius + 1;
      std::swap(s.a, s.b);
    }
    for (std::int64_t i = 0; i < n; ++i) out[i] = s.a[static_cast<std::size_t>(pad + i)];
  };
  return f;
}

LaneFilter box_lane_filter(std::vector<kernel::BoxPass> passes, std::int64_t reach) {
  LaneFilter f;
  f.pad = reach;
  f.apply = [passes = std::move(passes)](const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad) {
    box_lanes(in, out, scratch, n, pad, passes.data(), passes.size());
  };
  return f;
}

}  // namespace

void box_blur(const Plan& plan, const View& src, const View& dst) {
  const auto& r = algo::resolved_as<algo::BoxResolved>(plan);
  if (plan.schedule.driver == CpuDriver::lanes) {
    std::array<std::optional<LaneFilter>, 3> lanes;
    for (std::size_t a = 0; a < 3; ++a)
      if (!r.passes[a].empty()) lanes[a] = box_lane_filter(r.passes[a], r.reach[a]);
    run_lane_filters(plan, src, dst, lanes);
    return;
  }
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a)
    if (!r.passes[a].empty()) filters[a] = box_line_filter(r.passes[a], r.reach[a]);
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
