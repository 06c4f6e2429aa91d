// Highway kernels of missing_rows_simd.hpp.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/missing_rows_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/cache_control.h"

#include "cpu/missing_rows_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// N = 2, 3 or 4 interleaved values from p into v[0 .. N).
template <int N, class D, class V>
HWY_INLINE void LoadInterleavedN(D d, const hn::TFromD<D>* HWY_RESTRICT p, V* v) {
  if constexpr (N == 2) hn::LoadInterleaved2(d, p, v[0], v[1]);
  if constexpr (N == 3) hn::LoadInterleaved3(d, p, v[0], v[1], v[2]);
  if constexpr (N == 4) hn::LoadInterleaved4(d, p, v[0], v[1], v[2], v[3]);
}

// Where the divisions read their weighted values and weights (K + 1 a pixel): one row, or the lerp
// wa a + wb b of two rows computed as weighted_rows computes it (a product, then a fused
// multiply-add), so a lerp divided as it is read has the bits of the lerp written, then divided.
template <class T>
struct OneRow {
  const T* HWY_RESTRICT in;
  T At(int64_t i) const { return in[i]; }
  template <class D>
  hn::Vec<D> Load(D d, int64_t i) const { return hn::LoadU(d, in + i); }
  template <int N, class D, class V>
  void Interleaved(D d, int64_t i, V* v) const { LoadInterleavedN<N>(d, in + i, v); }
};
template <class T>
struct LerpOfRows {
  const T *HWY_RESTRICT a, *HWY_RESTRICT b;
  T wa, wb;
  T At(int64_t i) const { return std::fma(wb, b[i], wa * a[i]); }
  template <class D>
  hn::Vec<D> Load(D d, int64_t i) const {
    return hn::MulAdd(hn::Set(d, wb), hn::LoadU(d, b + i), hn::Mul(hn::Set(d, wa), hn::LoadU(d, a + i)));
  }
  template <int N, class D, class V>
  void Interleaved(D d, int64_t i, V* v) const {
    V va[4], vb[4];
    LoadInterleavedN<N>(d, a + i, va), LoadInterleavedN<N>(d, b + i, vb);
    for (int c = 0; c < N; ++c) v[c] = hn::MulAdd(hn::Set(d, wb), vb[c], hn::Mul(hn::Set(d, wa), va[c]));
  }
};

// One pixel as the vectors do it (the tail).
template <int K, class T>
bool PackOne(const T* in, T* out, bool omit_nan) {
  const bool hole = omit_nan && in[0] != in[0];
  bool mixed = false;
  for (int c = 1; c < K; ++c) mixed |= omit_nan && ((in[c] != in[c]) != hole);
  for (int c = 0; c < K; ++c) out[c] = hole ? T(0) : in[c];
  out[K] = hole ? T(0) : T(1);
  return mixed;
}

// RGB floats into RGBW, 4 pixels a 16-lane vector: one lane permute places them (the interleaving
// loads and stores of PackK take about four times the shuffles), a second spreads each pixel's R
// NaN over its lanes. Returns the pixels done (the rest: PackK's loop); `mixed` as PackK's.
template <class D>
HWY_INLINE int64_t PackRgbFloat16(D d, const float* HWY_RESTRICT in, float* HWY_RESTRICT out, int64_t width, bool omit_nan,
                                  bool& mixed) {
  const hn::RebindToSigned<D> di;
  alignas(64) static constexpr int32_t kPlace[16] = {0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11};
  alignas(64) static constexpr int32_t kRed[16] = {0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12};
  alignas(64) static constexpr int32_t kWeight[16] = {0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1};
  const auto place = hn::SetTableIndices(d, kPlace);
  const auto red = hn::SetTableIndices(di, kRed);
  const auto weight_lane = hn::MaskFromVec(hn::BitCast(d, hn::Load(di, kWeight)));
  const auto one = hn::Set(d, 1.0f);
  auto differ = hn::Zero(di);
  int64_t x = 0;
  for (; 3 * x + 16 <= 3 * width; x += 4) {  // the load reads 4 values past the 4 pixels
    const auto v = hn::TableLookupLanes(hn::LoadU(d, in + 3 * x), place);
    auto w = hn::IfThenElse(weight_lane, one, v);
    if (omit_nan) {
      const auto nan = hn::BitCast(di, hn::VecFromMask(d, hn::IsNaN(v)));
      const auto hole = hn::TableLookupLanes(nan, red);
      differ = hn::Or(differ, hn::Xor(nan, hole));
      w = hn::IfThenZeroElse(hn::MaskFromVec(hn::BitCast(d, hole)), w);
    }
    hn::StoreU(w, d, out + 4 * x);
  }
  mixed = !hn::AllTrue(di, hn::Eq(differ, hn::Zero(di)));
  return x;
}

