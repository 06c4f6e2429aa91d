// fir where some axis asks for a Gaussian derivative (plan.spec.order): every axis with a sigma is
// convolved in double with its kernel (kernel::gaussian_derivative_weights; order 0 is the plain
// Gaussian) on the line driver, so all borders, types and aliasing behave as for fir.
#include "cpu/execute.hpp"

#include "cpu/line_driver.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {
namespace {

// Convolution with an explicit kernel k[0..2r] (offset m = index - r): out[i] = sum k[m] in[i - m].
LineFilter convolution_line_filter(std::vector<double> k, int r, bool unit_gain) {
  LineFilter f;
  f.pad = r;
  f.unit_gain = unit_gain;
  f.apply = [k = std::move(k), r](const double* in, double* out, std::int64_t n, LineScratch&) {
    for (std::int64_t i = 0; i < n; ++i) {
      const double* centre = in + r + i;
      double sum = 0.0;
      for (int m = -r; m <= r; ++m) sum += k[static_cast<std::size_t>(m + r)] * centre[-m];
      out[i] = sum;
    }
  };
  return f;
}

}  // namespace

void fir_derivative_blur(const Plan& plan, const View& src, const View& dst) {
  std::array<std::optional<LineFilter>, 3> filters;
  for (std::size_t a = 0; a < 3; ++a) {
    const AxisPlan& ax = plan.axes[a];
    if (ax.sigma > 1e-15)
      filters[a] = convolution_line_filter(kernel::gaussian_derivative_weights(ax.sigma, plan.spec.order[a], ax.radius),
                                           ax.radius, plan.spec.order[a] == 0);
  }
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
