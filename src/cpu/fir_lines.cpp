// fir on the line driver, in double, for any kernel the plan holds (AxisPlan::weights): Gaussian
// derivatives, the caller's weights (correlate), asymmetric and even-length kernels; every axis with
// weights is correlated, so all borders, types and aliasing behave as for fir.
#include "cpu/execute.hpp"

#include <cmath>

#include "cpu/line_driver.hpp"

namespace fastblur::cpu {
namespace {

// Correlation with the plan's weights w[0..n-1] (tap k at offset k - r): out[i] = sum w[k] in[i - r + k].
LineFilter correlation_line_filter(std::shared_ptr<const std::vector<double>> w, int r) {
  LineFilter f;
  f.pad = r;
  double sum = 0.0;
  for (double v : *w) sum += v;
  // A one-sample line (every tap reads its sample) is left alone by a kernel that sums to one, to
  // rounding: the Gaussian's; derivatives and the caller's other kernels scale it.
  f.unit_gain = std::abs(sum - 1.0) < 1e-12;
  f.apply = [w = std::move(w), r](const double* in, double* out, std::int64_t n, LineScratch&) {
    const double* k = w->data();
    const std::size_t taps = w->size();
    for (std::int64_t i = 0; i < n; ++i) {
      const double* first = in + i;  // in[i - r] of the unpadded line
      double s = 0.0;
      for (std::size_t t = 0; t < taps; ++t) s += k[t] * first[t];
      out[i] = s;
    }
  };
  return f;
}

}  // namespace

void fir_lines_blur(const Plan& plan, const View& src, const View& dst) {
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a) {
    const AxisPlan& ax = plan.axes[a];
    if (ax.weights && ax.sigma > kSigmaCutoff) filters[a] = correlation_line_filter(ax.weights, ax.radius);
  }
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
