#include "cpu/kawase.hpp"

#include <cmath>
#include <utility>

#include "cpu/line_driver.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {

std::vector<double> kawase_offsets_for(const BlurSpec& spec, int axis) {
  if (!spec.kawase_offsets.empty()) {
    for (double d : spec.kawase_offsets) (void)kernel::kawase_pass_variance(d);  // validates
    return spec.kawase_offsets;
  }
  return kernel::kawase_schedule(spec.sigma[static_cast<std::size_t>(axis)], spec.kawase_passes);
}

namespace {

LineFilter kawase_line_filter(std::vector<double> offsets) {
  std::int64_t pad = 0;
  for (double d : offsets) pad += static_cast<std::int64_t>(std::floor(d)) + 1;
  LineFilter f;
  f.pad = pad;
  f.apply = [offsets = std::move(offsets), pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
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

}  // namespace

void kawase_blur(const View& src, const View& dst, const BlurSpec& spec) {
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a)
    if (spec.sigma[static_cast<std::size_t>(a)] > 1e-15) filters[static_cast<std::size_t>(a)] = kawase_line_filter(kawase_offsets_for(spec, a));
  run_line_filters(src, dst, spec, filters);
}

}  // namespace fastblur::cpu
