// Highway kernel of the sliding-DCT Gaussian across lanes; see sliding_dct_lanes.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <string>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/sliding_dct_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/iir_simd.hpp"
#include "cpu/sliding_dct_lanes.hpp"
#include "fastblur/error.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A position of kLaneGroups float vectors is this many double vectors (one float half each).
constexpr size_t kChunks = kLaneGroups * (HWY_TARGET == HWY_SCALAR ? 1 : 2);

// The filter on one double vector of lanes (chunk c) along the whole line. T terms are already T
// independent recurrences, enough to hide the FMA latency, and their 2 T state vectors fill the
// registers (all of them on AVX-512; on AVX2 orders above 5 spill some); the chunks are therefore
// swept one after another, not side by side.
template <size_t T, bool kSplit>
static void SlidingDctChunk(const float* in, float* out, int64_t n, const SlidingDctLaneCoefficients& k, size_t c) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // the floats of one double vector
  using VD = hn::Vec<decltype(dd)>;
  const size_t Nd = hn::Lanes(dd);
  const ptrdiff_t lanes = static_cast<ptrdiff_t>(kChunks * Nd);
  const int64_t r = k.radius;
  const float* x = in + (r + 1) * lanes + static_cast<ptrdiff_t>(c * Nd);  // position 0 of chunk c
  float* y = out + c * Nd;
  const auto load = [&](int64_t pos) { return hn::PromoteTo(dd, hn::LoadU(df, x + pos * lanes)); };
  // Z_j(at) = sum_{|m|<=R} cos(w_j m) x[at + m], term by term in the order of the scalar filter.
  const auto direct = [&](int64_t at, VD* z) {
    for (size_t j = 0; j < T; ++j) z[j] = hn::Zero(dd);
    const double* w = k.window.data();
    for (int64_t m = -r; m <= r; ++m, w += T) {
      const VD xv = load(at + m);
      for (size_t j = 0; j < T; ++j) z[j] = hn::MulAdd(hn::Set(dd, w[j]), xv, z[j]);
    }
  };
  VD c2[T], cr[T], cr1[T], beta[T], z[T], prev[T];
  for (size_t j = 0; j < T; ++j) {
    c2[j] = hn::Set(dd, k.two_cos[j]);
    cr[j] = hn::Set(dd, k.cos_radius[j]);
    cr1[j] = hn::Set(dd, kSplit ? k.cos_radius1[j] : k.cos_radius[j]);
    beta[j] = hn::Set(dd, k.beta[j]);
  }
  const auto emit = [&](int64_t i) {
    VD sum = hn::Mul(beta[0], z[0]);
    for (size_t j = 1; j < T; ++j) sum = hn::MulAdd(beta[j], z[j], sum);
    hn::StoreU(hn::DemoteTo(df, sum), df, y + i * lanes);
  };
  for (int64_t start = 0; start < n; start += k.restart_interval) {
    // A restart: Z at start - 1 and start from the window, then the recurrence up to the next one.
    direct(start - 1, prev);
    direct(start, z);
    emit(start);
    const int64_t end = std::min(n, start + k.restart_interval);
    // The window's ends: x[i+R] and x[i-R-2] enter, x[i+R-1] and x[i-R-1] leave; the previous
    // sample's loads of the latter two are carried.
    VD hi = load(start + r), lo = load(start - r - 1);
    for (int64_t i = start + 1; i < end; ++i) {
      const VD hi_next = load(i + r), lo_next = load(i - r - 1);
      const VD outer = hn::Add(hi_next, lo), inner = hn::Add(hi, lo_next);
      const VD ends = hn::Sub(outer, inner);
      hi = hi_next, lo = lo_next;
      for (size_t j = 0; j < T; ++j) {
        // Z(i) = 2 cos(w) Z(i-1) - Z(i-2) + cos(w R) ends (split: cos(w R) outer - cos(w (R+1))
        // inner); the FMA on Z(i-1) is the only one on the recurrence's critical path.
        const VD forced = kSplit ? hn::NegMulAdd(cr1[j], inner, hn::MulSub(cr[j], outer, prev[j]))
                                 : hn::MulSub(cr[j], ends, prev[j]);
        const VD next = hn::MulAdd(c2[j], z[j], forced);
        prev[j] = z[j];
        z[j] = next;
      }
      emit(i);
    }
  }
}

