// The sliding-DCT Gaussian's series (see kernel_sliding_dct.hpp).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/kernel_sliding_dct.hpp"

namespace fastblur::kernel {
namespace {

void check(double sigma, int order) {
  if (!std::isfinite(sigma) || !(sigma > 0.0) || sigma > 1e6)
    throw InvalidArgument("sliding-dct: sigma is " + std::to_string(sigma) + ": expected 0 < sigma <= 1e6");
  if (order != 0 && (order < kSlidingDctMinOrder || order > kSlidingDctMaxOrder))
    throw InvalidArgument("sliding-dct: order is " + std::to_string(order) + ": expected " +
                          std::to_string(kSlidingDctMinOrder) + " to " + std::to_string(kSlidingDctMaxOrder) +
                          " (0 = default " + std::to_string(kSlidingDctDefaultOrder) + ")");
}

// c[j] = cos(j theta) for j < c.size(), by the Chebyshev recurrence cos((j+1) t) = 2 cos(t) cos(j t) -
// cos((j-1) t): one std::cos per sample instead of one per sample and term (the planner fits these
// series for every candidate: the cosines were 44% of a first plan's 147 ms at sigma 50). Its error
// grows about as j^2 ulp: within 4e-14 of std::cos up to j = 32 (checked over periods 3 to 20000),
// and kSlidingDctMaxOrder is 8.
void cosine_harmonics(double theta, std::vector<double>& c) {
  if (c.empty()) return;
  c[0] = 1.0;
  if (c.size() == 1) return;
  c[1] = std::cos(theta);
  for (std::size_t j = 2; j < c.size(); ++j) c[j] = 2.0 * c[1] * c[j - 1] - c[j - 2];
}
}  // namespace

SlidingDctKernel sliding_dct_kernel_for_radius(double sigma, int order, int radius) {
  check(sigma, order);
  if (radius < 1) throw InvalidArgument("sliding-dct: radius must be >= 1");
  if (order == 0) order = kSlidingDctDefaultOrder;
  const int terms = std::min(order, radius) + 1;
  const std::vector<double> g = reference_gaussian(sigma, radius);
  const double period = 2.0 * radius + 1.0;
  SlidingDctKernel k;
  k.radius = radius;
  k.beta.assign(static_cast<std::size_t>(terms), 0.0);
  k.beta[0] = 1.0 / period;  // unit gain: the other cosines sum to 0 over a whole period
  // g is even, so its DFT coefficients are real: (2 / N) sum g(n) cos(w_j n), summed over n in order
  // for each j (the cosines of one n from one std::cos, cosine_harmonics).
  std::vector<double> c(static_cast<std::size_t>(terms));
  for (int n = -radius; n <= radius; ++n) {
    cosine_harmonics(2.0 * std::numbers::pi * n / period, c);
    for (int j = 1; j < terms; ++j)
      k.beta[static_cast<std::size_t>(j)] += g[static_cast<std::size_t>(n + radius)] * c[static_cast<std::size_t>(j)];
  }
  for (int j = 1; j < terms; ++j) k.beta[static_cast<std::size_t>(j)] = 2.0 * k.beta[static_cast<std::size_t>(j)] / period;
  return k;
}

std::vector<double> sliding_dct_weights(const SlidingDctKernel& k) {
  const double period = k.cosine_period();
  std::vector<double> h(2 * static_cast<std::size_t>(k.radius) + 1, 0.0);
  std::vector<double> c(static_cast<std::size_t>(k.order()) + 1);
  for (int n = -k.radius; n <= k.radius; ++n) {
    cosine_harmonics(2.0 * std::numbers::pi * n / period, c);
    double s = 0.0;
    for (int j = 0; j <= k.order(); ++j) s += k.beta[static_cast<std::size_t>(j)] * c[static_cast<std::size_t>(j)];
    h[static_cast<std::size_t>(n + k.radius)] = s;
  }
  return h;
}

double sliding_dct_max_error(const SlidingDctKernel& k, double sigma) {
  // Beyond the window the kernel is 0 and the error is the Gaussian itself, largest just outside.
  const std::vector<double> g = reference_gaussian(sigma, k.radius + 1);
  const std::vector<double> h = sliding_dct_weights(k);
  double worst = g.front(), peak = 0.0;
  for (std::size_t i = 0; i < h.size(); ++i) worst = std::max(worst, std::abs(h[i] - g[i + 1]));
  for (double v : g) peak = std::max(peak, v);
  return worst / peak;
}

namespace {

// The radius in [lo, hi] (at most 49 of them, evenly spread) whose series has the smallest max error.
SlidingDctKernel best_in(double sigma, int order, int lo, int hi) {
  const int step = std::max(1, (hi - lo) / 48);
  SlidingDctKernel best;
  double best_error = 0.0;
  for (int r = lo; r <= hi; r += step) {
    SlidingDctKernel k = sliding_dct_kernel_for_radius(sigma, order, r);
    const double e = sliding_dct_max_error(k, sigma);
    if (best.beta.empty() || e < best_error) best = std::move(k), best_error = e;
  }
  return best;
}

}  // namespace

SlidingDctKernel sliding_dct_kernel(double sigma, int order) {
  check(sigma, order);
  if (order == 0) order = kSlidingDctDefaultOrder;
  // The tail beyond R (about exp(-rho^2/2)) and the first dropped frequency (about
  // exp(-(pi (K+1) / rho)^2 / 2)) balance near rho = R / sigma = sqrt(pi (K+1)). Search around it
  // up to sigma 64; beyond, the best rho has converged: scale the one found at 64.
  constexpr double kSearchedUpTo = 64.0;
  const double rho = std::sqrt(std::numbers::pi * (order + 1));
  const double s = std::min(sigma, kSearchedUpTo);
  const int lo = std::max(1, static_cast<int>(std::floor((rho - 1.0) * s)));
  const int hi = std::max(lo, static_cast<int>(std::ceil((rho + 1.0) * s)) + 1);
  SlidingDctKernel best = best_in(s, order, lo, hi);
  if (sigma <= kSearchedUpTo) return best;
  const double best_rho = best.radius / kSearchedUpTo;
  return sliding_dct_kernel_for_radius(sigma, order, static_cast<int>(std::lround(best_rho * sigma)));
}

double sliding_dct_error_against(const SlidingDctKernel& k, const std::vector<double>& weights) {
  const std::vector<double> h = sliding_dct_weights(k);
  if (h.size() != weights.size()) throw InvalidArgument("sliding-dct: the weights are not the window's");
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < h.size(); ++i) worst = std::max(worst, std::abs(h[i] - weights[i]));
  for (double v : weights) peak = std::max(peak, v);
  return worst / peak;
}