template <int K, class T>
bool PackK(const T* HWY_RESTRICT in, T* HWY_RESTRICT out, int64_t width, bool omit_nan) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto one = hn::Set(d, T(1));
  auto mixed = hn::FirstN(d, 0);
  int64_t x = 0;
  bool mixed_rgb = false;
  if constexpr (K == 3 && std::is_same_v<T, float>) {
    if (N == 16) x = PackRgbFloat16(d, in, out, width, omit_nan, mixed_rgb);
  }
  for (; x + N <= width; x += N) {
    hn::Vec<decltype(d)> v[3];
    if constexpr (K == 1) v[0] = hn::LoadU(d, in + x);
    if constexpr (K == 2) hn::LoadInterleaved2(d, in + 2 * x, v[0], v[1]);
    if constexpr (K == 3) hn::LoadInterleaved3(d, in + 3 * x, v[0], v[1], v[2]);
    const auto hole = omit_nan ? hn::IsNaN(v[0]) : hn::FirstN(d, 0);
    for (int c = 1; c < K; ++c)
      if (omit_nan) mixed = hn::Or(mixed, hn::Xor(hn::IsNaN(v[c]), hole));
    for (int c = 0; c < K; ++c) v[c] = hn::IfThenZeroElse(hole, v[c]);
    const auto w = hn::IfThenZeroElse(hole, one);
    if constexpr (K == 1) hn::StoreInterleaved2(v[0], w, d, out + 2 * x);
    if constexpr (K == 2) hn::StoreInterleaved3(v[0], v[1], w, d, out + 3 * x);
    if constexpr (K == 3) hn::StoreInterleaved4(v[0], v[1], v[2], w, d, out + 4 * x);
  }
  bool any = mixed_rgb || !hn::AllFalse(d, mixed);
  for (; x < width; ++x) any |= PackOne<K>(in + K * x, out + (K + 1) * x, omit_nan);
  return any;
}

// RGBW floats divided into RGB, 4 pixels a 16-lane vector: each pixel's weight spread over its lanes
// by a lane permute, the quotients compressed to 12 lanes and stored whole (the next store writes
// over the 4 past them). Returns the pixels done (the rest: DivideK's loop).
template <class D, class Src>
HWY_INLINE int64_t DivideRgbFloat16(D d, const Src& in, float* HWY_RESTRICT out, int64_t width, float floor, float empty) {
  const hn::RebindToSigned<D> di;
  alignas(64) static constexpr int32_t kWeight[16] = {3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15};
  alignas(64) static constexpr int32_t kColour[16] = {-1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0};
  const auto spread = hn::SetTableIndices(d, kWeight);
  const auto colour = hn::MaskFromVec(hn::BitCast(d, hn::Load(di, kColour)));
  const auto floor_v = hn::Set(d, floor), empty_v = hn::Set(d, empty);
  int64_t x = 0;
  for (; 3 * x + 16 <= 3 * width; x += 4) {  // the store writes 4 values past the 4 pixels
    const auto v = in.Load(d, 4 * x);
    const auto w = hn::TableLookupLanes(v, spread);
    const auto q = hn::IfThenElse(hn::Gt(w, floor_v), hn::Div(v, w), empty_v);
    hn::StoreU(hn::Compress(q, colour), d, out + 3 * x);
  }
  return x;
}

