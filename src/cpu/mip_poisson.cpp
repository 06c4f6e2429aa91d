// The `mip-poisson` algorithm on the CPU: a padded image, its mip chain, and per pixel the mean of
// trilinear fetches of a rotated Poisson-disk sample set (kernel_mip_poisson.hpp).
#include "algorithms/mip_poisson.hpp"
#include "core/threads.hpp"
#include "cpu/execute.hpp"
#include "cpu/level_chain.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "cpu/border_extend.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

template <class T>
struct Level {
  T* data = nullptr;
  std::int64_t width = 0, height = 0;
};

// A GPU's bilinear fetch with clamp-to-edge at continuous position (px, py) of `lv`, whose texel
// (i, j) is centred at (i + 1/2, j + 1/2); acc += w * value for each of C channels. Positions are
// double: in float, a position near 4000 would keep only 1/4096 of a pixel.
template <class T, int C>
inline void bilinear_add(const Level<T>& lv, double px, double py, T w, T* acc) {
  const double u = px - 0.5, v = py - 0.5, fu = std::floor(u), fv = std::floor(v);
  const T tu = static_cast<T>(u - fu), tv = static_cast<T>(v - fv);
  const std::int64_t iu = static_cast<std::int64_t>(fu), iv = static_cast<std::int64_t>(fv);
  const std::int64_t i0 = std::clamp<std::int64_t>(iu, 0, lv.width - 1), i1 = std::clamp<std::int64_t>(iu + 1, 0, lv.width - 1);
  const std::int64_t j0 = std::clamp<std::int64_t>(iv, 0, lv.height - 1), j1 = std::clamp<std::int64_t>(iv + 1, 0, lv.height - 1);
  const T* r0 = lv.data + j0 * lv.width * C;
  const T* r1 = lv.data + j1 * lv.width * C;
  const T w00 = w * (T(1) - tu) * (T(1) - tv), w10 = w * tu * (T(1) - tv), w01 = w * (T(1) - tu) * tv, w11 = w * tu * tv;
  for (int c = 0; c < C; ++c)
    acc[c] += w00 * r0[i0 * C + c] + w10 * r0[i1 * C + c] + w01 * r1[i0 * C + c] + w11 * r1[i1 * C + c];
}

// One sample, ready to evaluate: its unit position, its two levels and their blend.
template <class T>
struct Tap {
  double x, y;
  int level;
  T upper;  // the weight of level + 1 (0: one bilinear fetch)
};

template <class T, int C>
void blur_rows(const View& dst, const std::vector<Level<T>>& levels, const std::vector<Tap<T>>& taps,
               const kernel::MipPoissonSchedule& s, std::int64_t before_x, std::int64_t before_y, int frame, int threads) {
  const std::int64_t W = dst.width(), H = dst.height();
  const double kx = s.scale[0], ky = s.scale[1];
  const T w = T(1) / static_cast<T>(taps.size());
  std::vector<std::vector<T>> rows(static_cast<std::size_t>(threads), std::vector<T>(static_cast<std::size_t>(W * C)));
  std::vector<std::vector<std::byte>> bytes(static_cast<std::size_t>(threads),
                                            std::vector<std::byte>(static_cast<std::size_t>(W * C) * 8));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4)
  for (std::int64_t y = 0; y < H; ++y) {
    const int t = omp_get_thread_num();
    T* out = rows[static_cast<std::size_t>(t)].data();
    for (std::int64_t x = 0; x < W; ++x) {
      const double theta = 2.0 * std::numbers::pi *
                           kernel::interleaved_gradient_noise(static_cast<double>(x), static_cast<double>(y), frame);
      const double c = std::cos(theta), sn = std::sin(theta);
      const double cx = static_cast<double>(before_x + x) + 0.5, cy = static_cast<double>(before_y + y) + 0.5;
      T acc[C] = {};
      for (const Tap<T>& tap : taps) {
        const double px = cx + kx * (c * tap.x - sn * tap.y), py = cy + ky * (sn * tap.x + c * tap.y);
        const double to_level = std::ldexp(1.0, -tap.level);  // level l's texels are 2^l pixels
        bilinear_add<T, C>(levels[static_cast<std::size_t>(tap.level)], px * to_level, py * to_level,
                           w * (T(1) - tap.upper), acc);
        if (tap.upper > T(0))
          bilinear_add<T, C>(levels[static_cast<std::size_t>(tap.level) + 1], 0.5 * px * to_level, 0.5 * py * to_level,
                             w * tap.upper, acc);
      }
      std::copy_n(acc, C, out + x * C);
    }
    write_row(out, dst, 0, y, 0, W, bytes[static_cast<std::size_t>(t)].data());
  }
}

