#include "cpu/downsample.hpp"

#include <cmath>

#include "cpu/line_driver.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {

int downsample_factor_for(const BlurSpec& spec, int axis) {
  if (spec.downsample_factor != 0 && spec.downsample_factor != 2 && spec.downsample_factor != 4)
    throw InvalidArgument("downsample_factor is " + std::to_string(spec.downsample_factor) + ": expected 2, 4 or 0");
  return spec.downsample_factor ? spec.downsample_factor
                                : kernel::downsample_factor_for(spec.sigma[static_cast<std::size_t>(axis)]);
}

namespace {

LineFilter downsample_line_filter(double sigma, int f, double truncate) {
  const double low_sigma = kernel::downsample_low_sigma(sigma, f, truncate);
  const int r = std::max(1, kernel::radius_from_truncate(low_sigma, truncate));
  const std::vector<double> w = kernel::gaussian_weights(low_sigma, r);
  LineFilter filter;
  // Blocks are anchored at the line's first sample; pad is a whole number of blocks and covers
  // the low-resolution kernel plus the block and the interpolation on either side.
  filter.pad = static_cast<std::int64_t>(f) * (r + 3);
  filter.apply = [w, r, f, pad = filter.pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::int64_t blocks = (n + 2 * pad) / f;
    s.a.resize(static_cast<std::size_t>(blocks));
    s.b.resize(static_cast<std::size_t>(blocks));
    for (std::int64_t b = 0; b < blocks; ++b) {
      double sum = 0.0;
      for (int k = 0; k < f; ++k) sum += in[b * f + k];
      s.a[static_cast<std::size_t>(b)] = sum / f;
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

void downsample_blur(const View& src, const View& dst, const BlurSpec& spec) {
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a) {
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    if (sigma > 1e-15)
      filters[static_cast<std::size_t>(a)] = downsample_line_filter(sigma, downsample_factor_for(spec, a), spec.truncate);
  }
  run_line_filters(src, dst, spec, filters);
}

}  // namespace fastblur::cpu
