// Seed 003's mip-chain Poisson-disk blur: the sample set, its levels, and the scale solved for sigma.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::kernel {
namespace {

// SplitMix64 (Steele et al. 2014): fixed arithmetic, so the set is the same everywhere (the
// standard distributions are not specified exactly enough for that).
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
};

// The truncated Gaussian's mass inside the disk: 1 - exp(-rho^2 / 2).
double disk_mass() { return -std::expm1(-0.5 * kMipPoissonRadius * kMipPoissonRadius); }

double frac(double v) { return v - std::floor(v); }

// Mean of t(1 - t) over the s phases t = (phi + j)/s, j = 0..s-1, of a texel of s pixels.
double mean_bilinear_spread(double phi, double s) {
  const double mean_t = (phi + 0.5 * (s - 1.0)) / s;
  const double mean_t2 = (phi * phi + phi * (s - 1.0) + (s - 1.0) * (2.0 * s - 1.0) / 6.0) / (s * s);
  return mean_t - mean_t2;
}

// Variance per axis of a bilinear fetch at level l (texels of s = 2^l pixels) about the fetched point, averaged over the pixel phases and the rotations of an
// offset of length `radius`.
double level_variance(int l, double radius) {
  const double s = std::ldexp(1.0, l);
  constexpr int kAngles = 64;  // the midpoint rule over a quarter turn (the integrand's symmetry)
  double spread = 0.0;
  for (int k = 0; k < kAngles; ++k) {
    const double o = radius * std::cos((k + 0.5) * (0.5 * std::numbers::pi) / kAngles);
    // The phase of the point within a texel: frac(o) at level 0; frac(o + 1/2) for even s.
    const double phi = frac(o + (l == 0 ? 0.0 : 0.5));
    spread += mean_bilinear_spread(phi, s);
  }
  // A texel of level l is the image filtered by l levels of [1 3 3 1]/8 (variance 3/4 in the
  // level's own texels): 3/4 (1 + 4 + ... + 4^(l-1)) = (4^l - 1)/4 pixels^2.
  return (s * s - 1.0) / 4.0 + s * s * spread / kAngles;
}

double lod_for(double area, double smaller_scale) {
  const double side = smaller_scale * std::sqrt(area);
  if (!(side > 0.0)) return 0.0;
  return std::clamp(std::log2(side) + kMipPoissonLodBias, 0.0, static_cast<double>(kMipPoissonMaxLevel));
}

// The phase- and rotation-averaged variance along an axis of scale k when the levels follow from
// smaller_scale.
double axis_variance(const std::vector<PoissonSample>& set, double k, double smaller_scale) {
  double v = 0.0;
  for (const PoissonSample& s : set) {
    const double r = std::hypot(s.x, s.y);
    v += 0.5 * k * k * r * r + mip_fetch_variance(lod_for(s.area, smaller_scale), k * r);
  }
  return v / static_cast<double>(set.size());
}

