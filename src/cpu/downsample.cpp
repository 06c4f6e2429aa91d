// downsample on the CPU (seed 002): per axis, the line reduced onto block centres by the tent, the
// low-resolution line blurred with the plan's compensated sigma, interpolated linearly back, on the
// line driver.
#include "algorithms/downsample.hpp"
#include "cpu/execute.hpp"

#include <cmath>

#include "cpu/line_driver.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {

namespace {

LineFilter downsample_line_filter(const algo::DownsampleAxis& d) {
  const int r = d.radius, f = d.factor;
  const std::vector<double> w = kernel::gaussian_weights(d.low_sigma, r);
  const std::vector<double> tent = kernel::downsample_tent(f);
  LineFilter filter;
  // Blocks are anchored at the line's first sample; pad is a whole number of blocks and covers
  // the low-resolution kernel plus the block and the interpolation on either side.
  filter.pad = d.pad;
  filter.apply = [w, tent, r, f, pad = filter.pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::int64_t blocks = (n + 2 * pad) / f;
    s.a.resize(static_cast<std::size_t>(blocks));
    s.b.resize(static_cast<std::size_t>(blocks));
    // The tent onto block b's centre b f + (f - 1)/2: the 2f samples within f of it, those past
    // the padded line's ends left out (no output reads their blocks).
    const std::int64_t len = n + 2 * pad;
    for (std::int64_t b = 0; b < blocks; ++b) {
      double sum = 0.0;
      for (int k = -f / 2; k < 3 * f / 2; ++k) {
        const std::int64_t x = b * f + k;
        if (x >= 0 && x < len) sum += tent[static_cast<std::size_t>(k + f / 2)] * in[x];
      }
      s.a[static_cast<std::size_t>(b)] = sum;
    }
    for (std::int64_t b = r; b < blocks - r; ++b) {
      double sum = 0.0;
      for (int k = -r; k <= r; ++k) sum += w[static_cast<std::size_t>(k + r)] * s.a[static_cast<std::size_t>(b + k)];
      s.b[static_cast<std::size_t>(b)] = sum;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      // Block b's centre is at padded position b f + (f - 1)/2.
      const double u = (static_cast<double>(i + pad) - (f - 1) / 2.0) / f;
      const double fb = std::floor(u), t = u - fb;
      const auto b = static_cast<std::size_t>(fb);
      out[i] = (1.0 - t) * s.b[b] + t * s.b[b + 1];
    }
  };
  return filter;
}

}  // namespace

void downsample_blur(const Plan& plan, const View& src, const View& dst) {
  if (plan.schedule.driver == CpuDriver::chain) return downsample_chain_blur(plan, src, dst);
  const auto& r = algo::resolved_as<algo::DownsampleResolved>(plan);
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a)
    if (r.axes[a].factor) filters[a] = downsample_line_filter(r.axes[a]);
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
