// Kawase schedules (seed 002): four diagonal bilinear taps per pass, matched to any sigma.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

void check_offset(double d) {
  if (!(d >= 0.0) || !std::isfinite(d) || d > 1e6)
    throw InvalidArgument("Kawase offset must be in [0, 1e6], got " + std::to_string(d));
}

double schedule_variance(double c, int passes) {
  double v = 0.0;
  for (int i = 0; i < passes; ++i) v += kawase_pass_variance(c * (i + 0.5));
  return v;
}

// Offsets c (i + 1/2), i < passes, with c solving: sum of the passes' variances = sigma^2. The
// variance grows monotonically with c, so bisection finds it.
std::vector<double> scaled_schedule(double sigma, int passes) {
  const double target = sigma * sigma;
  double lo = 0.0, hi = 1.0;
  while (schedule_variance(hi, passes) < target) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (schedule_variance(mid, passes) < target ? lo : hi) = mid;
  }
  const double c = 0.5 * (lo + hi);
  std::vector<double> offsets(static_cast<std::size_t>(passes));
  for (int i = 0; i < passes; ++i) offsets[static_cast<std::size_t>(i)] = c * (i + 0.5);
  return offsets;
}

}  // namespace

double kawase_pass_variance(double d) {
  check_offset(d);
  const double a = std::floor(d), t = d - a;
  return (1.0 - t) * a * a + t * (a + 1.0) * (a + 1.0);
}

std::vector<double> kawase_pass_weights(double d) {
  check_offset(d);
  const int a = static_cast<int>(std::floor(d));
  const double t = d - a;
  const int half = a + 1;
  std::vector<double> w(2 * static_cast<std::size_t>(half) + 1, 0.0);
  w[static_cast<std::size_t>(half - a)] += 0.5 * (1.0 - t);
  w[static_cast<std::size_t>(half + a)] += 0.5 * (1.0 - t);
  w[static_cast<std::size_t>(half - a - 1)] += 0.5 * t;
  w[static_cast<std::size_t>(half + a + 1)] += 0.5 * t;
  return w;
}

std::vector<double> kawase_kernel(const std::vector<double>& offsets) {
  std::vector<double> k{1.0};
  for (double d : offsets) {
    const std::vector<double> p = kawase_pass_weights(d);
    // A pass has at most four non-zero taps among its 2a+3: convolving with those alone makes a
    // schedule of n passes cost O(n^3) instead of O(n^4) (sigma 1e4: 670 passes, minutes before),
    // with the same sums in the same order.
    std::vector<std::pair<std::size_t, double>> taps;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (p[j] != 0.0) taps.emplace_back(j, p[j]);
    std::vector<double> out(k.size() + p.size() - 1, 0.0);
    for (std::size_t i = 0; i < k.size(); ++i)
      for (const auto& [j, w] : taps) out[i + j] += k[i] * w;
    k = std::move(out);
  }
  return k;
}

std::vector<double> kawase_preset_01223() { return {0.5, 1.5, 2.5, 2.5, 3.5}; }
std::vector<double> kawase_preset_2333() { return {2.5, 3.5, 3.5, 3.5}; }

double kawase_schedule_error(const std::vector<double>& offsets, double sigma) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw InvalidArgument("kawase_schedule_error: sigma must be > 0");
  const std::vector<double> k = kawase_kernel(offsets);
  const int half = static_cast<int>(k.size() / 2);
  const int wide = std::max(half, static_cast<int>(std::ceil(8.0 * sigma)));
  const auto g = [&](int x) { return std::exp(-0.5 * x * double(x) / (sigma * sigma)); };
  double sum = 0.0;
  for (int x = -wide; x <= wide; ++x) sum += g(x);
  double worst = 0.0;
  for (int x = -half; x <= half; ++x) worst = std::max(worst, std::abs(k[static_cast<std::size_t>(x + half)] - g(x) / sum));
  return worst * sum;  // relative to the Gaussian's peak, 1 / sum
}

std::vector<double> kawase_schedule(double sigma, int passes) {
  if (!(sigma > 0.0) || !std::isfinite(sigma) || sigma > 1e4)
    throw InvalidArgument("kawase_schedule: sigma must be in (0, 1e4], got " + std::to_string(sigma));
  if (passes < 0 || passes > 4096) throw InvalidArgument("kawase_schedule: passes must be in 0..4096");
  if (passes > 0) return scaled_schedule(sigma, passes);
  // From the fewest passes with c <= 1 up to 12 more: the first whose shape is within
  // kKawaseTargetError of the Gaussian, else the best of them.
  int first = 1;
  while (schedule_variance(1.0, first) < sigma * sigma) ++first;
  std::vector<double> best;
  double best_error = INFINITY;
  for (int n = first; n <= first + 12; ++n) {
    std::vector<double> s = scaled_schedule(sigma, n);
    const double e = kawase_schedule_error(s, sigma);
    if (e <= kKawaseTargetError) return s;
    if (e < best_error) best_error = e, best = std::move(s);
  }
  return best;
}

}  // namespace fastblur::kernel
