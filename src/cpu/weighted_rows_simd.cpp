// Highway kernel of weighted_rows_simd.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/weighted_rows_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/cache_control.h"

#include "core/element_convert-inl.h"

#include "cpu/weighted_rows_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// K rows known at compile time, so the weights and row pointers stay in registers; kStream writes
// the vectors past the caches (weighted_pair_stream). The vectors
// start where out is vector-aligned (the elements before it one at a time): rows placed like out
// in their cache lines are then read in whole lines too.
template <int K, bool kStream = false>
void WeightedRowsK(const float* const* rows, const float* w, float* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  hn::Vec<decltype(d)> wv[K];
  const float* row[K];
  for (int k = 0; k < K; ++k) wv[k] = hn::Set(d, w[k]), row[k] = rows[k];
  // One element with the vectors' arithmetic (a product, then fused multiply-adds), so an element
  // has the same bits whether or not it falls in the head.
  const auto one = [&](size_t i) {
    float sum = w[0] * row[0][i];
    for (int k = 1; k < K; ++k) sum = std::fma(w[k], row[k][i], sum);
    out[i] = sum;
  };
  const auto address = reinterpret_cast<uintptr_t>(out);
  const size_t head = address % sizeof(float) != 0 ? 0 : (N - address / sizeof(float) % N) % N;
  size_t i = 0;
  for (; i < head && i < n; ++i) one(i);
  for (; i + N <= n; i += N) {
    auto sum = hn::Mul(wv[0], hn::LoadU(d, row[0] + i));
    for (int k = 1; k < K; ++k) sum = hn::MulAdd(wv[k], hn::LoadU(d, row[k] + i), sum);
    if constexpr (kStream) hn::Stream(sum, d, out + i);
    else hn::StoreU(sum, d, out + i);
  }
  for (; i < n; ++i) one(i);
  // Streaming stores are weakly ordered: fenced before the row is handed on (another thread may
  // read it once the blur returns).
  if constexpr (kStream) hwy::FlushStream();
}

// Streaming stores need vector-aligned addresses: the vectors start where out is aligned, and an
// out not aligned to a float never is (then plain stores).
void WeightedPairStream(const float* const* rows, const float* w, float* out, size_t n) {
  if (reinterpret_cast<uintptr_t>(out) % sizeof(float) != 0) return WeightedRowsK<2>(rows, w, out, n);
  WeightedRowsK<2, true>(rows, w, out, n);
}

void WeightedRows(const float* const* rows, const float* w, int count, float* out, size_t n) {
  switch (count) {
    case 2: return WeightedRowsK<2>(rows, w, out, n);
    case 4: return WeightedRowsK<4>(rows, w, out, n);
    case 8: return WeightedRowsK<8>(rows, w, out, n);
    default: return WeightedRowsK<16>(rows, w, out, n);
  }
}

// Two rows' weighted sum converted to `type` as it is written (store_from_float's conversion, per
// vector): no float row between them. The tail goes through a full-vector buffer, as in
// element_convert.cpp.
template <fastblur::ElementType T>
void WeightedPairToT(const float* const* rows, const float* w, uint8_t* out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), es = fastblur::element_size(T);
  const auto w0 = hn::Set(d, w[0]), w1 = hn::Set(d, w[1]);
  const auto sum = [&](const float* a, const float* b) { return hn::MulAdd(w1, hn::LoadU(d, b), hn::Mul(w0, hn::LoadU(d, a))); };
  size_t i = 0;
  for (; i + N <= n; i += N) core::HWY_NAMESPACE::StoreOne(d, T, sum(rows[0] + i, rows[1] + i), out + i * es);
  if (i < n) {
    HWY_ALIGN float a[HWY_MAX_BYTES / sizeof(float)] = {}, b[HWY_MAX_BYTES / sizeof(float)] = {};
    HWY_ALIGN uint8_t tail[HWY_MAX_BYTES];
    std::copy(rows[0] + i, rows[0] + n, a), std::copy(rows[1] + i, rows[1] + n, b);
    core::HWY_NAMESPACE::StoreOne(d, T, sum(a, b), tail);
    std::copy(tail, tail + (n - i) * es, out + i * es);
  }
}