// The k in [0, hi] at which f(k) = target, f continuous with f(0) <= target <= f(hi).
template <class F>
double bisect(F f, double target, double hi) {
  double lo = 0.0;
  for (int i = 0; i < 100 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < target ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

std::vector<PoissonSample> poisson_gaussian_samples(int count) {
  if (count < kMipPoissonMinSamples || count > kMipPoissonMaxSamples || count % 4 != 0)
    throw InvalidArgument("mip-poisson sample count is " + std::to_string(count) + ": expected a multiple of 4 from " +
                          std::to_string(kMipPoissonMinSamples) + " to " + std::to_string(kMipPoissonMaxSamples));
  // Radially stratified Poisson-disk points in the unit disk: one base point per annulus of equal
  // area (so the centre is neither empty nor crowded: a set of free best candidates leaves a hole
  // there, which shows as a dark centre and a bright ring in the response), at the annulus's area
  // midpoint; its angle the best of 64 candidates (the farthest from the points placed so far);
  // then its three quarter-turn copies.
  SplitMix64 rng{0x5eed0f003ull + static_cast<std::uint64_t>(count)};
  std::vector<std::array<double, 2>> disk;
  const auto rotations = [](double x, double y) {
    return std::array<std::array<double, 2>, 4>{{{x, y}, {-y, x}, {-x, -y}, {y, -x}}};
  };
  for (int k = 0; k < count / 4; ++k) {
    const double ru = std::sqrt((4.0 * k + 2.0) / count);
    double best = -1.0, angle = 0.0;
    for (int c = 0; c < 64; ++c) {
      const double a = 0.5 * std::numbers::pi * rng.uniform();
      const double x = ru * std::cos(a), y = ru * std::sin(a);
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& p : disk) nearest = std::min(nearest, std::hypot(x - p[0], y - p[1]));
      if (nearest > best) best = nearest, angle = a;
    }
    for (const auto& p : rotations(ru * std::cos(angle), ru * std::sin(angle))) disk.push_back(p);
  }
  // Warp radially: the disk's radial distribution r_u^2 becomes the truncated Gaussian's
  // (1 - exp(-r^2/2)) / mass, so each point stands for an equal share of the Gaussian's mass.
  const double mass = disk_mass();
  std::vector<PoissonSample> set;
  set.reserve(disk.size());
  for (const auto& p : disk) {
    const double ru = std::hypot(p[0], p[1]);
    const double r = std::sqrt(-2.0 * std::log1p(-ru * ru * mass));
    const double f = ru > 0.0 ? r / ru : 1.0;
    const double density = std::exp(-0.5 * r * r) / (2.0 * std::numbers::pi * mass);
    set.push_back({p[0] * f, p[1] * f, 1.0 / (static_cast<double>(count) * density)});
  }
  return set;
}

double interleaved_gradient_noise(double x, double y, int frame) {
  x += 5.588238 * frame;
  y += 5.588238 * frame;
  return frac(52.9829189 * frac(0.06711056 * x + 0.00583715 * y));
}

double mip_fetch_variance(double lod, double radius) {
  if (!(lod >= 0.0) || !std::isfinite(lod) || !std::isfinite(radius))
    throw InvalidArgument("mip_fetch_variance: lod must be >= 0 and radius finite");
  const int l0 = static_cast<int>(std::floor(lod));
  const double f = lod - l0;
  const double v0 = level_variance(l0, std::abs(radius));
  return f > 0.0 ? (1.0 - f) * v0 + f * level_variance(l0 + 1, std::abs(radius)) : v0;
}

MipPoissonSchedule mip_poisson_schedule(double sigma_x, double sigma_y, int count) {
  for (double s : {sigma_x, sigma_y})
    if (!std::isfinite(s) || !(s > 0.0) || s > 1e5)
      throw InvalidArgument("mip-poisson sigma is " + std::to_string(s) + ": expected a value in (0, 1e5]");
  MipPoissonSchedule out;
  out.samples = poisson_gaussian_samples(count == 0 ? kMipPoissonDefaultSamples : count);
  const bool x_smaller = sigma_x <= sigma_y;
  const double small = x_smaller ? sigma_x : sigma_y, large = x_smaller ? sigma_y : sigma_x;
  // The variance grows with the scale from 0; 2 sigma bounds the root (E|s|^2/2 is about 0.95).
  const double k_small =
      bisect([&](double k) { return axis_variance(out.samples, k, k); }, small * small, 2.0 * small + 2.0);
  const double k_large =
      bisect([&](double k) { return axis_variance(out.samples, k, k_small); }, large * large, 2.0 * large + 2.0);
  out.scale = x_smaller ? std::array<double, 2>{k_small, k_large} : std::array<double, 2>{k_large, k_small};
  for (const PoissonSample& s : out.samples) {
    out.lod.push_back(lod_for(s.area, k_small));
    out.max_level = std::max(out.max_level, static_cast<int>(std::ceil(out.lod.back())));
  }
  for (int a = 0; a < 2; ++a)
    out.variance[static_cast<std::size_t>(a)] = axis_variance(out.samples, out.scale[static_cast<std::size_t>(a)], k_small);
  return out;
}

}  // namespace fastblur::kernel
