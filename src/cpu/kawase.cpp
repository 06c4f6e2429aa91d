// kawase on the CPU (seed 002): a pass of four diagonal bilinear taps is the product of two 1D passes,
// so the passes run per axis; the result equals the 2D passes exactly away from the edges. At the
// edges the border mode extends the image once (as for fir), where a GPU would clamp again before
// every pass. Float data in SIMD lanes (kawase_lanes.hpp); float64 on the line driver.
#include <cmath>
#include <utility>

#include "algorithms/kawase.hpp"
#include "cpu/execute.hpp"
#include "cpu/kawase_lanes.hpp"
#include "cpu/lane_lines.hpp"
#include "cpu/line_driver.hpp"

namespace fastblur::cpu {
namespace {

LineFilter kawase_line_filter(std::vector<double> offsets) {
  LineFilter f;
  f.pad = algo::kawase_reach(offsets);
  f.apply = [offsets = std::move(offsets), pad = f.pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
    s.a.assign(in, in + len);
    s.b.resize(len);
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(len);
    for (double d : offsets) {
      // Half a bilinear fetch at i - d and half at i + d: (1-t)/2 at +-a, t/2 at +-(a+1).
      const std::int64_t a = static_cast<std::int64_t>(std::floor(d));
      const double t = d - static_cast<double>(a), near = 0.5 * (1.0 - t), far = 0.5 * t;
      const double* x = s.a.data();
      double* y = s.b.data();
      for (std::int64_t i = lo + a + 1; i < hi - a - 1; ++i)
        y[i] = near * (x[i - a] + x[i + a]) + far * (x[i - a - 1] + x[i + a + 1]);
      lo += a + 1;
      hi -= a + 1;
      std::swap(s.a, s.b);
    }
    for (std::int64_t i = 0; i < n; ++i) out[i] = s.a[static_cast<std::size_t>(pad + i)];
  };
  return f;
}

LaneFilter kawase_lane_filter(std::vector<double> offsets) {
  LaneFilter f;
  f.pad = algo::kawase_reach(offsets);
  f.apply = [offsets = std::move(offsets)](const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad) {
    kawase_lanes(in, out, scratch, n, pad, offsets.data(), offsets.size());
  };
  return f;
}

}  // namespace

void kawase_blur(const Plan& plan, const View& src, const View& dst) {
  const auto& r = algo::resolved_as<algo::KawaseResolved>(plan);
  if (plan.schedule.driver == CpuDriver::lanes) {
    std::array<std::optional<LaneFilter>, 3> lanes;
    for (std::size_t a = 0; a < 3; ++a)
      if (!r.offsets[a].empty()) lanes[a] = kawase_lane_filter(r.offsets[a]);
    run_lane_filters(plan, src, dst, lanes);
    return;
  }
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a)
    if (!r.offsets[a].empty()) filters[a] = kawase_line_filter(r.offsets[a]);
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
