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

template <class T>
void ConvolveRowsT(const T* const* HWY_RESTRICT rows, T* HWY_RESTRICT out, size_t count,
                   const T* HWY_RESTRICT w, int radius) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const T* const* mid = rows + radius;
  size_t i = 0;
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

void ConvolveLineF32(const float* p, float* o, size_t n, const float* w, int r, size_t s) { ConvolveLineT(p, o, n, w, r, s); }
void ConvolveLineF64(const double* p, double* o, size_t n, const double* w, int r, size_t s) { ConvolveLineT(p, o, n, w, r, s); }
void ConvolveRowsF32(const float* const* p, float* o, size_t n, const float* w, int r) { ConvolveRowsT(p, o, n, w, r); }
void ConvolveRowsF64(const double* const* p, double* o, size_t n, const double* w, int r) { ConvolveRowsT(p, o, n, w, r); }

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(ConvolveLineF32);
HWY_EXPORT(ConvolveLineF64);
HWY_EXPORT(ConvolveRowsF32);
HWY_EXPORT(ConvolveRowsF64);

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
}  // namespace fastblur::cpu
#endif