template <size_t T>
static void SlidingDctT(const float* in, float* out, int64_t n, const SlidingDctLaneCoefficients& k) {
  for (size_t c = 0; c < kChunks; ++c) {
    if (k.split_ends) SlidingDctChunk<T, true>(in, out, n, k, c);
    else SlidingDctChunk<T, false>(in, out, n, k, c);
  }
}

static void SlidingDct(const float* in, float* out, int64_t n, const SlidingDctLaneCoefficients& k) {
  switch (k.terms) {
    case 1: return SlidingDctT<1>(in, out, n, k);
    case 2: return SlidingDctT<2>(in, out, n, k);
    case 3: return SlidingDctT<3>(in, out, n, k);
    case 4: return SlidingDctT<4>(in, out, n, k);
    case 5: return SlidingDctT<5>(in, out, n, k);
    case 6: return SlidingDctT<6>(in, out, n, k);
    case 7: return SlidingDctT<7>(in, out, n, k);
    case 8: return SlidingDctT<8>(in, out, n, k);
    case 9: return SlidingDctT<9>(in, out, n, k);
    default: HWY_ASSERT(false);
  }
}

static size_t SlidingDctLaneCount() { return kChunks * hn::Lanes(hn::ScalableTag<double>()); }

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(SlidingDct);
HWY_EXPORT(SlidingDctLaneCount);

SlidingDctLaneCoefficients sliding_dct_lane_coefficients(const kernel::SlidingDctKernel& k) {
  SlidingDctLaneCoefficients c;
  const int r = k.radius, terms = k.order() + 1;
  if (r < 1 || terms < 1 || terms > kernel::kSlidingDctMaxOrder + 1)
    throw InvalidArgument("sliding-dct lanes: radius " + std::to_string(r) + ", " + std::to_string(terms) + " terms");
  c.radius = r;
  c.terms = terms;
  c.restart_interval = std::max<std::int64_t>(4096, 8 * static_cast<std::int64_t>(r));
  c.beta = k.beta;
  c.two_cos.resize(static_cast<std::size_t>(terms));
  c.cos_radius.resize(static_cast<std::size_t>(terms));
  c.cos_radius1.resize(static_cast<std::size_t>(terms));
  c.split_ends = k.period > 0.0;
  c.window.resize(static_cast<std::size_t>(terms) * (2 * static_cast<std::size_t>(r) + 1));
  const double period = k.cosine_period();
  for (int j = 0; j < terms; ++j) {
    const double w = 2.0 * std::numbers::pi * j / period;
    c.two_cos[static_cast<std::size_t>(j)] = 2.0 * std::cos(w);
    c.cos_radius[static_cast<std::size_t>(j)] = std::cos(w * r);
    c.cos_radius1[static_cast<std::size_t>(j)] = std::cos(w * (r + 1));
    for (int m = -r; m <= r; ++m)
      c.window[static_cast<std::size_t>(m + r) * static_cast<std::size_t>(terms) + static_cast<std::size_t>(j)] =
          std::cos(w * m);
  }
  return c;
}

void sliding_dct_lanes(const float* in, float* out, std::int64_t n, const SlidingDctLaneCoefficients& c) {
  if (n <= 0) return;
  HWY_ASSERT(HWY_DYNAMIC_DISPATCH(SlidingDctLaneCount)() == lane_width());
  if (c.terms < 1 || c.terms > kernel::kSlidingDctMaxOrder + 1 || c.restart_interval < 1)
    throw InvalidArgument("sliding-dct lanes: " + std::to_string(c.terms) + " terms");
  HWY_DYNAMIC_DISPATCH(SlidingDct)(in, out, n, c);
}

}  // namespace fastblur::cpu
#endif