// One pixel's quotients (the rows' heads and tails, streamed or not).
template <int K, class T, class Src>
void DivideOne(const Src& in, int64_t x, T* out, T floor, T empty) {
  const T den = in.At((K + 1) * x + K);
  for (int c = 0; c < K; ++c) out[c] = den > floor ? in.At((K + 1) * x + c) / den : empty;
}

// Pixels before out + K x starts a cache line (at most 15; the float's 4-byte alignment lets some x
// reach one): the streamed stores need whole lines.
inline int64_t PixelsToLine(const float* out, int K) {
  const auto misaligned = static_cast<int64_t>(reinterpret_cast<std::uintptr_t>(out) % 64);
  if (misaligned % 4 != 0) return -1;
  for (int64_t x = 0; x < 16; ++x)
    if ((misaligned + 4 * K * x) % 64 == 0) return x;
  return -1;
}

#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
// The lanes of two vectors of 4 RGBW quotients (a: pixels p0 .. p0 + 3, b: the next 4) that make
// RGB values 16 v .. 16 v + 15 of a run of 16 pixels: _mm512_permutex2var_ps indices (16+: b's).
struct RgbOfRgbw {
  alignas(64) int32_t lanes[3][16];
  constexpr RgbOfRgbw() : lanes{} {
    for (int v = 0; v < 3; ++v)
      for (int j = 0; j < 16; ++j) {
        const int value = 16 * v + j, p = value / 3, c = value % 3;  // pixel p of 16, channel c
        const int first = (16 * v / 3) / 4 * 4;                     // a's first pixel
        lanes[v][j] = (p - first) / 4 * 16 + 4 * ((p - first) % 4) + c;
      }
  }
};

// DivideRgbFloat16 with the destination streamed past the caches (a destination larger than them:
// a regular store reads each line before writing it): 16 pixels an iteration, their 48 quotients
// placed in three whole vectors by two-vector lane permutes and streamed, from the first pixel whose
// values start a cache line. Returns the pixels done; `start` is that first pixel.
template <class Src>
HWY_INLINE int64_t DivideRgbFloat16Stream(const Src& in, float* HWY_RESTRICT out, int64_t width, float floor, float empty,
                                          int64_t start) {
  const hn::Full512<float> d;
  alignas(64) static constexpr int32_t kWeight[16] = {3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15};
  static constexpr RgbOfRgbw kPlace{};
  const auto spread = hn::SetTableIndices(d, kWeight);
  const __m512i place0 = _mm512_load_si512(kPlace.lanes[0]), place1 = _mm512_load_si512(kPlace.lanes[1]),
                place2 = _mm512_load_si512(kPlace.lanes[2]);
  const auto floor_v = hn::Set(d, floor), empty_v = hn::Set(d, empty);
  int64_t x = start;
  for (; x + 16 <= width; x += 16) {
    __m512 q[4];
    for (int i = 0; i < 4; ++i) {
      const auto v = in.Load(d, 4 * (x + 4 * i));
      const auto w = hn::TableLookupLanes(v, spread);
      q[i] = hn::IfThenElse(hn::Gt(w, floor_v), hn::Div(v, w), empty_v).raw;
    }
    float* to = out + 3 * x;
    hn::Stream(hn::Vec512<float>{_mm512_permutex2var_ps(q[0], place0, q[1])}, d, to);
    hn::Stream(hn::Vec512<float>{_mm512_permutex2var_ps(q[1], place1, q[2])}, d, to + 16);
    hn::Stream(hn::Vec512<float>{_mm512_permutex2var_ps(q[2], place2, q[3])}, d, to + 32);
  }
  return x;
}
#endif