// weighted_rows of rows of `type`, each element converted as load_as_float converts it (exactly, for
// these types) as it is summed: no float row between. The tail reads through full-vector buffers.
template <fastblur::ElementType T, int K>
void WeightedRowsFromT(const void* const* rows, const float* w, float* out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d), es = fastblur::element_size(T);
  hn::Vec<decltype(d)> wv[K];
  const uint8_t* row[K];
  for (int k = 0; k < K; ++k) wv[k] = hn::Set(d, w[k]), row[k] = static_cast<const uint8_t*>(rows[k]);
  const auto load = [&](const uint8_t* p) { return core::HWY_NAMESPACE::LoadOne(d, T, p); };
  size_t i = 0;
  for (; i + N <= n; i += N) {
    auto sum = hn::Mul(wv[0], load(row[0] + i * es));
    for (int k = 1; k < K; ++k) sum = hn::MulAdd(wv[k], load(row[k] + i * es), sum);
    hn::StoreU(sum, d, out + i);
  }
  if (i < n) {
    HWY_ALIGN uint8_t tail[HWY_MAX_BYTES] = {};
    HWY_ALIGN float sums[HWY_MAX_BYTES / sizeof(float)];
    std::copy(row[0] + i * es, row[0] + n * es, tail);
    auto sum = hn::Mul(wv[0], load(tail));
    for (int k = 1; k < K; ++k) {
      std::copy(row[k] + i * es, row[k] + n * es, tail);
      sum = hn::MulAdd(wv[k], load(tail), sum);
    }
    hn::Store(sum, d, sums);
    std::copy(sums, sums + (n - i), out + i);
  }
}

template <fastblur::ElementType T>
bool WeightedRowsFromK(const void* const* rows, const float* w, int count, float* out, size_t n) {
  switch (count) {
    case 4: return WeightedRowsFromT<T, 4>(rows, w, out, n), true;
    case 8: return WeightedRowsFromT<T, 8>(rows, w, out, n), true;
    case 16: return WeightedRowsFromT<T, 16>(rows, w, out, n), true;
    default: return false;
  }
}

bool WeightedRowsFrom(const void* const* rows, fastblur::ElementType type, const float* w, int count, float* out,
                      size_t n) {
  switch (type) {
    case fastblur::ElementType::u8: return WeightedRowsFromK<fastblur::ElementType::u8>(rows, w, count, out, n);
    case fastblur::ElementType::u16: return WeightedRowsFromK<fastblur::ElementType::u16>(rows, w, count, out, n);
    case fastblur::ElementType::f16: return WeightedRowsFromK<fastblur::ElementType::f16>(rows, w, count, out, n);
    default: return false;
  }
}

bool WeightedPairTo(const float* const* rows, const float* w, fastblur::ElementType type, void* out, size_t n) {
  auto* o = static_cast<uint8_t*>(out);
  switch (type) {
    case fastblur::ElementType::u8: return WeightedPairToT<fastblur::ElementType::u8>(rows, w, o, n), true;
    case fastblur::ElementType::u16: return WeightedPairToT<fastblur::ElementType::u16>(rows, w, o, n), true;
    case fastblur::ElementType::f16: return WeightedPairToT<fastblur::ElementType::f16>(rows, w, o, n), true;
    default: return false;
  }
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "fastblur/error.hpp"
namespace fastblur::cpu {
HWY_EXPORT(WeightedRows);
HWY_EXPORT(WeightedPairStream);
HWY_EXPORT(WeightedPairTo);
HWY_EXPORT(WeightedRowsFrom);

bool weighted_rows_from(const void* const* rows, ElementType type, const float* w, int count, float* out, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(WeightedRowsFrom)(rows, type, w, count, out, n);
}

bool weighted_pair_to(const float* const* rows, const float* w, ElementType type, void* out, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(WeightedPairTo)(rows, w, type, out, n);
}

void weighted_pair_stream(const float* const* rows, const float* w, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(WeightedPairStream)(rows, w, out, n);
}

void weighted_rows(const float* const* rows, const float* w, int count, float* out, std::size_t n) {
  if (count != 2 && count != 4 && count != 8 && count != 16)
    throw InvalidArgument("weighted_rows: 2, 4, 8 or 16 rows, got " + std::to_string(count));
  HWY_DYNAMIC_DISPATCH(WeightedRows)(rows, w, count, out, n);
}
}  // namespace fastblur::cpu
#endif
