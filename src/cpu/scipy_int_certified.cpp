// Highway kernels of scipy_int_certified.hpp: SciPy's 8- and 16-bit bits from float32 sums with an error bound.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/scipy_int_certified.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/scipy_int_certified.hpp"
#include "kernel/certified_int.hpp"

// SciPy's double sums are a multiply and an add apiece, each rounded (scipy_int_value); the float32
// sums may fuse (their bound covers either).
#pragma GCC optimize("fp-contract=off")

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Outputs first .. first + n - 1 (the lanes set in `lanes`, bit i for output first + i) as SciPy's
// double sums, value by value; tap_at(j, i) is where tap j of output i lies. Out of line: its
// array of taps would otherwise be a large frame for every vector. A float (the next axis's line)
// holds the value; 8- and 16-bit outputs its two's complement bits.
template <class OutT, class TapAt>
HWY_NOINLINE void ExactOutputs(const TapAt& tap_at, size_t first, uint64_t lanes, size_t n, OutT* out,
                               const CertifiedIntAxis& k) {
  std::int32_t x[2 * kernel::kCertifiedIntMaxRadius + 1];
  for (size_t i = 0; i < n; ++i) {
    if (!((lanes >> i) & 1)) continue;
    for (int j = -k.radius; j <= k.radius; ++j) x[j + k.radius] = static_cast<std::int32_t>(*tap_at(j, first + i));
    out[first + i] = static_cast<OutT>(scipy_int_value(x + k.radius, k));
  }
}

// An output vector of integers held as floats: as floats (the next axis's line), or the integers'
// two's complement bits (the low bits of the float's after adding 1.5 * 2^23: no conversion's range
// fix-ups).
template <class D, class OutT>
HWY_INLINE void StoreResult(D d, hn::Vec<D> result, OutT* HWY_RESTRICT to) {
  if constexpr (std::is_same_v<OutT, float>) {
    hn::StoreU(result, d, to);
  } else {
    const hn::RebindToUnsigned<D> du;
    const hn::Rebind<OutT, D> dout;
    hn::StoreU(hn::TruncateTo(dout, hn::BitCast(du, hn::Add(result, hn::Set(d, 12582912.0f)))), dout, to);
  }
}

