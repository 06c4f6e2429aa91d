// Sigma compensation and the impulse response of blurring at reduced resolution (seed 002).
#include <algorithm>
#include <cmath>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {

double downsample_added_variance(int f) {
  if (f != 2 && f != 4 && f != 8)
    throw InvalidArgument("downsample factor must be 2, 4 or 8, got " + std::to_string(f));
  // Full-resolution sample i sits at low-resolution position u = (i - (f-1)/2) / f, a fraction
  // t = u - floor(u) past a block centre. The tent shares it between the two centres around it and
  // the interpolation reads it back from them: each by weights 1 - t and t, variance t (1 - t) f^2.
  double interp = 0.0;
  for (int i = 0; i < f; ++i) {
    const double u = (i - (f - 1) / 2.0) / f, t = u - std::floor(u);
    interp += t * (1.0 - t) * f * f / f;
  }
  return 2.0 * interp;
}

int downsample_low_radius(double low_sigma, double truncate) {
  return std::max(1, radius_from_truncate(low_sigma, truncate));
}

namespace {
double sampled_variance(double s, double truncate) {
  const int r = downsample_low_radius(s, truncate);
  const std::vector<double> w = gaussian_weights(s, r);
  double v = 0.0;
  for (int x = -r; x <= r; ++x) v += w[static_cast<std::size_t>(x + r)] * x * x;
  return v;
}
}  // namespace

double downsample_low_sigma(double sigma, int f, double truncate) {
  const double extra = downsample_added_variance(f);
  if (!(sigma * sigma > extra) || !std::isfinite(sigma))
    throw InvalidArgument("downsample at factor " + std::to_string(f) + " needs sigma > " +
                          std::to_string(std::sqrt(extra)) + " (the resampling alone blurs that much), got " +
                          std::to_string(sigma));
  const double target = (sigma * sigma - extra) / (f * f);
  // The sampled variance grows with s (up to small steps where the radius jumps): bisect.
  double lo = 0.0, hi = std::sqrt(target) * 2.0 + 1.0;
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (sampled_variance(mid, truncate) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::vector<double> downsample_tent(int f) {
  (void)downsample_added_variance(f);  // refuses factors other than 2 and 4
  std::vector<double> tent;
  for (int k = -f / 2; k < 3 * f / 2; ++k) tent.push_back((1.0 - std::abs(k - (f - 1) / 2.0) / f) / f);
  return tent;
}

std::vector<double> downsample_impulse_response(double sigma, int f, double truncate, int phase, int half) {
  if (phase < 0 || phase >= f) throw InvalidArgument("downsample_impulse_response: phase must be 0 to factor - 1");
  if (half < 0) throw InvalidArgument("downsample_impulse_response: half must be >= 0");
  const double low = downsample_low_sigma(sigma, f, truncate);
  const int r = downsample_low_radius(low, truncate);
  const std::vector<double> w = gaussian_weights(low, r);
  // The impulse sits at `phase` in block 0, at low-resolution position u0 = (phase - (f-1)/2) / f:
  // the tent gives the centres around it (1 - t0) / f and t0 / f; the low-resolution blur spreads
  // each to r blocks either side; position i interpolates between blocks floor(u) and floor(u) + 1
  // at u = (i - (f-1)/2) / f, as the filter does.
  const double u0 = (phase - (f - 1) / 2.0) / f, fb0 = std::floor(u0), t0 = u0 - fb0;
  const auto b0 = static_cast<std::int64_t>(fb0);
  const auto kernel_at = [&](std::int64_t d) { return std::abs(d) > r ? 0.0 : w[static_cast<std::size_t>(d + r)]; };
  const auto blurred = [&](std::int64_t b) { return ((1.0 - t0) * kernel_at(b - b0) + t0 * kernel_at(b - b0 - 1)) / f; };
  std::vector<double> h(2 * static_cast<std::size_t>(half) + 1);
  for (int j = -half; j <= half; ++j) {
    const double u = (phase + j - (f - 1) / 2.0) / f, fb = std::floor(u), t = u - fb;
    const auto b = static_cast<std::int64_t>(fb);
    h[static_cast<std::size_t>(j + half)] = (1.0 - t) * blurred(b) + t * blurred(b + 1);
  }
  return h;
}

// Quality follows sigma / f (the low-resolution sigma): with the tent, factor 4 reaches factor 2's
// error at sigma 5.8 (about 3e-3 in 2D) from sigma 20, at a quarter of the low-resolution samples
// (bench/downsample_prefilter_error.py).
int downsample_factor_for(double sigma) { return sigma >= 20.0 ? 4 : 2; }

}  // namespace fastblur::kernel
