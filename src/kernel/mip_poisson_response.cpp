// The mip-poisson blur's 2D response to an impulse, in double: the CPU executor's mip chain and
// trilinear fetches (src/cpu/mip_poisson.cpp: the same arithmetic in the same order) on levels that
// hold only the texels the impulse reaches, in the padded image's coordinates, evaluated at the pixels
// whose samples can reach them. What the planner predicts a frame's 2D error from, below it (no blur,
// no plan).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "fastblur/error.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::kernel {
namespace {

// An inclusive range of texels.
struct Range {
  std::int64_t lo = 0, hi = -1;
  std::int64_t size() const { return hi - lo + 1; }
  bool contains(std::int64_t i) const { return i >= lo && i <= hi; }
};

// The texels of one level that may be non-zero: a box, zero outside.
struct Level {
  Range x, y;
  std::vector<double> v;
  double at(std::int64_t i, std::int64_t j) const {
    return x.contains(i) && y.contains(j) ? v[static_cast<std::size_t>((j - y.lo) * x.size() + (i - x.lo))] : 0.0;
  }
};

// The executor's bilinear fetch (a GPU's, texel (i, j) centred at (i + 1/2, j + 1/2)) at (px, py):
// acc += w * value.
inline void bilinear_add(const Level& lv, double px, double py, double w, double& acc) {
  const double u = px - 0.5, v = py - 0.5, fu = std::floor(u), fv = std::floor(v);
  const double tu = u - fu, tv = v - fv;
  const std::int64_t i0 = static_cast<std::int64_t>(fu), j0 = static_cast<std::int64_t>(fv);
  const std::int64_t i1 = i0 + 1, j1 = j0 + 1;
  const double w00 = w * (1.0 - tu) * (1.0 - tv), w10 = w * tu * (1.0 - tv), w01 = w * (1.0 - tu) * tv, w11 = w * tu * tv;
  acc += w00 * lv.at(i0, j0) + w10 * lv.at(i1, j0) + w01 * lv.at(i0, j1) + w11 * lv.at(i1, j1);
}

// The next level: `a` filtered by [1 3 3 1]/8 along y (whole rows) and then x, and halved; texel t
// reads texels 2t - 1 .. 2t + 2 of `a`.
Level next_level(const Level& a) {
  const double wt[4] = {0.125, 0.375, 0.375, 0.125};
  const auto targets = [](Range r) {
    return Range{static_cast<std::int64_t>(std::floor((static_cast<double>(r.lo) - 2.0) / 2.0)),
                 static_cast<std::int64_t>(std::floor((static_cast<double>(r.hi) + 1.0) / 2.0))};
  };
  Level b{targets(a.x), targets(a.y), {}};
  b.v.assign(static_cast<std::size_t>(b.x.size() * b.y.size()), 0.0);
  std::vector<double> tmp(static_cast<std::size_t>(a.x.size()));
  for (std::int64_t y = b.y.lo; y <= b.y.hi; ++y) {
    std::fill(tmp.begin(), tmp.end(), 0.0);
    for (int k = 0; k < 4; ++k) {
      const std::int64_t yy = 2 * y - 1 + k;
      if (!a.y.contains(yy)) continue;  // a row of zeros adds nothing
      const double* r = a.v.data() + static_cast<std::size_t>((yy - a.y.lo) * a.x.size());
      for (std::size_t i = 0; i < tmp.size(); ++i) tmp[i] += wt[k] * r[i];
    }
    double* o = b.v.data() + static_cast<std::size_t>((y - b.y.lo) * b.x.size());
    for (std::int64_t x = b.x.lo; x <= b.x.hi; ++x) {
      double v = 0;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t xx = 2 * x - 1 + k;
        v += wt[k] * (a.x.contains(xx) ? tmp[static_cast<std::size_t>(xx - a.x.lo)] : 0.0);
      }
      o[x - b.x.lo] = v;
    }
  }
  return b;
}

struct Tap {
  double x, y;
  int level;
  double upper;  // the weight of level + 1 (0: one bilinear fetch)
};

}  // namespace