namespace {

// The series of fir's kernel with cosines of period P: the Fourier coefficients of the Gaussian's
// periodic sum (Poisson summation), scaled by fir's normalisation over the window.
SlidingDctKernel matching_fir_with_period(double sigma, int order, int radius, double period, double scale) {
  SlidingDctKernel k;
  k.radius = radius;
  k.period = period;
  k.beta.resize(static_cast<std::size_t>(order) + 1);
  const double area = scale * sigma * std::sqrt(2.0 * std::numbers::pi) / period;
  for (int j = 0; j <= order; ++j) {
    const double f = 2.0 * std::numbers::pi * j * sigma / period;
    k.beta[static_cast<std::size_t>(j)] = (j == 0 ? 1.0 : 2.0) * area * std::exp(-0.5 * f * f);
  }
  return k;
}

}  // namespace

SlidingDctKernel sliding_dct_kernel_matching_fir(double sigma, int order, int radius) {
  check(sigma, order);
  if (order == 0) order = kSlidingDctDefaultOrder;
  if (radius < 1) throw InvalidArgument("sliding-dct: radius must be >= 1");
  // Searched on the kernel itself up to sigma 64 (at most 64 periods, from just past the window to 12
  // sigma beyond it); beyond, on the same kernel scaled to sigma 64, its best period scaled back.
  constexpr double kSearchedUpTo = 64.0;
  // (A radius far beyond the Gaussian - an explicit one - shrinks the search too: at most 512 samples.)
  const double shrink = std::min({1.0, kSearchedUpTo / sigma, 512.0 / radius});
  const double s = sigma * shrink;
  const int r = std::max(1, static_cast<int>(std::lround(radius * shrink)));
  const std::vector<double> w = gaussian_weights(s, r);
  double raw = 0.0;  // fir's normalisation: 1 / the window's sum of exp(-m^2 / (2 s^2))
  for (int m = -r; m <= r; ++m) raw += std::exp(-0.5 * (m / s) * (m / s));
  const double lo = r + 1.0, hi = r + 1.0 + 12.0 * s;
  double best_period = lo, best_error = INFINITY;
  for (int i = 0; i <= 64; ++i) {
    const double p = lo + (hi - lo) * i / 64.0;
    const double e = sliding_dct_error_against(matching_fir_with_period(s, order, r, p, 1.0 / raw), w);
    if (e < best_error) best_error = e, best_period = p;
  }
  if (shrink == 1.0) return matching_fir_with_period(sigma, order, radius, best_period, 1.0 / raw);
  double full = 0.0;
  for (int m = -radius; m <= radius; ++m) full += std::exp(-0.5 * (m / sigma) * (m / sigma));
  return matching_fir_with_period(sigma, order, radius, best_period / shrink, 1.0 / full);
}

}  // namespace fastblur::kernel