// U vectors of outputs from `first`, their sums interleaved (one vector's chain alone waits on the
// multiply-add's latency at every tap). The taps are integers held as floats (widened once as
// their row entered the ring, not at every tap: a widening load is a cross-lane shuffle). Lanes
// whose r lies within the bound of an integer (or of -x0, where the sign decides the truncation)
// are SciPy's double sums (ExactOutputs).
template <int U, class D, class OutT, class TapAt>
HWY_INLINE size_t CertifiedBlock(D d, const TapAt& tap_at, size_t first, OutT* HWY_RESTRICT out, const CertifiedIntAxis& k) {
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
  const bool is_signed = k.lowest < 0;
  const std::uint32_t* words = k.flat_toward_zero->data();
  uint64_t unsure_bits = 0;
  for (int u = 0; u < U; ++u) {
    const auto bound = hn::MulAdd(a[u], per_weight, absolute);
    const auto lo = hn::Sub(r[u], bound), hi = hn::Add(r[u], bound);
    auto step = hn::Floor(lo);
    auto certain = hn::Eq(step, hn::Floor(hi));
    if (is_signed) {  // C's cast truncates toward zero: x0 + ceil(r) where x0 + r < 0, i.e. r < -x0
      const auto minus_x0 = hn::Neg(x0[u]);
      const auto below = hn::Lt(hi, minus_x0);
      certain = hn::Or(hn::And(below, hn::Eq(hn::Ceil(lo), hn::Ceil(hi))), hn::AndNot(below, hn::And(certain, hn::Ge(lo, minus_x0))));
      step = hn::IfThenElse(below, hn::Ceil(hi), step);
    }
    // Every e_k is 0 exactly where sum |e_k| w_k is (the weights are positive): SciPy's x0, or one
    // toward zero.
    const auto flat = hn::Eq(a[u], hn::Zero(d));
    step = hn::IfThenZeroElse(flat, step);
    if (k.any_toward_zero && !hn::AllFalse(d, flat)) {  // a few levels of a few kernels
      const float first = hn::GetLane(x0[u]);
      if (hn::AllTrue(d, flat) && hn::AllTrue(d, hn::Eq(x0[u], hn::Set(d, first)))) {  // a constant area: one level
        step = hn::Set(d, certified_flat_result(k, first) - first);
      } else {
        const auto level = hn::Sub(to_int(x0[u]), hn::Set(di, k.lowest));
        const auto at = hn::ShiftRight<5>(level);
        hn::Vec<decltype(di)> word;
        if (N >= 8 && k.flat_toward_zero->size() <= 16) {  // 8-bit levels: the word by a lane permute
          word = hn::TableLookupLanes(hn::LoadU(di, reinterpret_cast<const std::int32_t*>(words)), hn::IndicesFromVec(di, at));
        } else {
          word = hn::GatherIndex(di, reinterpret_cast<const std::int32_t*>(words), at);
        }
        const auto bit = hn::ConvertTo(d, hn::And(hn::Shr(word, hn::And(level, hn::Set(di, 31))), hn::Set(di, 1)));
        step = hn::IfThenElse(flat, hn::Neg(hn::CopySign(bit, x0[u])), step);
      }
    }
    StoreResult(d, hn::Add(x0[u], step), out + first + u * N);
    const auto unsure = hn::AndNot(flat, hn::Not(certain));
    if (HWY_UNLIKELY(!hn::AllFalse(d, unsure))) {
      uint8_t bits[8] = {};
      hn::StoreMaskBits(d, unsure, bits);
      uint64_t m = 0;
      for (size_t b = 0; b < (N + 7) / 8; ++b) m |= static_cast<uint64_t>(bits[b]) << (8 * b);
      unsure_bits |= m << (u * N);
    }
  }
  if (HWY_LIKELY(unsure_bits == 0)) return 0;
  ExactOutputs(tap_at, first, unsure_bits, U * N, out, k);
  return static_cast<size_t>(hwy::PopCount(unsure_bits));
}

// KnownChannels as every vector's lanes (the channels divide the lanes, so each vector's lane l is
// channel l % channels): `mask` 1 where the lane's output is `value`.
struct KnownLanes {
  static constexpr size_t kMax = 64;  // the most float lanes of any target (2048-bit vectors)
  bool any = false;
  alignas(64) float mask[kMax];
  alignas(64) float value[kMax];
};

HWY_INLINE KnownLanes LanesOf(const KnownChannels& k, size_t N) {
  KnownLanes lanes;
  if (k.known == 0 || k.channels < 1 || k.channels > KnownChannels::kMaxChannels || N > KnownLanes::kMax ||
      N % static_cast<size_t>(k.channels) != 0)
    return lanes;
  lanes.any = true;
  for (size_t l = 0; l < N; ++l) {
    const size_t c = l % static_cast<size_t>(k.channels);
    lanes.mask[l] = (k.known >> c) & 1u ? 1.0f : 0.0f;
    lanes.value[l] = k.result[c];
  }
  return lanes;
}

// The first tier's lanes it decided: a certain step, or a known channel's.
template <class D>
HWY_INLINE hn::Mask<D> Decided(D d, hn::Vec<D> lo, hn::Vec<D> hi, const KnownLanes& kl) {
  const auto certain = hn::Eq(lo, hi);
  return kl.any ? hn::Or(certain, hn::Ne(hn::Load(d, kl.mask), hn::Zero(d))) : certain;
}
// A vector of results with the known channels' lanes set to theirs.
template <class D>
HWY_INLINE hn::Vec<D> Known(D d, hn::Vec<D> result, const KnownLanes& kl) {
  return kl.any ? hn::IfThenElse(hn::Ne(hn::Load(d, kl.mask), hn::Zero(d)), hn::Load(d, kl.value), result) : result;
}

