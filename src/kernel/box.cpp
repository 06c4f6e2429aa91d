// Box-filter widths: extended boxes whose variance is exact for any real sigma, and seed 002's
// integer widths.
#include <algorithm>
#include <cmath>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {
void check(double sigma, int passes) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma) || sigma > 1e7)
    throw InvalidArgument("box passes: sigma must be in [0, 1e7], got " + std::to_string(sigma));
  if (passes < 1 || passes > 6)
    throw InvalidArgument("box passes: the number of passes must be 1 to 6, got " + std::to_string(passes));
}
}  // namespace

double BoxPass::variance() const {
  const double r = radius;
  return (r * (r + 1) * (2 * r + 1) / 3.0 + 2.0 * alpha * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * alpha);
}

std::vector<BoxPass> extended_box_passes(double sigma, int passes) {
  check(sigma, passes);
  const double v = sigma * sigma / passes;
  // The widest plain box whose variance r(r+1)/3 does not exceed v ...
  int r = static_cast<int>(std::floor(0.5 * std::sqrt(12.0 * v + 1.0) - 0.5));
  while (r > 0 && r * (r + 1.0) / 3.0 > v) --r;
  while ((r + 1.0) * (r + 2.0) / 3.0 <= v) ++r;
  // ... and the end weight alpha that brings it to exactly v (solving variance() == v).
  const double alpha = (2 * r + 1) * (v - r * (r + 1) / 3.0) / (2.0 * ((r + 1.0) * (r + 1.0) - v));
  return std::vector<BoxPass>(static_cast<std::size_t>(passes), BoxPass{r, alpha});
}

std::vector<BoxPass> integer_box_passes(double sigma, int passes) {
  check(sigma, passes);
  // Kovesi: ideal width sqrt(12 s^2 / n + 1); wl the odd width at or below it, wu = wl + 2;
  // m passes of wl and n - m of wu, m rounded so the variance is closest to sigma^2.
  const double ideal = std::sqrt(12.0 * sigma * sigma / passes + 1.0);
  int wl = static_cast<int>(std::floor(ideal));
  if (wl % 2 == 0) --wl;
  wl = std::max(wl, 1);
  const int wu = wl + 2;
  const double m_ideal = (12.0 * sigma * sigma - passes * wl * wl - 4.0 * passes * wl - 3.0 * passes) / (-4.0 * wl - 4.0);
  const int m = std::clamp(static_cast<int>(std::lround(m_ideal)), 0, passes);
  std::vector<BoxPass> out;
  for (int i = 0; i < passes; ++i) out.push_back({(i < m ? wl : wu) / 2, 0.0});
  return out;
}

double achieved_sigma(const std::vector<BoxPass>& passes) {
  double v = 0.0;
  for (const BoxPass& p : passes) v += p.variance();
  return std::sqrt(v);
}

std::vector<double> box_kernel(const std::vector<BoxPass>& passes) {
  std::vector<double> k{1.0};
  for (const BoxPass& p : passes) {
    const int half = p.radius + 1;
    const double norm = 2 * p.radius + 1 + 2 * p.alpha;
    std::vector<double> out(k.size() + 2 * static_cast<std::size_t>(half), 0.0);
    for (std::size_t i = 0; i < k.size(); ++i)
      for (int j = -half; j <= half; ++j) {
        const double w = (std::abs(j) <= p.radius ? 1.0 : p.alpha) / norm;
        out[i + static_cast<std::size_t>(j + half)] += k[i] * w;
      }
    k = std::move(out);
  }
  return k;
}

}  // namespace fastblur::kernel