// DivideK's rows with the destination streamed: RGB floats on 512-bit targets, one value a pixel
// on any; returns false where it does not (then DivideK).
template <int K, class T, class Src>
bool DivideStreamed(const Src& in, T* HWY_RESTRICT out, int64_t width, T floor, T empty) {
  if constexpr (!std::is_same_v<T, float> || K == 2) {
    return false;
  } else {
    const int64_t start = PixelsToLine(out, K);
    if (start < 0 || start + 16 > width) return false;
    for (int64_t x = 0; x < start; ++x) DivideOne<K>(in, x, out + K * x, floor, empty);
    int64_t x = start;
    if constexpr (K == 3) {
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
      x = DivideRgbFloat16Stream(in, out, width, floor, empty, start);
#else
      return false;
#endif
    } else {  // one value a pixel: whole vectors from a line's start
      const hn::ScalableTag<float> d;
      const int64_t N = static_cast<int64_t>(hn::Lanes(d));
      const auto floor_v = hn::Set(d, floor), empty_v = hn::Set(d, empty);
      for (; x + N <= width && (N * 4) % 64 == 0; x += N) {
        hn::Vec<decltype(d)> vw[2];
        in.template Interleaved<2>(d, 2 * x, vw);
        hn::Stream(hn::IfThenElse(hn::Gt(vw[1], floor_v), hn::Div(vw[0], vw[1]), empty_v), d, out + x);
      }
    }
    hwy::FlushStream();
    for (; x < width; ++x) DivideOne<K>(in, x, out + K * x, floor, empty);
    return true;
  }
}

template <int K, class T, class Src>
void DivideK(const Src& in, T* HWY_RESTRICT out, int64_t width, T floor, T empty) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto floor_v = hn::Set(d, floor), empty_v = hn::Set(d, empty);
  int64_t x = 0;
  if constexpr (K == 3 && std::is_same_v<T, float>) {
    if (N == 16) x = DivideRgbFloat16(d, in, out, width, floor, empty);
  }
  for (; x + N <= width; x += N) {
    hn::Vec<decltype(d)> v[K + 1];
    in.template Interleaved<K + 1>(d, (K + 1) * x, v);
    const auto w = v[K];
    const auto valid = hn::Gt(w, floor_v);
    for (int c = 0; c < K; ++c) v[c] = hn::IfThenElse(valid, hn::Div(v[c], w), empty_v);
    if constexpr (K == 1) hn::StoreU(v[0], d, out + x);
    if constexpr (K == 2) hn::StoreInterleaved2(v[0], v[1], d, out + 2 * x);
    if constexpr (K == 3) hn::StoreInterleaved3(v[0], v[1], v[2], d, out + 3 * x);
  }
  for (; x < width; ++x) DivideOne<K>(in, x, out + K * x, floor, empty);
}

// The weighted sum of `count` rows packed as PackK packs them, without packing them: one pixel
// (the tail), in weighted_rows' order (a product, then fused multiply-adds). Returns `mixed`.
template <int K>
bool WeightedPackedOne(const float* const* rows, const float* w, int count, int64_t x, float* out, bool omit_nan) {
  bool mixed = false;
  for (int j = 0; j < count; ++j) {
    float packed[K + 1];
    mixed |= PackOne<K>(rows[j] + K * x, packed, omit_nan);
    for (int c = 0; c <= K; ++c) out[c] = j == 0 ? w[0] * packed[c] : std::fma(w[j], packed[c], out[c]);
  }
  return mixed;
}

// One value a pixel: its NaN lanes zeroed and weighted 0 as the vectors are loaded.
template <int Count>
bool WeightedPackedGrey(const float* const* rows, const float* w, float* HWY_RESTRICT out, int64_t width, bool omit_nan) {
  const hn::ScalableTag<float> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto one = hn::Set(d, 1.0f);
  int64_t x = 0;
  for (; x + N <= width; x += N) {
    hn::Vec<decltype(d)> sum, weight;
    for (int j = 0; j < Count; ++j) {
      const auto v = hn::LoadU(d, rows[j] + x);
      const auto hole = omit_nan ? hn::IsNaN(v) : hn::FirstN(d, 0);
      const auto wj = hn::Set(d, w[j]), z = hn::IfThenZeroElse(hole, v), u = hn::IfThenZeroElse(hole, one);
      sum = j == 0 ? hn::Mul(wj, z) : hn::MulAdd(wj, z, sum);
      weight = j == 0 ? hn::Mul(wj, u) : hn::MulAdd(wj, u, weight);
    }
    hn::StoreInterleaved2(sum, weight, d, out + 2 * x);
  }
  for (; x < width; ++x) WeightedPackedOne<1>(rows, w, Count, x, out + 2 * x, omit_nan);
  return false;
}