// The first tier (CertifiedIntAxis::quick_bound, unsigned 8-bit): U vectors of outputs from `first`
// as r = sum_k (x[-k] + x[k]) w_k - 2 x0 S, two operations a tap pair, certified by the kernel's one
// bound; a vector with any lane it leaves undecided (every flat area's: r = 0 lies within it) is
// remade by CertifiedBlock (counted in `remade`), unless the lane is a known channel's.
// Returns how many outputs that left to SciPy's double sums.
template <int U, class D, class OutT, class TapAt>
HWY_INLINE size_t QuickBlock(D d, const TapAt& tap_at, size_t first, OutT* HWY_RESTRICT out, const CertifiedIntAxis& k,
                             const KnownLanes& kl, size_t& remade) {
  const size_t N = hn::Lanes(d);
  const auto load = [&](int j, int u) { return hn::LoadU(d, tap_at(j, first + u * N)); };
  hn::Vec<D> r[U];
  for (int u = 0; u < U; ++u) r[u] = hn::Zero(d);
  for (int j = k.radius; j >= 1; --j) {
    const auto w = hn::Set(d, k.w32[static_cast<std::size_t>(j)]);
    for (int u = 0; u < U; ++u) r[u] = hn::MulAdd(hn::Add(load(-j, u), load(j, u)), w, r[u]);
  }
  const auto minus_two_s = hn::Set(d, -k.quick_two_s), bound = hn::Set(d, k.quick_bound);
  size_t exact = 0;
  for (int u = 0; u < U; ++u) {
    const auto x0 = load(0, u);
    const auto ru = hn::MulAdd(x0, minus_two_s, r[u]);
    const auto lo = hn::Floor(hn::Sub(ru, bound));
    if (HWY_LIKELY(hn::AllTrue(d, Decided(d, lo, hn::Floor(hn::Add(ru, bound)), kl)))) {
      StoreResult(d, Known(d, hn::Add(x0, lo), kl), out + first + u * N);
    } else {
      ++remade;
      exact += CertifiedBlock<1>(d, tap_at, first + u * N, out, k);
    }
  }
  return exact;
}

// Whether the first tier still pays on this line: it does unless more than an eighth of its vectors
// were remade (an opaque alpha channel: every vector holds a flat lane), judged after 8.
HWY_INLINE bool QuickPays(size_t tried, size_t remade) { return tried < 8 || remade * 8 <= tried; }

// Every output i < count: blocks of vectors, then the tail value by value in SciPy's double sums.
// Returns how many outputs of whole vectors the bound left to SciPy's double sums (not the tail's).
template <class OutT, class TapAt>
HWY_INLINE size_t CertifiedAll(const TapAt& tap_at, OutT* out, std::size_t count, const CertifiedIntAxis& k,
                               const KnownLanes& kl) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0, exact = 0, tried = 0, remade = 0;
  if (k.quick_bound > 0.0f) {
    for (; i + 4 * N <= count && QuickPays(tried, remade); i += 4 * N, tried += 4)
      exact += QuickBlock<4>(d, tap_at, i, out, k, kl, remade);
  }
  for (; i + 4 * N <= count; i += 4 * N) exact += CertifiedBlock<4>(d, tap_at, i, out, k);
  for (; i + N <= count; i += N) exact += CertifiedBlock<1>(d, tap_at, i, out, k);
  if (i < count) ExactOutputs(tap_at, i, ~uint64_t{0}, count - i, out, k);
  return exact;
}

