// Highway kernels for fir; see fir_simd.hpp for what each computes.
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/fir_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/fir_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Four independent accumulators hide the latency of the fused multiply-adds.
template <class T>
void ConvolveLineT(const T* HWY_RESTRICT padded, T* HWY_RESTRICT out, size_t count,
                   const T* HWY_RESTRICT w, int radius, size_t step) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const T* HWY_RESTRICT c = padded + static_cast<size_t>(radius) * step;
  size_t i = 0;
  for (; i + 4 * N <= count; i += 4 * N) {
    const auto w0 = hn::Set(d, w[0]);
    auto a0 = hn::Mul(w0, hn::LoadU(d, c + i));
    auto a1 = hn::Mul(w0, hn::LoadU(d, c + i + N));
    auto a2 = hn::Mul(w0, hn::LoadU(d, c + i + 2 * N));
    auto a3 = hn::Mul(w0, hn::LoadU(d, c + i + 3 * N));
    for (int k = 1; k <= radius; ++k) {
      const auto wk = hn::Set(d, w[k]);
      const T* l = c + i - static_cast<size_t>(k) * step;
      const T* r = c + i + static_cast<size_t>(k) * step;
      a0 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l), hn::LoadU(d, r)), a0);
      a1 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + N), hn::LoadU(d, r + N)), a1);
      a2 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + 2 * N), hn::LoadU(d, r + 2 * N)), a2);
      a3 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + 3 * N), hn::LoadU(d, r + 3 * N)), a3);
    }
    hn::StoreU(a0, d, out + i);
    hn::StoreU(a1, d, out + i + N);
    hn::StoreU(a2, d, out + i + 2 * N);
    hn::StoreU(a3, d, out + i + 3 * N);
  }
  for (; i + N <= count; i += N) {
    auto a = hn::Mul(hn::Set(d, w[0]), hn::LoadU(d, c + i));
    for (int k = 1; k <= radius; ++k) {
      const size_t o = static_cast<size_t>(k) * step;
      a = hn::MulAdd(hn::Set(d, w[k]), hn::Add(hn::LoadU(d, c + i - o), hn::LoadU(d, c + i + o)), a);
    }
    hn::StoreU(a, d, out + i);
  }
  // The tail one lane at a time with the vectors' own operations: every schedule and piece size then
  // gives the same bits (a scalar a += w * x would round twice where MulAdd rounds once).
  const hn::CappedTag<T, 1> d1;
  for (; i < count; ++i) {
    auto a = hn::Mul(hn::Set(d1, w[0]), hn::LoadU(d1, c + i));
    for (int k = 1; k <= radius; ++k) {
      const size_t o = static_cast<size_t>(k) * step;
      // (c + i) - o: c + (i - o) would wrap i - o below zero
      a = hn::MulAdd(hn::Set(d1, w[k]), hn::Add(hn::LoadU(d1, (c + i) - o), hn::LoadU(d1, c + i + o)), a);
    }
    hn::StoreU(a, d1, out + i);
  }
}