#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
// The lanes that make RGBW vector q (pixels 4q .. 4q + 3 of 16) from the RGB sums of 16 pixels (three
// vectors, 48 values) and their weights' sums: a two-vector permute of sums first[q] and first[q] + 1
// for R, G and B (16+: the second), then the weights' lanes 4q .. 4q + 3 into lanes 3, 7, 11, 15.
struct RgbwOfRgb {
  alignas(64) int32_t colour[4][16];
  alignas(64) int32_t weight[4][16];
  int first[4];
  constexpr RgbwOfRgb() : colour{}, weight{}, first{} {
    for (int q = 0; q < 4; ++q) {
      first[q] = q < 2 ? 0 : 1;
      for (int i = 0; i < 4; ++i) {
        for (int c = 0; c < 3; ++c) colour[q][4 * i + c] = 12 * q + 3 * i + c - 16 * first[q];
        weight[q][4 * i + 3] = 4 * q + i;
      }
    }
  }
};

// RGB rows, 16 pixels an iteration: each row's three vectors summed where they lie, NaN lanes
// zeroed; the pixels' weights from their R lanes (the 48 lanes' NaN mask, every third bit, by
// PEXT); a pixel mixed where its lanes' NaN bits are not its R bit three times. The sums are put in
// RGBW order once, after the last row.
template <int Count>
bool WeightedPackedRgb16(const float* const* rows, const float* w, float* HWY_RESTRICT out, int64_t width, bool omit_nan) {
  static constexpr RgbwOfRgb kPlace{};
  constexpr uint64_t kRed = 0x249249249249ull;  // bits 0, 3, ..., 45
  const __m512 one = _mm512_set1_ps(1.0f);
  uint64_t differ = 0;
  int64_t x = 0;
  for (; x + 16 <= width; x += 16) {
    __m512 sum[3], weight;
    for (int j = 0; j < Count; ++j) {
      const float* p = rows[j] + 3 * x;
      const __m512 wj = _mm512_set1_ps(w[j]);
      __m512 v[3];
      uint64_t nan = 0;
      for (int i = 0; i < 3; ++i) {
        v[i] = _mm512_loadu_ps(p + 16 * i);
        if (omit_nan) nan |= static_cast<uint64_t>(_mm512_fpclass_ps_mask(v[i], 0x81)) << (16 * i);  // QNaN | SNaN
      }
      differ |= nan ^ ((nan & kRed) * 7);
      const __mmask16 valid = static_cast<__mmask16>(~_pext_u64(nan, kRed));
      for (int i = 0; i < 3; ++i) {
        const __m512 z = _mm512_maskz_mov_ps(static_cast<__mmask16>(~(nan >> (16 * i))), v[i]);
        sum[i] = j == 0 ? _mm512_mul_ps(wj, z) : _mm512_fmadd_ps(wj, z, sum[i]);
      }
      const __m512 u = _mm512_maskz_mov_ps(valid, one);
      weight = j == 0 ? _mm512_mul_ps(wj, u) : _mm512_fmadd_ps(wj, u, weight);
    }
    for (int q = 0; q < 4; ++q) {
      const int a = kPlace.first[q];
      const __m512 rgb = _mm512_permutex2var_ps(sum[a], _mm512_load_si512(kPlace.colour[q]), sum[a + 1]);
      _mm512_storeu_ps(out + 4 * (x + 4 * q), _mm512_mask_permutexvar_ps(rgb, 0x8888, _mm512_load_si512(kPlace.weight[q]), weight));
    }
  }
  bool mixed = differ != 0;
  for (; x < width; ++x) mixed |= WeightedPackedOne<3>(rows, w, Count, x, out + 4 * x, omit_nan);
  return mixed;
}
#endif