// The first tier for two successive output rows A and B at once (rows[j] is A's tap row j, B's is
// rows[j + 1]): each tap row is loaded once for both - the sums are bound by loads, two a pair
// for one row. Vectors either tier leaves undecided are remade by CertifiedBlock, row by row.
template <int U, class D>
HWY_INLINE size_t QuickPairBlock(D d, const float* const* rows, size_t first, float* HWY_RESTRICT out_a,
                                 float* HWY_RESTRICT out_b, const CertifiedIntAxis& k, const KnownLanes* kl,
                                 size_t& remade) {
  const size_t N = hn::Lanes(d);
  const int R = k.radius;
  const auto at = [&](int j, int u) { return hn::LoadU(d, rows[j] + first + u * N); };
  hn::Vec<D> ra[U], rb[U], left[U], right[U];
  for (int u = 0; u < U; ++u) {
    ra[u] = hn::Zero(d);
    rb[u] = hn::Zero(d);
    left[u] = at(-R, u);     // A's left tap
    right[u] = at(R + 1, u);  // B's right tap
  }
  for (int j = R; j >= 1; --j) {
    const auto w = hn::Set(d, k.w32[static_cast<std::size_t>(j)]);
    for (int u = 0; u < U; ++u) {
      const auto a_right = at(j, u), b_left = at(1 - j, u);  // next: B's right, A's left
      ra[u] = hn::MulAdd(hn::Add(left[u], a_right), w, ra[u]);
      rb[u] = hn::MulAdd(hn::Add(b_left, right[u]), w, rb[u]);
      left[u] = b_left;
      right[u] = a_right;
    }
  }
  const auto minus_two_s = hn::Set(d, -k.quick_two_s), bound = hn::Set(d, k.quick_bound);
  size_t exact = 0;
  for (int u = 0; u < U; ++u) {
    for (int b = 0; b < 2; ++b) {
      const auto x0 = at(b, u);
      const auto ru = hn::MulAdd(x0, minus_two_s, b == 0 ? ra[u] : rb[u]);
      const auto lo = hn::Floor(hn::Sub(ru, bound));
      float* out = b == 0 ? out_a : out_b;
      if (HWY_LIKELY(hn::AllTrue(d, Decided(d, lo, hn::Floor(hn::Add(ru, bound)), kl[b])))) {
        StoreResult(d, Known(d, hn::Add(x0, lo), kl[b]), out + first + u * N);
      } else {
        ++remade;
        const float* const* from = rows + b;
        exact += CertifiedBlock<1>(d, [from](int j, size_t i) { return from[j] + i; }, first + u * N, out, k);
      }
    }
  }
  return exact;
}

size_t CertifiedRowsPair(const float* const* rows, float* out_a, float* out_b, std::size_t count, const CertifiedIntAxis& k,
                         const KnownChannels& known_a, const KnownChannels& known_b) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const KnownLanes kl[2] = {LanesOf(known_a, N), LanesOf(known_b, N)};
  size_t i = 0, exact = 0, tried = 0, remade = 0;
  for (; i + 2 * N <= count && QuickPays(tried, remade); i += 2 * N, tried += 4)
    exact += QuickPairBlock<2>(d, rows, i, out_a, out_b, k, kl, remade);
  // The rest (and a line where the first tier stopped paying) row by row; i is a whole number of
  // vectors, so the lanes' channels stay.
  const auto row_a = [rows, i](int j, size_t at) { return rows[j] + i + at; };
  const auto row_b = [rows, i](int j, size_t at) { return rows[j + 1] + i + at; };
  return exact + CertifiedAll(row_a, out_a + i, count - i, k, kl[0]) + CertifiedAll(row_b, out_b + i, count - i, k, kl[1]);
}

size_t CertifiedRows(const float* const* rows, std::size_t offset, float* out, std::size_t count, const CertifiedIntAxis& k,
                     const KnownChannels& known) {
  return CertifiedAll([rows, offset](int j, size_t i) { return rows[j] + offset + i; }, out, count, k,
                      LanesOf(known, hn::Lanes(hn::ScalableTag<float>())));
}