// Output lanes i_begin .. count - 1 of ConvolveRowsT (below): every lane's arithmetic is the same
// whichever of the loops takes it, so any split gives the same bits.
template <class T>
HWY_INLINE void ConvolveRowsFrom(const T* const* HWY_RESTRICT rows, T* HWY_RESTRICT out, size_t i_begin,
                                 size_t count, const T* HWY_RESTRICT w, int radius) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const T* const* mid = rows + radius;
  size_t i = i_begin;
  for (; i + 4 * N <= count; i += 4 * N) {
    const auto w0 = hn::Set(d, w[0]);
    const T* c = mid[0] + i;
    auto a0 = hn::Mul(w0, hn::LoadU(d, c));
    auto a1 = hn::Mul(w0, hn::LoadU(d, c + N));
    auto a2 = hn::Mul(w0, hn::LoadU(d, c + 2 * N));
    auto a3 = hn::Mul(w0, hn::LoadU(d, c + 3 * N));
    for (int k = 1; k <= radius; ++k) {
      const auto wk = hn::Set(d, w[k]);
      const T* l = mid[-k] + i;
      const T* r = mid[k] + i;
      a0 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l), hn::LoadU(d, r)), a0);
      a1 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + N), hn::LoadU(d, r + N)), a1);
      a2 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + 2 * N), hn::LoadU(d, r + 2 * N)), a2);
      a3 = hn::MulAdd(wk, hn::Add(hn::LoadU(d, l + 3 * N), hn::LoadU(d, r + 3 * N)), a3);
    }
    hn::StoreU(a0, d, out + i);
    hn::StoreU(a1, d, out + i + N);
    hn::StoreU(a2, d, out + i + 2 * N);
    hn::StoreU(a3, d, out + i + 3 * N);
  }
  for (; i + N <= count; i += N) {
    auto a = hn::Mul(hn::Set(d, w[0]), hn::LoadU(d, mid[0] + i));
    for (int k = 1; k <= radius; ++k)
      a = hn::MulAdd(hn::Set(d, w[k]), hn::Add(hn::LoadU(d, mid[-k] + i), hn::LoadU(d, mid[k] + i)), a);
    hn::StoreU(a, d, out + i);
  }
  const hn::CappedTag<T, 1> d1;  // the tail with the vectors' own operations (see ConvolveLineT)
  for (; i < count; ++i) {
    auto a = hn::Mul(hn::Set(d1, w[0]), hn::LoadU(d1, mid[0] + i));
    for (int k = 1; k <= radius; ++k)
      a = hn::MulAdd(hn::Set(d1, w[k]), hn::Add(hn::LoadU(d1, mid[-k] + i), hn::LoadU(d1, mid[k] + i)), a);
    hn::StoreU(a, d1, out + i);
  }
}

template <class T>
void ConvolveRowsT(const T* const* HWY_RESTRICT rows, T* HWY_RESTRICT out, size_t count,
                   const T* HWY_RESTRICT w, int radius) {
  ConvolveRowsFrom(rows, out, 0, count, w, radius);
}

// B output rows from 2r + B rows (rows[0] = row j - r): out[m] is row j + m. With L(m) = row j + m,
// out[m] = w0 L(m) + sum_k w_k (L(m - k) + L(m + k)); at tap k the rows L(-k) .. L(B - 1 - k) and
// L(k) .. L(k + B - 1) are needed, and all but L(-k) and L(k + B - 1) were loaded at tap k - 1, so
// each tap loads two rows for B outputs (one row at a time loads two for one). Each lane gets the
// products and fused multiply-adds of ConvolveRowsT in the same order: the same bits.
template <int B, class T>
HWY_INLINE void ConvolveRowsBlockT(const T* const* HWY_RESTRICT rows, T* const* HWY_RESTRICT out, size_t count,
                                   const T* HWY_RESTRICT w, int radius) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const T* const* L = rows + radius;  // L[m] = row j + m, m = -r .. r + B - 1
  size_t i = 0;
  for (; i + N <= count; i += N) {
    hn::Vec<decltype(d)> acc[B], lo[B], hi[B];
    const auto w0 = hn::Set(d, w[0]);
    for (int m = 0; m < B; ++m) {
      lo[m] = hi[m] = hn::LoadU(d, L[m] + i);
      acc[m] = hn::Mul(w0, lo[m]);
    }
    for (int k = 1; k <= radius; ++k) {
      const auto wk = hn::Set(d, w[k]);
      for (int m = B - 1; m > 0; --m) lo[m] = lo[m - 1];
      lo[0] = hn::LoadU(d, L[-k] + i);  // L(-k)
      for (int m = 0; m + 1 < B; ++m) hi[m] = hi[m + 1];
      hi[B - 1] = hn::LoadU(d, L[k + B - 1] + i);  // L(k + B - 1)
      for (int m = 0; m < B; ++m) acc[m] = hn::MulAdd(wk, hn::Add(lo[m], hi[m]), acc[m]);
    }
    for (int m = 0; m < B; ++m) hn::StoreU(acc[m], d, out[m] + i);
  }
  if (i < count)  // the last lanes, one row at a time (the same arithmetic)
    for (int m = 0; m < B; ++m) ConvolveRowsFrom(rows + m, out[m], i, count, w, radius);
}

