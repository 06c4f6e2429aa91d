// Dual Kawase schedules (Bjorge, SIGGRAPH 2015): the exact phase-averaged variance of the chain,
// the offset that makes it sigma^2, and the number of levels that keeps the shape Gaussian.
#include <algorithm>
#include <cmath>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel_dual_kawase.hpp"

namespace fastblur::kernel {
namespace {

void check_levels(int levels) {
  if (levels < 1 || levels > kDualKawaseMaxLevels)
    throw InvalidArgument("dual-kawase levels is " + std::to_string(levels) + ": expected 1 to " +
                          std::to_string(kDualKawaseMaxLevels));
}

void check_offset(double d) {
  if (!(d >= 0.0) || !std::isfinite(d) || d > kDualKawaseMaxOffset)
    throw InvalidArgument("dual-kawase offset is " + std::to_string(d) + ": expected 0 to " +
                          std::to_string(kDualKawaseMaxOffset));
}

void check_sigma(double sigma) {
  if (!std::isfinite(sigma) || !(sigma >= kDualKawaseMinSigma))
    throw InvalidArgument("dual-kawase sigma is " + std::to_string(sigma) + ": the chain's smallest sigma is " +
                          std::to_string(kDualKawaseMinSigma) +
                          " (one level: a 2x2 box average and a bilinear upsample)");
}

// The weight of a texel centred at c in a bilinear fetch at p (a GPU's linear filter).
double hat(double p, double c) { return std::max(0.0, 1.0 - std::abs(p - c)); }

// 1D marginal of a down pass: the weight of source texel i (centre c_i) in target texel k
// (centre 2k+1 in source texels), h = d/2: 1/2 of the centre fetch, 1/4 of each of the fetches
// at +-h (the four diagonal taps, 1/8 each, summed over the other axis).
double down_weight(std::int64_t k, double ci, double h) {
  const double p = 2.0 * static_cast<double>(k) + 1.0;
  return 0.5 * hat(p, ci) + 0.25 * (hat(p + h, ci) + hat(p - h, ci));
}

// 1D marginal of an up pass: the weight of coarse texel k (centre ck) in fine texel j (centre
// (j + 1/2)/2 in coarse texels): 1/12 each at +-d, 2/12 at 0 (the taps on the other axis), 4/12
// each at +-d/2 (two diagonal taps each).
double up_weight(std::int64_t j, double ck, double d) {
  const double q = (static_cast<double>(j) + 0.5) / 2.0;
  return (hat(q + d, ck) + hat(q - d, ck)) / 12.0 + 2.0 * hat(q, ck) / 12.0 +
         4.0 * (hat(q + 0.5 * d, ck) + hat(q - 0.5 * d, ck)) / 12.0;
}

// The variance (in fine texels^2) an up pass adds: its column for a coarse texel sums to 2 and is
// symmetric about the texel's centre (2k+1 in fine texels), so it adds no mean.
double up_variance(double d) {
  const double ck = 0.5;  // coarse texel 0
  const std::int64_t reach = static_cast<std::int64_t>(std::ceil(2.0 * d)) + 4;
  double sum = 0.0, m2 = 0.0;
  for (std::int64_t j = -reach; j <= reach + 2; ++j) {
    const double w = up_weight(j, ck, d), x = static_cast<double>(j) + 0.5 - 1.0;
    sum += w;
    m2 += w * x * x;
  }
  return m2 / sum;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// One level of the 1D marginal chain on a line (zero beyond it): the down pass, then (after the
// coarser levels) the up pass.
std::vector<double> down_line(const std::vector<double>& s, double d) {
  std::vector<double> t(s.size() / 2, 0.0);
  const double h = 0.5 * d;
  const std::int64_t n = static_cast<std::int64_t>(s.size());
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(t.size()); ++k) {
    const double p = 2.0 * static_cast<double>(k) + 1.0;
    const std::int64_t lo = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(p - h - 1.5)));
    const std::int64_t hi = std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(std::ceil(p + h + 0.5)));
    double v = 0.0;
    for (std::int64_t i = lo; i <= hi; ++i) v += down_weight(k, static_cast<double>(i) + 0.5, h) * s[static_cast<std::size_t>(i)];
    t[static_cast<std::size_t>(k)] = v;
  }
  return t;
}