// weighted_packed_rows: false where this target has no such loop (then pack, then weighted_rows).
template <int Count>
bool WeightedPackedCount(const float* const* rows, const float* w, float* out, int64_t width, int k, bool omit_nan,
                         bool& mixed) {
  if (k == 1) return mixed = WeightedPackedGrey<Count>(rows, w, out, width, omit_nan), true;
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
  if (k == 3) return mixed = WeightedPackedRgb16<Count>(rows, w, out, width, omit_nan), true;
#endif
  return false;
}
bool WeightedPackedF(const float* const* rows, const float* w, int count, float* out, int64_t width, int k, bool omit_nan,
                     bool& mixed) {
  switch (count) {
    case 4: return WeightedPackedCount<4>(rows, w, out, width, k, omit_nan, mixed);
    case 8: return WeightedPackedCount<8>(rows, w, out, width, k, omit_nan, mixed);
    case 16: return WeightedPackedCount<16>(rows, w, out, width, k, omit_nan, mixed);
    default: return false;
  }
}

template <class T>
bool Pack(const T* in, T* out, int64_t width, int k, bool omit_nan) {
  return k == 1 ? PackK<1>(in, out, width, omit_nan) : k == 2 ? PackK<2>(in, out, width, omit_nan) : PackK<3>(in, out, width, omit_nan);
}
template <class T, class Src>
void Divide(const Src& in, T* out, int64_t width, int k, T floor, T empty, bool stream) {
  if (stream && (k == 1 ? DivideStreamed<1>(in, out, width, floor, empty)
                        : k == 3 && DivideStreamed<3>(in, out, width, floor, empty)))
    return;
  if (k == 1) DivideK<1>(in, out, width, floor, empty);
  else if (k == 2) DivideK<2>(in, out, width, floor, empty);
  else DivideK<3>(in, out, width, floor, empty);
}
bool PackF(const float* in, float* out, int64_t width, int k, bool omit_nan) { return Pack(in, out, width, k, omit_nan); }
bool PackD(const double* in, double* out, int64_t width, int k, bool omit_nan) { return Pack(in, out, width, k, omit_nan); }
void DivideF(const float* in, float* out, int64_t width, int k, float floor, float empty, bool stream) {
  Divide(OneRow<float>{in}, out, width, k, floor, empty, stream);
}
void DivideD(const double* in, double* out, int64_t width, int k, double floor, double empty, bool stream) {
  Divide(OneRow<double>{in}, out, width, k, floor, empty, stream);
}
void DivideLerpF(const float* a, const float* b, float wa, float wb, float* out, int64_t width, int k, float floor,
                 float empty, bool stream) {
  Divide(LerpOfRows<float>{a, b, wa, wb}, out, width, k, floor, empty, stream);
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

namespace fastblur::cpu {
HWY_EXPORT(PackF);
HWY_EXPORT(PackD);
HWY_EXPORT(DivideF);
HWY_EXPORT(DivideD);
HWY_EXPORT(DivideLerpF);
HWY_EXPORT(WeightedPackedF);

bool pack_nan_row(const float* in, float* out, std::int64_t width, int k, bool omit_nan) {
  return HWY_DYNAMIC_DISPATCH(PackF)(in, out, width, k, omit_nan);
}
bool pack_nan_row(const double* in, double* out, std::int64_t width, int k, bool omit_nan) {
  return HWY_DYNAMIC_DISPATCH(PackD)(in, out, width, k, omit_nan);
}
void divide_row(const float* in, float* out, std::int64_t width, int k, float floor, float empty, bool stream) {
  HWY_DYNAMIC_DISPATCH(DivideF)(in, out, width, k, floor, empty, stream);
}
void divide_row(const double* in, double* out, std::int64_t width, int k, double floor, double empty, bool stream) {
  HWY_DYNAMIC_DISPATCH(DivideD)(in, out, width, k, floor, empty, stream);
}
bool weighted_packed_rows(const float* const* rows, const float* w, int count, float* out, std::int64_t width, int k,
                          bool omit_nan, bool& mixed) {
  return HWY_DYNAMIC_DISPATCH(WeightedPackedF)(rows, w, count, out, width, k, omit_nan, mixed);
}
void divide_lerp_row(const float* a, const float* b, float wa, float wb, float* out, std::int64_t width, int k, float floor,
                     float empty, bool stream) {
  HWY_DYNAMIC_DISPATCH(DivideLerpF)(a, b, wa, wb, out, width, k, floor, empty, stream);
}
}  // namespace fastblur::cpu

#endif  // HWY_ONCE