template <class T>
void mip_poisson_typed(const Plan& plan, const View& src, const View& dst, const kernel::MipPoissonSchedule& s) {
  const int C = src.channels, L = s.max_level;
  const std::int64_t W = src.width(), H = src.height();
  const algo::MipPoissonPadding px = algo::mip_poisson_padding(W, s);
  const algo::MipPoissonPadding py = algo::mip_poisson_padding(H, s);
  const std::int64_t bx = px.before, by = py.before, NX = px.size, NY = py.size;
  const std::vector<std::size_t> start = level_starts(NX, NY, L, C, sizeof(T), "mip-poisson");
  ScratchImage storage(start.back() * sizeof(T), 0);
  std::vector<Level<T>> levels(static_cast<std::size_t>(L) + 1);
  for (int l = 0; l <= L; ++l)
    levels[static_cast<std::size_t>(l)] = {storage.as<T>() + start[static_cast<std::size_t>(l)], NX >> l, NY >> l};
  const int threads = plan.schedule.threads;
  extend_borders_2d<T>(src, plan, levels[0].data, NX, bx, by, {0, NX - 1, 0, NY - 1}, threads);
  // The mip chain: each level the one above filtered by [1 3 3 1]/8 along x and y and halved (a
  // smooth prefilter; a 2x2 box's square footprints made the summed response 2 to 3 times further
  // from the Gaussian). Each output texel x reads texels 2x-1 .. 2x+2 of the level above.
  for (int l = 0; l < L; ++l) {
    const Level<T>& a = levels[static_cast<std::size_t>(l)];
    const Level<T>& b = levels[static_cast<std::size_t>(l) + 1];
    const T wt[4] = {T(0.125), T(0.375), T(0.375), T(0.125)};
    const int t = core::threads_for(static_cast<double>(a.width) * static_cast<double>(a.height) * C * 8.0, threads);
    std::vector<std::vector<T>> rows(static_cast<std::size_t>(t), std::vector<T>(static_cast<std::size_t>(a.width * C)));
#pragma omp parallel for num_threads(t) schedule(static)
    for (std::int64_t y = 0; y < b.height; ++y) {
      T* tmp = rows[static_cast<std::size_t>(omp_get_thread_num())].data();
      std::fill(tmp, tmp + a.width * C, T(0));
      for (int k = 0; k < 4; ++k) {
        const std::int64_t yy = std::clamp<std::int64_t>(2 * y - 1 + k, 0, a.height - 1);
        const T* r = a.data + yy * a.width * C;
        for (std::int64_t i = 0; i < a.width * C; ++i) tmp[i] += wt[k] * r[i];
      }
      T* o = b.data + y * b.width * C;
      for (std::int64_t x = 0; x < b.width; ++x)
        for (int c = 0; c < C; ++c) {
          T v = 0;
          for (int k = 0; k < 4; ++k) v += wt[k] * tmp[std::clamp<std::int64_t>(2 * x - 1 + k, 0, a.width - 1) * C + c];
          o[x * C + c] = v;
        }
    }
  }
  std::vector<Tap<T>> taps;
  for (std::size_t i = 0; i < s.samples.size(); ++i) {
    const int l0 = static_cast<int>(std::floor(s.lod[i]));
    taps.push_back({s.samples[i].x, s.samples[i].y, l0, static_cast<T>(s.lod[i] - l0)});
  }
  switch (C) {
    case 1: blur_rows<T, 1>(dst, levels, taps, s, bx, by, algo::option_int(plan.spec, "mip_poisson_frame"), threads); break;
    case 2: blur_rows<T, 2>(dst, levels, taps, s, bx, by, algo::option_int(plan.spec, "mip_poisson_frame"), threads); break;
    case 3: blur_rows<T, 3>(dst, levels, taps, s, bx, by, algo::option_int(plan.spec, "mip_poisson_frame"), threads); break;
    default: blur_rows<T, 4>(dst, levels, taps, s, bx, by, algo::option_int(plan.spec, "mip_poisson_frame"), threads); break;
  }
}

}  // namespace

void mip_poisson_blur(const Plan& plan, const View& src, const View& dst) {
  // The whole source is read into the padded image before any output row is written, so in-place
  // views are safe.
  const kernel::MipPoissonSchedule& s = algo::resolved_as<algo::MipPoissonResolved>(plan).schedule;
  if (plan.schedule.intermediate == ElementType::f64) mip_poisson_typed<double>(plan, src, dst, s);
  else mip_poisson_typed<float>(plan, src, dst, s);
}

}  // namespace fastblur::cpu
