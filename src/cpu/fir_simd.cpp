// Highway kernels for fir; see fir_simd.hpp for what each computes.
#include <cstdint>
#include <cstring>
#include <limits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/fir_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/element.hpp"

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

// One vector of `type` at src -> floats. D is the float tag.
template <class D>
HWY_INLINE hn::Vec<D> LoadOne(D df, fastblur::ElementType type, const uint8_t* src) {
  const hn::RebindToSigned<D> di;
  switch (type) {
    case fastblur::ElementType::u8: {
      const hn::Rebind<uint8_t, decltype(di)> d8;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d8, src)));
    }
    case fastblur::ElementType::u16: {
      const hn::Rebind<uint16_t, decltype(di)> d16;
      return hn::ConvertTo(df, hn::PromoteTo(di, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(src))));
    }
    case fastblur::ElementType::f16: {
      const hn::Rebind<hwy::float16_t, D> dh;
      return hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(src)));
    }
    default: {
      // Float denormals (|x| < 2^-126) are read as zeros of their sign: arithmetic on them takes a
      // microcode assist on many x86 cores (10-100x slower), and they change a result by less than
      // float can resolve next to any normal value. NaN and Inf pass unchanged.
      const hn::Vec<D> v = hn::LoadU(df, reinterpret_cast<const float*>(src));
      const auto denormal = hn::Lt(hn::Abs(v), hn::Set(df, std::numeric_limits<float>::min()));
      return hn::IfThenElse(denormal, hn::And(v, hn::SignBit(df)), v);
    }
  }
}

template <class D>
HWY_INLINE void StoreOne(D df, fastblur::ElementType type, hn::Vec<D> v, uint8_t* dst) {
  const hn::RebindToSigned<D> di;
  switch (type) {
    case fastblur::ElementType::u8: {
      const hn::Rebind<uint8_t, decltype(di)> d8;
      v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 255.0f));
      hn::StoreU(hn::DemoteTo(d8, hn::NearestInt(v)), d8, dst);
      break;
    }
    case fastblur::ElementType::u16: {
      const hn::Rebind<uint16_t, decltype(di)> d16;
      v = hn::Min(hn::Max(v, hn::Zero(df)), hn::Set(df, 65535.0f));
      hn::StoreU(hn::DemoteTo(d16, hn::NearestInt(v)), d16, reinterpret_cast<uint16_t*>(dst));
      break;
    }
    case fastblur::ElementType::f16: {
      const hn::Rebind<hwy::float16_t, D> dh;
      hn::StoreU(hn::DemoteTo(dh, v), dh, reinterpret_cast<hwy::float16_t*>(dst));
      break;
    }
    default:
      hn::StoreU(v, df, reinterpret_cast<float*>(dst));
  }
}

void LoadAsFloat(fastblur::ElementType type, const void* src, float* dst, size_t count) {
  const hn::ScalableTag<float> df;
  const size_t N = hn::Lanes(df);
  const size_t es = fastblur::element_size(type);
  const auto* s = static_cast<const uint8_t*>(src);
  size_t i = 0;
  for (; i + N <= count; i += N) hn::StoreU(LoadOne(df, type, s + i * es), df, dst + i);
  if (i < count) {  // the tail goes through a full-vector buffer
    HWY_ALIGN uint8_t in[HWY_MAX_BYTES] = {};
    HWY_ALIGN float out[HWY_MAX_BYTES / sizeof(float)];
    std::memcpy(in, s + i * es, (count - i) * es);
    hn::Store(LoadOne(df, type, in), df, out);
    std::memcpy(dst + i, out, (count - i) * sizeof(float));
  }
}

void StoreFromFloat(fastblur::ElementType type, const float* src, void* dst, size_t count) {
  const hn::ScalableTag<float> df;
  const size_t N = hn::Lanes(df);
  const size_t es = fastblur::element_size(type);
  auto* o = static_cast<uint8_t*>(dst);
  size_t i = 0;
  for (; i + N <= count; i += N) StoreOne(df, type, hn::LoadU(df, src + i), o + i * es);
  if (i < count) {
    HWY_ALIGN float in[HWY_MAX_BYTES / sizeof(float)] = {};
    HWY_ALIGN uint8_t out[HWY_MAX_BYTES];
    std::memcpy(in, src + i, (count - i) * sizeof(float));
    StoreOne(df, type, hn::Load(df, in), out);
    std::memcpy(o + i * es, out, (count - i) * es);
  }
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(ConvolveLineF32);
HWY_EXPORT(ConvolveLineF64);
HWY_EXPORT(ConvolveRowsF32);
HWY_EXPORT(ConvolveRowsF64);
HWY_EXPORT(LoadAsFloat);
HWY_EXPORT(StoreFromFloat);

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
// The types with a SIMD conversion; the others (f64, computed in double; NumPy's other integer types
// and bool) convert one element at a time.
bool simd_type(ElementType type) {
  return type == ElementType::u8 || type == ElementType::u16 || type == ElementType::f16 || type == ElementType::f32;
}

void load_as_float(ElementType type, const void* src, float* dst, std::size_t count) {
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i)
      dst[i] = static_cast<float>(core::load_element(type, static_cast<const std::uint8_t*>(src) + es * i));
    return;
  }
  HWY_DYNAMIC_DISPATCH(LoadAsFloat)(type, src, dst, count);
}
void store_from_float(ElementType type, const float* src, void* dst, std::size_t count) {
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i) core::store_element(type, static_cast<std::uint8_t*>(dst) + es * i, src[i]);
    return;
  }
  HWY_DYNAMIC_DISPATCH(StoreFromFloat)(type, src, dst, count);
}
}  // namespace fastblur::cpu
#endif
