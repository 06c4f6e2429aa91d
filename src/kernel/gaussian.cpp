// Sampled Gaussian weights, truncation and the precision rules of seed 003.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {

namespace {
std::string number_text(double v) {  // %g: 1e+12, 4, 0.5 (std::to_string printed 1000000000000.000000)
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}
}  // namespace

int radius_from_truncate(double sigma, double truncate) {
  if (!std::isfinite(sigma) || sigma < 0.0)
    throw InvalidArgument("sigma " + number_text(sigma) + " is invalid: expected a finite value >= 0");
  if (!std::isfinite(truncate) || truncate < 0.0)
    throw InvalidArgument("truncate " + number_text(truncate) + " is invalid: expected a finite value >= 0");
  const double r = std::floor(truncate * sigma + 0.5);  // int() of a non-negative value
  if (r > kMaxRadius)
    throw InvalidArgument("sigma " + number_text(sigma) + " with truncate " + number_text(truncate) + " gives radius " +
                          number_text(r) + ", beyond the maximum " + std::to_string(kMaxRadius));
  return static_cast<int>(r);
}

namespace {
// numpy.add.reduce's pairwise summation of contiguous doubles (numpy/core/src/umath/loops_utils.h):
// eight running sums in blocks of up to 128 values, halves above that.
double numpy_pairwise_sum(const double* a, std::size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + static_cast<std::size_t>(j)];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_pairwise_sum(a, n2) + numpy_pairwise_sum(a + n2, n - n2);
}
}  // namespace

std::vector<double> gaussian_weights(double sigma, int radius) {
  if (!(sigma > 0.0) || !std::isfinite(sigma))
    throw InvalidArgument("gaussian_weights: sigma must be finite and > 0, got " + std::to_string(sigma));
  if (radius < 0 || radius > kMaxRadius)
    throw InvalidArgument("gaussian_weights: radius must be in 0.." + std::to_string(kMaxRadius) +
                          ", got " + std::to_string(radius));
  // NumPy's operations, as scipy.ndimage samples its kernel: exp(-0.5 / sigma^2 * x^2) with x^2 an
  // exact integer, normalised by NumPy's pairwise sum. (NumPy's exp is its own SIMD code on some CPUs
  // and may round a weight differently from libm's in the last bit.)
  std::vector<double> w(2 * static_cast<std::size_t>(radius) + 1);
  const double a = -0.5 / (sigma * sigma);
  for (int i = -radius; i <= radius; ++i) {
    const auto x2 = static_cast<double>(static_cast<std::int64_t>(i) * i);
    w[static_cast<std::size_t>(i + radius)] = std::exp(a * x2);
  }
  const double sum = numpy_pairwise_sum(w.data(), w.size());
  for (double& v : w) v /= sum;
  return w;
}

std::vector<double> reference_gaussian(double sigma, int half) {
  if (!(sigma > 0.0)) throw InvalidArgument("reference_gaussian: sigma must be > 0");
  const int wide = std::max(half, static_cast<int>(std::ceil(8.0 * sigma)));
  double sum = 0.0;
  for (int x = -wide; x <= wide; ++x) sum += std::exp(-0.5 * x * double(x) / (sigma * sigma));
  std::vector<double> g(2 * static_cast<std::size_t>(half) + 1);
  for (int x = -half; x <= half; ++x)
    g[static_cast<std::size_t>(x + half)] = std::exp(-0.5 * x * double(x) / (sigma * sigma)) / sum;
  return g;
}

namespace {
// Sum of exp(-x^2/(2 sigma^2)) for x = from.. (until the terms no longer matter).
double tail_sum(double sigma, long long from) {
  const double a = -0.5 / (sigma * sigma);
  double s = 0.0;
  for (long long x = from;; ++x) {
    const double v = std::exp(a * static_cast<double>(x) * static_cast<double>(x));
    s += v;
    if (v < 1e-300 || (v < s * 1e-18 && x > from + 8)) break;
  }
  return s;
}
void check_sigma(double sigma, const char* who) {
  if (!(sigma > 0.0) || !std::isfinite(sigma) || sigma > 1e7)
    throw InvalidArgument(std::string(who) + ": sigma must be in (0, 1e7], got " + std::to_string(sigma));
}
}  // namespace

double dropped_weight(double sigma, int radius) {
  check_sigma(sigma, "dropped_weight");
  if (radius < 0) throw InvalidArgument("dropped_weight: radius must be >= 0");
  const double half_total = tail_sum(sigma, 1);           // x >= 1
  const double outside = tail_sum(sigma, radius + 1LL);    // x > radius, one side
  return 2.0 * outside / (1.0 + 2.0 * half_total);
}

int radius_for_precision(double sigma, double epsilon) {
  check_sigma(sigma, "radius_for_precision");
  if (!(epsilon > 0.0 && epsilon < 1.0))
    throw InvalidArgument("radius_for_precision: epsilon must be in (0, 1), got " + std::to_string(epsilon));
  // The dropped weight falls monotonically with the radius: bisect between 0 and a safe bound.
  int lo = 0, hi = static_cast<int>(std::ceil(40.0 * sigma)) + 2;
  if (dropped_weight(sigma, 0) < epsilon) return 0;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (dropped_weight(sigma, mid) < epsilon) hi = mid; else lo = mid;
  }
  return hi;
}

double sigma_for_precision(int radius, double epsilon) {
  if (radius < 1) throw InvalidArgument("sigma_for_precision: radius must be >= 1");
  if (!(epsilon > 0.0 && epsilon < 1.0 / (2.0 * radius + 1.0)))
    throw InvalidArgument("sigma_for_precision: epsilon must be in (0, 1/(2*radius+1)) - a flat kernel "
                          "of this radius already has every weight at 1/(2*radius+1)");
  // The normalised outermost weight grows with sigma (towards 1/(2r+1)): bisect on sigma.
  auto edge = [&](double s) { return gaussian_weights(s, radius).front(); };
  double lo = 1e-3, hi = 1e6;
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = std::sqrt(lo * hi);
    if (edge(mid) < epsilon) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace fastblur::kernel