std::vector<double> up_line(const std::vector<double>& s, double d) {
  std::vector<double> t(s.size() * 2, 0.0);
  const std::int64_t n = static_cast<std::int64_t>(s.size());
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(t.size()); ++j) {
    const double q = (static_cast<double>(j) + 0.5) / 2.0;
    const std::int64_t lo = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(q - d - 1.5)));
    const std::int64_t hi = std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(std::ceil(q + d + 0.5)));
    double v = 0.0;
    for (std::int64_t k = lo; k <= hi; ++k) v += up_weight(j, static_cast<double>(k) + 0.5, d) * s[static_cast<std::size_t>(k)];
    t[static_cast<std::size_t>(j)] = v;
  }
  return t;
}

// The fine pixels an impulse's response can reach: a down pass at level l reaches (h + 1) texels
// of that level, an up pass to level l (d + 1) texels of level l + 1.
std::int64_t response_reach(int levels, double d) {
  const double block = std::ldexp(1.0, levels);
  return static_cast<std::int64_t>(std::ceil((block - 1.0) * (2.5 * d + 3.0))) + 2;
}

}  // namespace

double dual_kawase_variance(int levels, double offset) {
  check_levels(levels);
  check_offset(offset);
  const double d = offset, h = 0.5 * d, up2 = up_variance(d);
  // m1[p], m2[p]: mean and second moment of the displacement (in texels of the level) from an
  // impulse at phase p of the sub-chain below a level to its output; the sub-chain below the
  // coarsest level is the identity. Going one level finer, an impulse at texel i goes through the
  // down pass to texels k (probability 2 w(k, i): the columns sum to 1/2), the sub-chain below
  // from k's phase (displacements doubling in the finer units), and the up pass (mean 0, variance
  // up2, the same from every coarse texel).
  std::vector<double> m1{0.0}, m2{0.0};
  for (int level = levels - 1; level >= 0; --level) {
    const std::int64_t P = static_cast<std::int64_t>(m1.size());
    std::vector<double> n1(static_cast<std::size_t>(2 * P)), n2(static_cast<std::size_t>(2 * P));
    for (std::int64_t i = 0; i < 2 * P; ++i) {
      const double ci = static_cast<double>(i) + 0.5;
      const std::int64_t k_lo = static_cast<std::int64_t>(std::floor((ci - 2.0 - h) / 2.0)) - 1;
      const std::int64_t k_hi = static_cast<std::int64_t>(std::ceil((ci + h) / 2.0)) + 1;
      double a1 = 0.0, a2 = 0.0;
      for (std::int64_t k = k_lo; k <= k_hi; ++k) {
        const double w = 2.0 * down_weight(k, ci, h);
        if (w == 0.0) continue;
        const std::size_t ph = static_cast<std::size_t>(k - floor_div(k, P) * P);
        const double step = 2.0 * static_cast<double>(k) + 1.0 - ci;
        a1 += w * (step + 2.0 * m1[ph]);
        a2 += w * (step * step + 4.0 * step * m1[ph] + 4.0 * m2[ph]);
      }
      n1[static_cast<std::size_t>(i)] = a1;
      n2[static_cast<std::size_t>(i)] = a2 + up2;
    }
    m1 = std::move(n1);
    m2 = std::move(n2);
  }
  double v = 0.0;
  for (double x : m2) v += x;
  return v / static_cast<double>(m2.size());
}

double dual_kawase_min_sigma(int levels) {
  check_levels(levels);
  return std::sqrt((std::ldexp(1.0, 2 * levels) - 1.0) / 3.0);
}

double dual_kawase_solve_offset(double sigma, int levels) {
  check_levels(levels);
  check_sigma(sigma);
  const double target = sigma * sigma, least = dual_kawase_min_sigma(levels);
  if (sigma < least)
    throw InvalidArgument("dual-kawase: sigma " + std::to_string(sigma) + " is below the smallest sigma of " +
                          std::to_string(levels) + " levels, " + std::to_string(least) + " (use fewer levels)");
  if (target <= dual_kawase_variance(levels, 0.25)) return 0.0;  // flat up to 1/4: the minimum
  if (target > dual_kawase_variance(levels, kDualKawaseMaxOffset))
    throw InvalidArgument("dual-kawase: sigma " + std::to_string(sigma) + " needs an offset above " +
                          std::to_string(kDualKawaseMaxOffset) + " at " + std::to_string(levels) + " levels");
  // Strictly increasing above 1/4: bisection.
  double lo = 0.25, hi = 1.0;
  while (dual_kawase_variance(levels, hi) < target) hi = std::min(2.0 * hi, kDualKawaseMaxOffset);
  for (int it = 0; it < 200 && hi - lo > 4e-16 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (dual_kawase_variance(levels, mid) < target ? lo : hi) = mid;
  }
  const double vl = dual_kawase_variance(levels, lo), vh = dual_kawase_variance(levels, hi);
  return (target - vl <= vh - target) ? lo : hi;
}