template <class OutT>
size_t CertifiedLine(const float* centre, std::ptrdiff_t step, OutT* out, std::size_t count, const CertifiedIntAxis& k,
                     const KnownChannels& known) {
  return CertifiedAll([centre, step](int j, size_t i) { return centre + static_cast<std::ptrdiff_t>(i) + j * step; }, out, count,
                      k, LanesOf(known, hn::Lanes(hn::ScalableTag<float>())));
}
size_t CertifiedLine8(const float* centre, std::ptrdiff_t step, std::uint8_t* out, std::size_t count, const CertifiedIntAxis& k,
                      const KnownChannels& known) {
  return CertifiedLine(centre, step, out, count, k, known);
}
size_t CertifiedLine16(const float* centre, std::ptrdiff_t step, std::uint16_t* out, std::size_t count,
                       const CertifiedIntAxis& k, const KnownChannels& known) {
  return CertifiedLine(centre, step, out, count, k, known);
}

// Bit c set where channel c of the n values is one level (levels[c]); 0 where the channels do not
// divide the lanes (KnownChannels would not be used). Stops at the first 16 vectors where none is.
uint32_t ConstantChannels(const float* row, std::size_t n, int channels, float* levels) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), C = static_cast<size_t>(channels);
  if (channels < 1 || channels > KnownChannels::kMaxChannels || N > KnownLanes::kMax || N % C != 0 || n < C) return 0;
  for (size_t c = 0; c < C; ++c) levels[c] = row[c];
  alignas(64) float pattern[KnownLanes::kMax];
  for (size_t l = 0; l < N; ++l) pattern[l] = row[l % C];
  const auto p = hn::Load(d, pattern);
  auto differs = hn::FirstN(d, 0);
  size_t i = 0;
  for (size_t v = 1; i + N <= n; i += N, ++v) {
    differs = hn::Or(differs, hn::Ne(hn::LoadU(d, row + i), p));
    if (v % 16 == 0 && hn::AllTrue(d, differs)) return 0;
  }
  uint8_t bits[KnownLanes::kMax / 8] = {};
  hn::StoreMaskBits(d, differs, bits);
  uint32_t constant = (1u << C) - 1;
  for (size_t l = 0; l < N; ++l)
    if ((bits[l / 8] >> (l % 8)) & 1) constant &= ~(1u << (l % C));
  for (; i < n; ++i)  // i is a whole number of vectors: channel i % C
    if (row[i] != levels[i % C]) constant &= ~(1u << (i % C));
  return constant;
}

// n values of T as floats.
template <class T>
void Widen(const T* in, float* out, std::size_t n) {
  const hn::ScalableTag<float> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<T, decltype(d)> dt;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(dt, in + i))), d, out + i);
  for (; i < n; ++i) out[i] = static_cast<float>(in[i]);
}
void WidenU8(const std::uint8_t* in, float* out, std::size_t n) { Widen(in, out, n); }
void WidenI8(const std::int8_t* in, float* out, std::size_t n) { Widen(in, out, n); }
void WidenU16(const std::uint16_t* in, float* out, std::size_t n) { Widen(in, out, n); }
void WidenI16(const std::int16_t* in, float* out, std::size_t n) { Widen(in, out, n); }

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#if HWY_ONCE
#include <algorithm>
#include <array>
#include <mutex>
#include <stdexcept>

#include "kernel/certified_int.hpp"

