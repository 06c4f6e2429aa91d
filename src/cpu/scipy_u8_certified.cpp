// Highway kernels of scipy_u8_certified.hpp: SciPy's uint8 bits from float32 sums with an error bound.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/scipy_u8_certified.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/scipy_u8_certified.hpp"
#include "kernel/certified_u8.hpp"

// SciPy's double sums are a multiply and an add apiece, each rounded (scipy_u8_value); the float32
// sums may fuse (their bound covers either).
#pragma GCC optimize("fp-contract=off")

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Output i as its type: a y result for the next axis's line (float) or the output (uint8).
template <class OutT>
HWY_INLINE OutT As(std::uint8_t v) {
  return static_cast<OutT>(v);
}

// Outputs first .. first + n - 1 (the lanes set in `lanes`, bit i for output first + i) as SciPy's
// double sums, value by value; tap_at(j, i) is where tap j of output i lies. Out of line: its
// array of taps would otherwise be a large frame for every vector.
template <class OutT, class TapAt>
HWY_NOINLINE void ExactOutputs(const TapAt& tap_at, size_t first, uint64_t lanes, size_t n, OutT* out,
                               const CertifiedU8Axis& k) {
  std::int32_t x[2 * kernel::kCertifiedU8MaxRadius + 1];
  for (size_t i = 0; i < n; ++i) {
    if (!((lanes >> i) & 1)) continue;
    for (int j = -k.radius; j <= k.radius; ++j) x[j + k.radius] = static_cast<std::int32_t>(*tap_at(j, first + i));
    out[first + i] = As<OutT>(scipy_u8_value(x + k.radius, k));
  }
}

// U vectors of outputs from `first`, their sums interleaved (one vector's chain alone waits on the
// multiply-add's latency at every tap). The taps are 8-bit values held as floats (widened once as
// their row entered the ring, not at every tap: a widening load is a cross-lane shuffle). Lanes
// whose r lies within the bound of an integer are SciPy's double sums (ExactOutputs).
template <int U, class D, class OutT, class TapAt>
HWY_INLINE void CertifiedBlock(D d, const TapAt& tap_at, size_t first, OutT* HWY_RESTRICT out, const CertifiedU8Axis& k) {
  const hn::RebindToSigned<D> di;
  const size_t N = hn::Lanes(d);
  const auto load = [&](int j, int u) { return hn::LoadU(d, tap_at(j, first + u * N)); };
  hn::Vec<D> x0[U], two_x0[U], r[U], a[U];
  for (int u = 0; u < U; ++u) {
    x0[u] = load(0, u);
    two_x0[u] = hn::Add(x0[u], x0[u]);
    r[u] = hn::Zero(d);
    a[u] = hn::Zero(d);
  }
  for (int j = k.radius; j >= 1; --j) {
    const auto w = hn::Set(d, k.w32[static_cast<std::size_t>(j)]);
    for (int u = 0; u < U; ++u) {
      const auto e = hn::Sub(hn::Add(load(-j, u), load(j, u)), two_x0[u]);  // integers: exact
      r[u] = hn::MulAdd(e, w, r[u]);
      a[u] = hn::MulAdd(hn::Abs(e), w, a[u]);
    }
  }
  const auto per_weight = hn::Set(d, k.per_weight), absolute = hn::Set(d, k.absolute);
  // A small integer added to 1.5 * 2^23 is the float's low mantissa bits (no conversion's range fix-ups).
  const auto magic = hn::Set(d, 12582912.0f);
  const auto to_int = [&](hn::Vec<D> v) { return hn::Sub(hn::BitCast(di, hn::Add(v, magic)), hn::BitCast(di, magic)); };
  uint64_t unsure_bits = 0;
  for (int u = 0; u < U; ++u) {
    const auto bound = hn::MulAdd(a[u], per_weight, absolute);
    const auto lo = hn::Floor(hn::Sub(r[u], bound));
    const auto certain = hn::Eq(lo, hn::Floor(hn::Add(r[u], bound)));
    // Every e_k is 0 exactly where sum |e_k| w_k is (the weights are positive): SciPy's x0 or x0 - 1.
    const auto flat = hn::Eq(a[u], hn::Zero(d));
    auto step = hn::IfThenZeroElse(flat, lo);
    if (k.any_below && !hn::AllFalse(d, flat)) {  // a few levels of a few kernels: x0 - 1
      hn::Vec<D> below;
      if (N >= 8) {  // bit x0 of flat_below: the word by a lane permute, then the bit
        const auto xi = to_int(x0[u]);
        const auto word = hn::TableLookupLanes(hn::LoadU(di, reinterpret_cast<const std::int32_t*>(k.flat_below.data())),
                                               hn::IndicesFromVec(di, hn::ShiftRight<5>(xi)));
        below = hn::ConvertTo(d, hn::And(hn::Shr(word, hn::And(xi, hn::Set(di, 31))), hn::Set(di, 1)));
      } else {
        below = hn::Sub(x0[u], hn::ConvertTo(d, hn::GatherIndex(di, k.flat.data(), to_int(x0[u]))));
      }
      step = hn::IfThenElse(flat, hn::Neg(below), step);
    }
    const auto result = hn::Add(x0[u], step);
    if constexpr (std::is_same_v<OutT, float>) {
      hn::StoreU(result, d, out + first + u * N);
    } else {  // 0 .. 255: the low byte of the integer's bits
      const hn::RebindToUnsigned<D> du;
      const hn::Rebind<std::uint8_t, D> du8;
      hn::StoreU(hn::TruncateTo(du8, hn::BitCast(du, hn::Add(result, magic))), du8, out + first + u * N);
    }
    const auto unsure = hn::AndNot(flat, hn::Not(certain));
    if (HWY_UNLIKELY(!hn::AllFalse(d, unsure))) {
      uint8_t bits[8] = {};
      hn::StoreMaskBits(d, unsure, bits);
      uint64_t m = 0;
      for (size_t b = 0; b < (N + 7) / 8; ++b) m |= static_cast<uint64_t>(bits[b]) << (8 * b);
      unsure_bits |= m << (u * N);
    }
  }
  if (HWY_UNLIKELY(unsure_bits != 0)) ExactOutputs(tap_at, first, unsure_bits, U * N, out, k);
}