template <class T>
void ConvolveRowsBlockDispatch(const T* const* HWY_RESTRICT rows, T* const* HWY_RESTRICT out, size_t count,
                               const T* HWY_RESTRICT w, int radius) {
  static_assert(kRowBlock == 8);
#if HWY_TARGET <= HWY_AVX3
  ConvolveRowsBlockT<8>(rows, out, count, w, radius);  // 24 of the 32 vector registers
#else
  // 16 registers (AVX2 and below): two blocks of 4 rows, 12 registers each.
  ConvolveRowsBlockT<4>(rows, out, count, w, radius);
  ConvolveRowsBlockT<4>(rows + 4, out + 4, count, w, radius);
#endif
}

void ConvolveLineF32(const float* p, float* o, size_t n, const float* w, int r, size_t s) { ConvolveLineT(p, o, n, w, r, s); }
void ConvolveLineF64(const double* p, double* o, size_t n, const double* w, int r, size_t s) { ConvolveLineT(p, o, n, w, r, s); }
void ConvolveRowsF32(const float* const* p, float* o, size_t n, const float* w, int r) { ConvolveRowsT(p, o, n, w, r); }
void ConvolveRowsF64(const double* const* p, double* o, size_t n, const double* w, int r) { ConvolveRowsT(p, o, n, w, r); }
void ConvolveRowsBlockF32(const float* const* p, float* const* o, size_t n, const float* w, int r) {
  ConvolveRowsBlockDispatch(p, o, n, w, r);
}
void ConvolveRowsBlockF64(const double* const* p, double* const* o, size_t n, const double* w, int r) {
  ConvolveRowsBlockDispatch(p, o, n, w, r);
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(ConvolveLineF32);
HWY_EXPORT(ConvolveLineF64);
HWY_EXPORT(ConvolveRowsF32);
HWY_EXPORT(ConvolveRowsF64);
HWY_EXPORT(ConvolveRowsBlockF32);
HWY_EXPORT(ConvolveRowsBlockF64);

void convolve_line(const float* p, float* o, std::size_t n, const float* w, int r, std::size_t s) {
  HWY_DYNAMIC_DISPATCH(ConvolveLineF32)(p, o, n, w, r, s);
}
void convolve_line(const double* p, double* o, std::size_t n, const double* w, int r, std::size_t s) {
  HWY_DYNAMIC_DISPATCH(ConvolveLineF64)(p, o, n, w, r, s);
}
void convolve_rows(const float* const* p, float* o, std::size_t n, const float* w, int r) {
  HWY_DYNAMIC_DISPATCH(ConvolveRowsF32)(p, o, n, w, r);
}
void convolve_rows(const double* const* p, double* o, std::size_t n, const double* w, int r) {
  HWY_DYNAMIC_DISPATCH(ConvolveRowsF64)(p, o, n, w, r);
}
void convolve_rows_block(const float* const* p, float* const* o, std::size_t n, const float* w, int r) {
  HWY_DYNAMIC_DISPATCH(ConvolveRowsBlockF32)(p, o, n, w, r);
}
void convolve_rows_block(const double* const* p, double* const* o, std::size_t n, const double* w, int r) {
  HWY_DYNAMIC_DISPATCH(ConvolveRowsBlockF64)(p, o, n, w, r);
}
}  // namespace fastblur::cpu
#endif