int dual_kawase_levels_for(double sigma) {
  check_sigma(sigma);
  int levels = 1;
  for (int l = 2; l <= kDualKawaseMaxLevels && dual_kawase_min_sigma(l) <= sigma; ++l) {
    // The offsets below which one level fewer is closer to the Gaussian: where the two levels'
    // worst-phase max errors (dual_kawase_error) cross, found by bisection.
    const double threshold = l == 2 ? 0.786 : l == 3 ? 1.493 : l == 4 ? 1.529 : 1.556;
    if (sigma * sigma < dual_kawase_variance(l, threshold)) break;  // its offset would be below it
    levels = l;
  }
  return levels;
}

DualKawaseSchedule dual_kawase_schedule(double sigma_x, double sigma_y, int levels, double offset) {
  check_sigma(sigma_x);
  check_sigma(sigma_y);
  if (levels != 0) check_levels(levels);
  check_offset(offset);
  DualKawaseSchedule s;
  if (offset > 0.0) {
    s.offset = {offset, offset};
    s.levels = levels;
    if (levels == 0) {
      const double target = std::log(sigma_x * sigma_y);  // log of the geometric mean's square
      double best = INFINITY;
      for (int l = 1; l <= kDualKawaseMaxLevels; ++l) {
        const double e = std::abs(std::log(dual_kawase_variance(l, offset)) - target);
        if (e < best) best = e, s.levels = l;
      }
    }
    return s;
  }
  s.levels = levels != 0 ? levels : std::min(dual_kawase_levels_for(sigma_x), dual_kawase_levels_for(sigma_y));
  s.offset = {dual_kawase_solve_offset(sigma_x, s.levels), dual_kawase_solve_offset(sigma_y, s.levels)};
  return s;
}

std::vector<double> dual_kawase_marginal(int levels, double offset, int phase) {
  check_levels(levels);
  check_offset(offset);
  const std::int64_t block = std::int64_t{1} << levels;
  if (phase < 0 || phase >= block)
    throw InvalidArgument("dual_kawase_marginal: phase " + std::to_string(phase) + " is outside 0.." +
                          std::to_string(block - 1));
  const std::int64_t reach = response_reach(levels, offset);
  if (reach > (std::int64_t{1} << 26)) throw InvalidArgument("dual_kawase_marginal: the response would be too long");
  // A line of whole blocks with the impulse in the middle one and `reach` to spare on each side.
  const std::int64_t blocks = 2 * ((reach + block - 1) / block) + 3;
  const std::int64_t pos = (blocks / 2) * block + phase;
  std::vector<double> line(static_cast<std::size_t>(blocks * block), 0.0);
  line[static_cast<std::size_t>(pos)] = 1.0;
  for (int l = 0; l < levels; ++l) line = down_line(line, offset);
  for (int l = 0; l < levels; ++l) line = up_line(line, offset);
  return std::vector<double>(line.begin() + (pos - reach), line.begin() + (pos + reach + 1));
}

double dual_kawase_error(int levels, double offset) {
  const double sigma = std::sqrt(dual_kawase_variance(levels, offset));
  const int wide = static_cast<int>(std::ceil(8.0 * sigma));
  const auto g = [&](double x) { return std::exp(-0.5 * x * x / (sigma * sigma)); };
  double sum = 0.0;
  for (int x = -wide; x <= wide; ++x) sum += g(x);
  double worst = 0.0;
  for (int phase = 0; phase < (1 << levels); ++phase) {
    const std::vector<double> h = dual_kawase_marginal(levels, offset, phase);
    const std::int64_t half = static_cast<std::int64_t>(h.size() / 2);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(h.size()); ++i)
      worst = std::max(worst, std::abs(h[static_cast<std::size_t>(i)] - g(static_cast<double>(i - half)) / sum));
  }
  return worst * sum;  // relative to the Gaussian's peak, 1 / sum
}

}  // namespace fastblur::kernel