// Every output i < count: blocks of vectors, then the tail value by value in SciPy's double sums.
template <class OutT, class TapAt>
HWY_INLINE void CertifiedAll(const TapAt& tap_at, OutT* out, std::size_t count, const CertifiedU8Axis& k) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) CertifiedBlock<4>(d, tap_at, i, out, k);
  for (; i + N <= count; i += N) CertifiedBlock<1>(d, tap_at, i, out, k);
  if (i < count) ExactOutputs(tap_at, i, ~uint64_t{0}, count - i, out, k);
}

void CertifiedRows(const float* const* rows, std::size_t offset, float* out, std::size_t count, const CertifiedU8Axis& k) {
  CertifiedAll([rows, offset](int j, size_t i) { return rows[j] + offset + i; }, out, count, k);
}

void CertifiedLine(const float* centre, std::ptrdiff_t step, std::uint8_t* out, std::size_t count, const CertifiedU8Axis& k) {
  CertifiedAll([centre, step](int j, size_t i) { return centre + static_cast<std::ptrdiff_t>(i) + j * step; }, out, count,
               k);
}

void WidenU8(const std::uint8_t* in, float* out, std::size_t n) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<std::uint8_t, decltype(d)> du8;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(du8, in + i))), d, out + i);
  for (; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <stdexcept>

#include "kernel/certified_u8.hpp"

namespace fastblur::cpu {
HWY_EXPORT(CertifiedRows);
HWY_EXPORT(CertifiedLine);
HWY_EXPORT(WidenU8);

std::uint8_t scipy_u8_value(const std::int32_t* x, const CertifiedU8Axis& axis) {
  const double* w = axis.centre;
  // A statement a rounding: clang contracts a * b + c within one expression into a fused
  // multiply-add where it is inlined into a target that has one (its TSan build's AVX2 tail
  // differed from SciPy on flat levels), and the pragma above is GCC's.
  double acc = static_cast<double>(x[0]) * w[0];
  for (int j = axis.radius; j >= 1; --j) {
    const double pair = static_cast<double>(x[-j]) + static_cast<double>(x[j]);
    const double product = pair * w[-j];
    acc = acc + product;
  }
  return static_cast<std::uint8_t>(acc);  // in [0, 256): the taps and weights are not negative
}

CertifiedU8Axis certified_u8_axis(const std::vector<double>& w) {
  if (!kernel::certified_u8_possible(w)) throw std::logic_error("internal: certified_u8_axis takes symmetric positive weights");
  CertifiedU8Axis k;
  k.radius = static_cast<int>(w.size() / 2);
  k.centre = w.data() + k.radius;
  double sum = 0.0;
  for (int j = 0; j <= k.radius; ++j) {
    k.w32.push_back(static_cast<float>(k.centre[-j]));
    sum += j == 0 ? k.centre[0] : 2.0 * k.centre[-j];
  }
  // float32's r against the real sum of e_k w_k: a rounding a step (radius of them, each at most
  // 2^-24 of sum |e_k| w_k) and the weights' own rounding (2^-24 of it), doubled for the bound's
  // own arithmetic. The subtraction and addition of the bound round by 2^-24 of |r|, and |r| is at
  // most sum |e_k| w_k (its float32 sums within 2 radius 2^-24 of each other): 2^-20 of it more.
  // SciPy's double sum against x0 + the real r: 2 radius + 1 roundings of values up to 510, and the
  // weights' sum off 1 by |sum - 1| (times x0 <= 255); four times that and 2^-40.
  k.per_weight = static_cast<float>((k.radius + 4) * std::ldexp(1.0, -23) + std::ldexp(1.0, -20));
  k.absolute = static_cast<float>(4.0 * ((2 * k.radius + 1) * 510.0 * std::ldexp(1.0, -53) + 255.0 * std::fabs(sum - 1.0)) +
                                  std::ldexp(1.0, -40));
  std::vector<std::int32_t> x(w.size());
  for (int v = 0; v < 256; ++v) {
    std::fill(x.begin(), x.end(), v);
    k.flat[static_cast<std::size_t>(v)] = scipy_u8_value(x.data() + k.radius, k);
    if (k.flat[static_cast<std::size_t>(v)] == v - 1) {
      k.flat_below[static_cast<std::size_t>(v) / 32] |= 1u << (v % 32);
      k.any_below = true;
    }
    else if (k.flat[static_cast<std::size_t>(v)] != v) throw std::logic_error("internal: a flat area's sum is x0 or one less");
  }
  return k;
}

void certified_u8_rows(const float* const* rows, std::size_t offset, float* out, std::size_t count,
                       const CertifiedU8Axis& axis) {
  HWY_DYNAMIC_DISPATCH(CertifiedRows)(rows, offset, out, count, axis);
}

void certified_u8_line(const float* centre, std::ptrdiff_t step, std::uint8_t* out, std::size_t count,
                       const CertifiedU8Axis& axis) {
  HWY_DYNAMIC_DISPATCH(CertifiedLine)(centre, step, out, count, axis);
}

void widen_u8(const std::uint8_t* in, float* out, std::size_t n) { HWY_DYNAMIC_DISPATCH(WidenU8)(in, out, n); }

}  // namespace fastblur::cpu
#endif  // HWY_ONCE