std::vector<double> mip_poisson_impulse_response(const MipPoissonSchedule& s, int frame, std::int64_t width,
                                                 std::int64_t height, std::int64_t x, std::int64_t y,
                                                 std::array<std::int64_t, 2> origin) {
  const int L = s.max_level;
  if (s.samples.empty() || s.lod.size() != s.samples.size() || L < 0 || L > kMipPoissonMaxLevel)
    throw InvalidArgument("mip_poisson_impulse_response: the schedule has no samples, a level per sample or a valid "
                          "deepest level (make it with mip_poisson_schedule)");
  for (double k : s.scale)
    if (!std::isfinite(k) || !(k > 0.0)) throw InvalidArgument("mip_poisson_impulse_response: the scales must be > 0");
  for (double lod : s.lod)
    if (!(lod >= 0.0) || lod > L)
      throw InvalidArgument("mip_poisson_impulse_response: every sample's level must lie in 0..max_level");
  if (width < 1 || height < 1 || width > (std::int64_t{1} << 20) || height > (std::int64_t{1} << 20))
    throw InvalidArgument("mip_poisson_impulse_response: width and height must be 1 to 2^20");
  if (x < 0 || x >= width || y < 0 || y >= height)
    throw InvalidArgument("mip_poisson_impulse_response: the impulse must lie inside the image");
  const std::int64_t block = std::int64_t{1} << L;
  for (std::int64_t o : origin)
    if (o < 0 || o % block != 0 || o > (std::int64_t{1} << 40))
      throw InvalidArgument("mip_poisson_impulse_response: the origin must be a multiple of 2^max_level (" +
                            std::to_string(block) + ") from 0 to 2^40");
  // The mip chain of the impulse, in padded coordinates.
  std::vector<Level> levels;
  levels.push_back({{origin[0] + x, origin[0] + x}, {origin[1] + y, origin[1] + y}, {1.0}});
  for (int l = 0; l < L; ++l) levels.push_back(next_level(levels.back()));
  std::vector<Tap> taps;
  double reach = 0.0;  // the farthest sample, in units
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    const int l0 = static_cast<int>(std::floor(s.lod[i]));
    taps.push_back({s.samples[i].x, s.samples[i].y, l0, s.lod[i] - l0});
    reach = std::max(reach, std::hypot(s.samples[i].x, s.samples[i].y));
  }
  // The pixels whose fetches can reach a non-zero texel: a fetch at level l at P (in its texels)
  // reads texels within [P - 3/2, P + 1/2]; a sample lies within reach * scale of its pixel's centre.
  std::array<Range, 2> pixels;
  for (int a = 0; a < 2; ++a) {
    double lo = INFINITY, hi = -INFINITY;
    for (int l = 0; l <= L; ++l) {
      const Range r = a == 0 ? levels[static_cast<std::size_t>(l)].x : levels[static_cast<std::size_t>(l)].y;
      lo = std::min(lo, std::ldexp(static_cast<double>(r.lo) - 0.5, l));
      hi = std::max(hi, std::ldexp(static_cast<double>(r.hi) + 1.5, l));
    }
    const double k = reach * s.scale[static_cast<std::size_t>(a)] + 2.0;
    const std::int64_t o = origin[static_cast<std::size_t>(a)], n = a == 0 ? width : height;
    pixels[static_cast<std::size_t>(a)] = {std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(lo - k - 0.5)) - o),
                                           std::min<std::int64_t>(n - 1, static_cast<std::int64_t>(std::ceil(hi + k)) - o)};
  }
  std::vector<double> out(static_cast<std::size_t>(width * height), 0.0);
  const double kx = s.scale[0], ky = s.scale[1];
  const double w = 1.0 / static_cast<double>(taps.size());
  for (std::int64_t py0 = pixels[1].lo; py0 <= pixels[1].hi; ++py0)
    for (std::int64_t px0 = pixels[0].lo; px0 <= pixels[0].hi; ++px0) {
      const double theta = 2.0 * std::numbers::pi *
                           interleaved_gradient_noise(static_cast<double>(px0), static_cast<double>(py0), frame);
      const double c = std::cos(theta), sn = std::sin(theta);
      const double cx = static_cast<double>(origin[0] + px0) + 0.5, cy = static_cast<double>(origin[1] + py0) + 0.5;
      double acc = 0.0;
      for (const Tap& tap : taps) {
        const double px = cx + kx * (c * tap.x - sn * tap.y), py = cy + ky * (sn * tap.x + c * tap.y);
        const double to_level = std::ldexp(1.0, -tap.level);  // level l's texels are 2^l pixels
        bilinear_add(levels[static_cast<std::size_t>(tap.level)], px * to_level, py * to_level, w * (1.0 - tap.upper), acc);
        if (tap.upper > 0.0)
          bilinear_add(levels[static_cast<std::size_t>(tap.level) + 1], 0.5 * px * to_level, 0.5 * py * to_level,
                       w * tap.upper, acc);
      }
      out[static_cast<std::size_t>(py0 * width + px0)] = acc;
    }
  return out;
}

}  // namespace fastblur::kernel
