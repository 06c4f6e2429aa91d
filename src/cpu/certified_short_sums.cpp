// Highway-dispatched certified_short_sums (certified_short_sums.hpp).
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/certified_short_sums.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/certified_short_sums.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

std::size_t CertifiedShortSums(const double* const* planes, int n, const double* coef, double cval, double delta,
                               std::size_t count, double* HWY_RESTRICT out, std::uint32_t* undecided) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d);
  const auto base = hn::Set(d, coef[n] * cval), dv = hn::Set(d, delta);
  std::size_t left = 0;
  std::size_t i = 0;
  // `lanes` outputs from `rows` (planes at `at`, or a tail copied out), into `to`.
  const auto sum_at = [&](const double* const* rows, std::size_t at, std::size_t lanes, double* to) {
    auto e = base;
    for (int p = 0; p < n; ++p) e = hn::Add(e, hn::Mul(hn::Set(d, coef[p]), hn::LoadU(d, rows[p] + at)));
    const auto lo = hn::Trunc(hn::Sub(e, dv)), hi = hn::Trunc(hn::Add(e, dv));
    const auto decided = hn::Eq(lo, hi);
    hn::StoreU(hn::IfThenElse(decided, hi, e), d, to);
    if (!hn::AllTrue(d, decided)) {
      HWY_ALIGN double lo_lanes[hn::MaxLanes(d)], hi_lanes[hn::MaxLanes(d)];
      hn::Store(lo, d, lo_lanes), hn::Store(hi, d, hi_lanes);
      for (std::size_t k = 0; k < lanes; ++k)
        if (lo_lanes[k] != hi_lanes[k]) undecided[left++] = static_cast<std::uint32_t>(i + k);
    }
  };
  for (; i + N <= count; i += N) sum_at(planes, i, N, out + i);
  if (i < count) {  // the tail through a whole vector of copies
    constexpr int kMost = 4;
    HWY_ALIGN double tail[kMost][hn::MaxLanes(d)] = {}, made[hn::MaxLanes(d)];
    const double* rows[kMost];
    for (int p = 0; p < n; ++p) {
      for (std::size_t k = 0; k < count - i; ++k) tail[p][k] = planes[p][i + k];
      rows[p] = tail[p];
    }
    sum_at(rows, 0, count - i, made);
    for (std::size_t k = 0; k < count - i; ++k) out[i + k] = made[k];
  }
  return left;
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {

HWY_EXPORT(CertifiedShortSums);

std::size_t certified_short_sums(const double* const* planes, int n, const double* coef, double cval, double delta,
                                 std::size_t count, double* out, std::uint32_t* undecided) {
  return HWY_DYNAMIC_DISPATCH(CertifiedShortSums)(planes, n, coef, cval, delta, count, out, undecided);
}

}  // namespace fastblur::cpu
#endif
