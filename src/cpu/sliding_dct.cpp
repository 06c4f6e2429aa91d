// sliding-dct on the CPU: each cosine term of the series slid along the line by its second-order
// recurrence, in double: one line at a time (line driver, float64 data and the lanes' twin) or in SIMD
// lanes over float data (sliding_dct_lanes.hpp).
#include "algorithms/sliding_dct.hpp"
#include "cpu/execute.hpp"
#include "cpu/lane_lines.hpp"
#include "cpu/sliding_dct_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "cpu/line_driver.hpp"
#include "fastblur/kernel_sliding_dct.hpp"

namespace fastblur::cpu {
namespace {

// How many samples a recurrence runs before its state is recomputed directly: at least 4096 and
// 8 window radii. The recurrences are marginally stable (roots on the unit circle): rounding
// errors neither grow nor decay, so a long line restarts them; this keeps the result within 1e-10
// of the convolution (in double, relative to the data's magnitude) at about a quarter of the recurrence's work per sample extra.
std::int64_t restart_interval(int radius) { return std::max<std::int64_t>(4096, 8 * static_cast<std::int64_t>(radius)); }

LineFilter sliding_dct_line_filter(const kernel::SlidingDctKernel& k) {
  const int r = k.radius, terms = k.order() + 1;
  const double period = k.cosine_period();
  // Per term: 2 cos(w), cos(w R) and cos(w (R+1)) (equal for the classic series, whose period is
  // the window's: then one coefficient serves both ends), and the window's cosines for restarts.
  const bool split = k.period > 0.0;
  std::vector<double> c2(static_cast<std::size_t>(terms)), cr(c2.size()), cr1(c2.size());
  std::vector<double> window(static_cast<std::size_t>(terms) * (2 * static_cast<std::size_t>(r) + 1));
  for (int j = 0; j < terms; ++j) {
    const double w = 2.0 * std::numbers::pi * j / period;
    c2[static_cast<std::size_t>(j)] = 2.0 * std::cos(w);
    cr[static_cast<std::size_t>(j)] = std::cos(w * r);
    cr1[static_cast<std::size_t>(j)] = std::cos(w * (r + 1));
    for (int n = -r; n <= r; ++n)
      window[static_cast<std::size_t>(j) * (2 * static_cast<std::size_t>(r) + 1) + static_cast<std::size_t>(n + r)] =
          std::cos(w * n);
  }
  LineFilter f;
  f.pad = r + 1;
  f.apply = [=, beta = k.beta](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::int64_t every = restart_interval(r);
    const double* x = in + r + 1;  // x[i] is the line's sample i; x[-r-1 .. n+r] are valid
    const std::size_t t = static_cast<std::size_t>(terms), width = 2 * static_cast<std::size_t>(r) + 1;
    s.a.resize(2 * t);
    double* z = s.a.data();      // Z_j at the current sample
    double* prev = z + t;        // Z_j one sample before
    const auto direct = [&](std::int64_t at, double* dst) {
      for (std::size_t j = 0; j < t; ++j) {
        const double* w = &window[j * width];
        double sum = 0.0;
        for (int m = -r; m <= r; ++m) sum += w[m + r] * x[at + m];
        dst[j] = sum;
      }
    };
    for (std::int64_t i = 0; i < n; ++i) {
      if (i % every == 0) {
        direct(i - 1, prev);
        direct(i, z);
      } else {
        // Z(i) from Z(i-1) and Z(i-2) and the samples at the window's two ends.
        const double outer = x[i + r] + x[i - r - 2], inner = x[i + r - 1] + x[i - r - 1];
        const double ends = outer - inner;
        for (std::size_t j = 0; j < t; ++j) {
          const double next = split ? c2[j] * z[j] - prev[j] + (cr[j] * outer - cr1[j] * inner)
                                    : c2[j] * z[j] - prev[j] + cr[j] * ends;
          prev[j] = z[j];
          z[j] = next;
        }
      }
      double y = 0.0;
      for (std::size_t j = 0; j < t; ++j) y += beta[j] * z[j];
      out[i] = y;
    }
  };
  return f;
}

LaneFilter sliding_dct_lane_filter(const kernel::SlidingDctKernel& k) {
  LaneFilter f;
  f.pad = k.radius + 1;
  f.apply = [c = sliding_dct_lane_coefficients(k)](const float* in, float* out, float*, std::int64_t n, std::int64_t) {
    sliding_dct_lanes(in, out, n, c);
  };
  return f;
}

}  // namespace

void sliding_dct_blur(const Plan& plan, const View& src, const View& dst) {
  const auto& r = algo::resolved_as<algo::SlidingDctResolved>(plan);
  if (plan.schedule.driver == CpuDriver::lanes) {
    std::array<std::optional<LaneFilter>, 3> lanes;
    for (std::size_t a = 0; a < 3; ++a)
      if (r.axes[a]) lanes[a] = sliding_dct_lane_filter(*r.axes[a]);
    run_lane_filters(plan, src, dst, lanes);
    return;
  }
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a)
    if (r.axes[a]) filters[a] = sliding_dct_line_filter(*r.axes[a]);
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
