// Impulse-response metrics (docs/DESIGN.md, quality metrics): the same code for tests, analyze, bench.
#include <algorithm>
#include <cmath>

#include "fastblur/analysis.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::analysis {

std::vector<double> reference_gaussian(double sigma, int half) { return kernel::reference_gaussian(sigma, half); }

double contour_radius(const std::vector<double>& img, int w, int h, int cx, int cy, int dx, int dy,
                      double level) {
  if ((dx == 0 && dy == 0) || std::abs(dx) > 1 || std::abs(dy) > 1)
    throw InvalidArgument("contour_radius: the direction must be an axis or a diagonal");
  const double unit = std::hypot(dx, dy);
  const auto sample = [&](int k) {
    const int x = cx + k * dx, y = cy + k * dy;
    return (x < 0 || y < 0 || x >= w || y >= h) ? 0.0 : img[static_cast<std::size_t>(y) * w + x];
  };
  int k = 1;
  while (sample(k) >= level) {
    if (cx + k * dx < 0 || cy + k * dy < 0 || cx + k * dx >= w || cy + k * dy >= h) return k * unit;
    ++k;
  }
  // The crossing lies between samples k-1 (>= level) and k (< level).
  const double a = sample(k - 1), b = sample(k);
  double t = (a - level) / (a - b);  // linear fallback, in steps past k-1
  if (k >= 2 && b > 0.0 && sample(k - 2) > 0.0) {
    // log h through k-2, k-1, k as a quadratic in s = steps past k-1: c0 + c1 s + c2 s^2.
    const double l0 = std::log(sample(k - 2)), l1 = std::log(a), l2 = std::log(b), target = std::log(level);
    const double c2 = 0.5 * (l2 - 2 * l1 + l0), c1 = 0.5 * (l2 - l0), c0 = l1 - target;
    if (std::abs(c2) < 1e-12) {
      t = -c0 / c1;
    } else {
      const double disc = c1 * c1 - 4 * c2 * c0;
      if (disc >= 0) {
        const double r1 = (-c1 + std::sqrt(disc)) / (2 * c2), r2 = (-c1 - std::sqrt(disc)) / (2 * c2);
        for (double r : {r1, r2})
          if (r >= 0.0 && r <= 1.0) t = r;
      }
    }
  }
  return (k - 1 + t) * unit;
}

namespace {

// The blur of a unit impulse at the centre of an n x n image (n odd; constant border 0), row-major.
std::vector<double> impulse_response_2d(BlurSpec spec, double sigma, int n) {
  std::vector<double> img(static_cast<std::size_t>(n) * n, 0.0);
  img[static_cast<std::size_t>(n / 2) * n + n / 2] = 1.0;
  spec.sigma = {sigma, sigma, 0.0};
  const View v = View::packed(img.data(), ElementType::f64, n, n);
  blur(v, v, spec);
  return img;
}

}  // namespace

std::vector<double> impulse_response_1d(const BlurSpec& spec_in, double sigma, int half) {
  if (!(sigma > 0.0)) throw InvalidArgument("impulse_response_1d: sigma must be > 0");
  if (half < 0) throw InvalidArgument("impulse_response_1d: half must be >= 0");
  BlurSpec spec = spec_in;
  spec.with_border(Border::constant);
  spec.cval = 0.0;
  const int n = 2 * half + 1;
  std::vector<double> line(static_cast<std::size_t>(n), 0.0);
  if (algorithm_info(spec.algorithm).planar) {  // the response to a line impulse: the 2D response's column sums
    const std::vector<double> img = impulse_response_2d(spec, sigma, n);
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) line[static_cast<std::size_t>(x)] += img[static_cast<std::size_t>(y) * n + x];
    return line;
  }
  line[static_cast<std::size_t>(half)] = 1.0;
  spec.sigma = {sigma, 0.0, 0.0};
  const View v = View::packed(line.data(), ElementType::f64, n, 1);
  blur(v, v, spec);
  return line;
}

ImpulseMetrics measure_impulse(const BlurSpec& spec_in, double sigma, bool with_anisotropy) {
  if (!(sigma > 0.0)) throw InvalidArgument("measure_impulse: sigma must be > 0");
  ImpulseMetrics m;
  m.sigma = sigma;
  BlurSpec spec = spec_in;
  spec.with_border(Border::constant);
  spec.cval = 0.0;
  // A line long enough that no border mode is ever reached (approximations may be wider than
  // 4 sigma: give them 8 sigma and more).
  const int half = static_cast<int>(std::ceil(10.0 * sigma)) + 16;
  const int n = 2 * half + 1;
  const std::vector<double> line = impulse_response_1d(spec, sigma, half);
  const std::vector<double> g = reference_gaussian(sigma, half);
  double gmax = 0.0, m0 = 0.0, m2 = 0.0;
  for (int i = 0; i < n; ++i) {
    const double h = line[static_cast<std::size_t>(i)], x = i - half;
    gmax = std::max(gmax, g[static_cast<std::size_t>(i)]);
    m0 += h;
    m2 += h * x * x;
  }
  for (int i = 0; i < n; ++i) {
    const double d = std::abs(line[static_cast<std::size_t>(i)] - g[static_cast<std::size_t>(i)]);
    m.max_error = std::max(m.max_error, d);
    m.l1_error += d;
  }
  m.max_error /= gmax;
  m.effective_sigma = std::sqrt(m2 / m0);
  if (with_anisotropy) {
    const int half2 = static_cast<int>(std::ceil(6.0 * sigma)) + 8;
    const int n2 = 2 * half2 + 1;
    const std::vector<double> img = impulse_response_2d(spec, sigma, n2);
    const std::vector<double> g2 = reference_gaussian(sigma, half2);
    const double gpeak = g2[static_cast<std::size_t>(half2)] * g2[static_cast<std::size_t>(half2)];
    for (int y = 0; y < n2; ++y)
      for (int x = 0; x < n2; ++x) {
        const double d = img[static_cast<std::size_t>(y) * n2 + x] -
                         g2[static_cast<std::size_t>(x)] * g2[static_cast<std::size_t>(y)];
        m.max_error_2d = std::max(m.max_error_2d, std::abs(d) / gpeak);
      }
    const double peak = img[static_cast<std::size_t>(half2) * n2 + half2];
    for (double level : {1e-1, 1e-2, 1e-3}) {
      double axial = 0.0, diagonal = 0.0;
      for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
        axial += contour_radius(img, n2, n2, half2, half2, dx, dy, level * peak) / 4;
      for (const auto& [dx, dy] : {std::pair{1, 1}, {-1, 1}, {1, -1}, {-1, -1}})
        diagonal += contour_radius(img, n2, n2, half2, half2, dx, dy, level * peak) / 4;
      const double a = diagonal / axial - 1.0;
      if (std::abs(a) > std::abs(m.anisotropy)) m.anisotropy = a;
    }
  }
  return m;
}

}  // namespace fastblur::analysis