namespace fastblur::cpu {
HWY_EXPORT(CertifiedRows);
HWY_EXPORT(CertifiedRowsPair);
HWY_EXPORT(CertifiedLine8);
HWY_EXPORT(CertifiedLine16);
HWY_EXPORT(WidenU8);
HWY_EXPORT(WidenI8);
HWY_EXPORT(WidenU16);
HWY_EXPORT(WidenI16);
HWY_EXPORT(ConstantChannels);

namespace {

// SciPy's flat areas (every tap x0) for every level of [lowest, highest]: bit (x0 - lowest) set where
// its truncated sum is one toward zero. Levels in blocks, each statement one rounding (as
// scipy_int_value: clang contracts within an expression), so the compiler vectorises across levels.
std::vector<std::uint32_t> flat_levels(const double* centre, int radius, kernel::CertifiedIntRange t) {
  const std::int64_t levels = std::int64_t{t.highest} - t.lowest + 1;
  std::vector<std::uint32_t> words(static_cast<std::size_t>(std::max<std::int64_t>(levels / 32, 16)), 0u);
  constexpr int kBlock = 512;
  std::array<double, kBlock> acc{}, level{};
  for (std::int64_t base = 0; base < levels; base += kBlock) {
    const int n = static_cast<int>(std::min<std::int64_t>(kBlock, levels - base));
    for (int i = 0; i < n; ++i) {
      level[i] = static_cast<double>(t.lowest + base + i);
      acc[i] = level[i] * centre[0];
    }
    for (int j = radius; j >= 1; --j) {
      const double w = centre[-j];
      for (int i = 0; i < n; ++i) {
        const double pair = level[i] + level[i];
        const double product = pair * w;
        acc[i] = acc[i] + product;
      }
    }
    for (int i = 0; i < n; ++i) {
      const auto v = static_cast<std::int32_t>(level[i]);
      const auto got = static_cast<std::int32_t>(acc[i]);
      if (got == v) continue;
      if (got != (v > 0 ? v - 1 : v + 1)) throw std::logic_error("internal: a flat area's sum is x0 or one toward zero");
      const auto at = static_cast<std::size_t>(base + i);
      words[at / 32] |= 1u << (at % 32);
    }
  }
  return words;
}

// The last few tables made (a blur's two axes, a program's repeated calls): 16-bit levels are 65536 sums.
std::shared_ptr<const std::vector<std::uint32_t>> flat_levels_kept(const std::vector<double>& w, int radius, kernel::CertifiedIntRange t) {
  struct Kept {
    std::vector<double> weights;
    kernel::CertifiedIntRange range;
    std::shared_ptr<const std::vector<std::uint32_t>> words;
  };
  static std::mutex lock;
  static std::array<Kept, 8> kept;
  static std::size_t next = 0;
  {
    const std::lock_guard<std::mutex> hold(lock);
    for (const Kept& k : kept)
      if (k.words && k.range.lowest == t.lowest && k.range.highest == t.highest && k.weights == w) return k.words;
  }
  auto words = std::make_shared<const std::vector<std::uint32_t>>(flat_levels(w.data() + radius, radius, t));
  const std::lock_guard<std::mutex> hold(lock);
  kept[next] = Kept{w, t, words};
  next = (next + 1) % kept.size();
  return words;
}

}  // namespace

std::int32_t scipy_int_value(const std::int32_t* x, const CertifiedIntAxis& axis) {
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
  return static_cast<std::int32_t>(acc);  // within the type's range: the weights are positive and sum to 1
}

CertifiedIntAxis certified_int_axis(const std::vector<double>& w, ElementType type) {
  if (!kernel::certified_int_possible(w)) throw std::logic_error("internal: certified_int_axis takes symmetric positive weights");
  const kernel::CertifiedIntRange t = kernel::certified_int_range(type);
  CertifiedIntAxis k;
  k.type = type;
  k.lowest = t.lowest;
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
  // SciPy's double sum against x0 + the real r: 2 radius + 1 roundings of values up to 2 M (M the
  // type's largest magnitude), and the weights' sum off 1 by |sum - 1| (times |x0| <= M); four
  // times that and 2^-40.
  const double M = std::max(-static_cast<double>(t.lowest), static_cast<double>(t.highest));
  k.per_weight = static_cast<float>((k.radius + 4) * std::ldexp(1.0, -23) + std::ldexp(1.0, -20));
  k.absolute = static_cast<float>(4.0 * ((2 * k.radius + 1) * 2.0 * M * std::ldexp(1.0, -53) + M * std::fabs(sum - 1.0)) +
                                  std::ldexp(1.0, -40));
  // The first tier (unsigned 8-bit): pair sums in [0, 510], partial sums at most 510 S. Against the
  // real r: the weights' rounding (2^-24 of 510 S), a rounding a multiply-add (radius of them), S's
  // own float32 sum (radius + 1 of them, times 2 x0 <= 510), the last multiply-add and the bound's
  // subtraction and addition (three more): (2 radius + 5) 2^-24 510 S, doubled; SciPy's side as above.
  if (t.lowest == 0 && t.highest == 255) {
    float s32 = 0.0f;
    for (int j = 1; j <= k.radius; ++j) s32 += k.w32[static_cast<std::size_t>(j)];
    k.quick_two_s = 2.0f * s32;
    k.quick_bound = static_cast<float>(510.0 * static_cast<double>(s32) * (2 * k.radius + 5) * std::ldexp(1.0, -23) +
                                       static_cast<double>(k.absolute));
  }
  k.flat_toward_zero = flat_levels_kept(w, k.radius, t);
  k.any_toward_zero = std::any_of(k.flat_toward_zero->begin(), k.flat_toward_zero->end(), [](std::uint32_t v) { return v != 0; });
  return k;
}

std::size_t certified_int_rows(const float* const* rows, std::size_t offset, float* out, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known) {
  return HWY_DYNAMIC_DISPATCH(CertifiedRows)(rows, offset, out, count, axis, known);
}

std::size_t certified_int_rows_pair(const float* const* rows, float* out_a, float* out_b, std::size_t count,
                                    const CertifiedIntAxis& axis, const KnownChannels& known_a,
                                    const KnownChannels& known_b) {
  if (!(axis.quick_bound > 0.0f)) throw std::logic_error("internal: certified_int_rows_pair takes unsigned 8-bit axes");
  return HWY_DYNAMIC_DISPATCH(CertifiedRowsPair)(rows, out_a, out_b, count, axis, known_a, known_b);
}

std::size_t certified_int_line(const float* centre, std::ptrdiff_t step, std::uint8_t* out8, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known) {
  return HWY_DYNAMIC_DISPATCH(CertifiedLine8)(centre, step, out8, count, axis, known);
}

std::size_t certified_int_line(const float* centre, std::ptrdiff_t step, std::uint16_t* out16, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known) {
  return HWY_DYNAMIC_DISPATCH(CertifiedLine16)(centre, step, out16, count, axis, known);
}

float certified_flat_result(const CertifiedIntAxis& axis, float level) {
  const auto v = static_cast<std::int32_t>(level);
  const auto at = static_cast<std::size_t>(v - axis.lowest);
  const bool toward_zero = ((*axis.flat_toward_zero)[at / 32] >> (at % 32)) & 1u;
  return static_cast<float>(toward_zero ? (v > 0 ? v - 1 : v + 1) : v);
}

std::uint32_t constant_channels(const float* row, std::size_t n, int channels, float* levels) {
  return HWY_DYNAMIC_DISPATCH(ConstantChannels)(row, n, channels, levels);
}

void widen_ints(ElementType type, const void* in, float* out, std::size_t n) {
  switch (type) {
    case ElementType::b8: case ElementType::u8: HWY_DYNAMIC_DISPATCH(WidenU8)(static_cast<const std::uint8_t*>(in), out, n); break;
    case ElementType::i8: HWY_DYNAMIC_DISPATCH(WidenI8)(static_cast<const std::int8_t*>(in), out, n); break;
    case ElementType::u16: HWY_DYNAMIC_DISPATCH(WidenU16)(static_cast<const std::uint16_t*>(in), out, n); break;
    case ElementType::i16: HWY_DYNAMIC_DISPATCH(WidenI16)(static_cast<const std::int16_t*>(in), out, n); break;
    default: throw std::logic_error("internal: widen_ints takes 8- and 16-bit integers");
  }
}

}  // namespace fastblur::cpu
#endif  // HWY_ONCE
