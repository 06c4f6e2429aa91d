// Element conversion to and from float, compiled by Highway for several targets and chosen at run
// time; see element_convert.hpp.
#include <cstdint>
#include <cstring>
#include <limits>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/core/element_convert.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "core/element.hpp"
#include "core/element_convert.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::core::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

}  // namespace fastblur::core::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::core {
HWY_EXPORT(LoadAsFloat);
HWY_EXPORT(StoreFromFloat);

// The types with a SIMD conversion; the others (f64, computed in double; NumPy's other integer types
// and bool) convert one element at a time.
static bool simd_type(ElementType type) {
  return type == ElementType::u8 || type == ElementType::u16 || type == ElementType::f16 || type == ElementType::f32;
}

void load_as_float(ElementType type, const void* src, float* dst, std::size_t count) {
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i)
      dst[i] = static_cast<float>(load_element(type, static_cast<const std::uint8_t*>(src) + es * i));
    return;
  }
  HWY_DYNAMIC_DISPATCH(LoadAsFloat)(type, src, dst, count);
}
void store_from_float(ElementType type, const float* src, void* dst, std::size_t count) {
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i) store_element(type, static_cast<std::uint8_t*>(dst) + es * i, src[i]);
    return;
  }
  HWY_DYNAMIC_DISPATCH(StoreFromFloat)(type, src, dst, count);
}
}  // namespace fastblur::core
#endif
