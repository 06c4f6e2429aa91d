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
#include "core/element_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace fastblur::core::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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

// float64, int32 and int64 (NumPy's float and integer defaults, a common integer type) and float32,
// a vector of doubles at a time, with load_element's and store_element's bits: to double as the
// cast (int64 rounded to nearest), from double into float32 rounded once and into the integers as
// saturate_round (NaN to 0, rounded to an integer - exact - then saturated and converted). Rows of
// float go through the same doubles: float64 demoted or promoted as the cast, int32 rounded once.
using DoubleTag = hn::ScalableTag<double>;

bool in_doubles(fastblur::ElementType type) {
  return type == fastblur::ElementType::f32 || type == fastblur::ElementType::f64 || type == fastblur::ElementType::i32 ||
         type == fastblur::ElementType::i64;
}

HWY_INLINE hn::Vec<DoubleTag> LoadDoubles(fastblur::ElementType type, const uint8_t* p) {
  const DoubleTag dd;
  switch (type) {
    case fastblur::ElementType::f32: return hn::PromoteTo(dd, hn::LoadU(hn::Rebind<float, DoubleTag>(), reinterpret_cast<const float*>(p)));
    case fastblur::ElementType::i32:
      return hn::PromoteTo(dd, hn::LoadU(hn::Rebind<int32_t, DoubleTag>(), reinterpret_cast<const int32_t*>(p)));
    case fastblur::ElementType::i64: return hn::ConvertTo(dd, hn::LoadU(hn::RebindToSigned<DoubleTag>(), reinterpret_cast<const int64_t*>(p)));
    default: return hn::LoadU(dd, reinterpret_cast<const double*>(p));
  }
}

HWY_INLINE void StoreDoubles(fastblur::ElementType type, hn::Vec<DoubleTag> v, uint8_t* p) {
  const DoubleTag dd;
  const auto whole = [&](double lowest, double highest) {
    return hn::Min(hn::Max(hn::Round(hn::IfThenZeroElse(hn::IsNaN(v), v)), hn::Set(dd, lowest)), hn::Set(dd, highest));
  };
  switch (type) {
    case fastblur::ElementType::f32: {
      const hn::Rebind<float, DoubleTag> df;
      return hn::StoreU(hn::DemoteTo(df, v), df, reinterpret_cast<float*>(p));
    }
    case fastblur::ElementType::i32: {
      const hn::Rebind<int32_t, DoubleTag> di32;
      return hn::StoreU(hn::DemoteTo(di32, whole(-2147483648.0, 2147483647.0)), di32, reinterpret_cast<int32_t*>(p));
    }
    case fastblur::ElementType::i64: {
      const hn::RebindToSigned<DoubleTag> di;
      return hn::StoreU(hn::ConvertTo(di, whole(-9223372036854775808.0, saturate_highest<int64_t>())), di, reinterpret_cast<int64_t*>(p));
    }
    default: return hn::StoreU(v, dd, reinterpret_cast<double*>(p));
  }
}

// Rows of float (float64, int32, int64; the others through LoadOne / StoreOne or one at a time).
void LoadWideAsFloat(fastblur::ElementType type, const void* src, float* dst, size_t count) {
  const hn::Rebind<float, DoubleTag> df;
  const size_t N = hn::Lanes(DoubleTag()), es = fastblur::element_size(type);
  const auto* s = static_cast<const uint8_t*>(src);
  size_t i = 0;
  for (; i + N <= count; i += N) hn::StoreU(hn::DemoteTo(df, LoadDoubles(type, s + i * es)), df, dst + i);
  for (; i < count; ++i) dst[i] = static_cast<float>(load_element(type, s + es * i));
}

void StoreWideFromFloat(fastblur::ElementType type, const float* src, void* dst, size_t count) {
  const hn::Rebind<float, DoubleTag> df;
  const size_t N = hn::Lanes(DoubleTag()), es = fastblur::element_size(type);
  auto* o = static_cast<uint8_t*>(dst);
  size_t i = 0;
  for (; i + N <= count; i += N) StoreDoubles(type, hn::PromoteTo(DoubleTag(), hn::LoadU(df, src + i)), o + i * es);
  for (; i < count; ++i) store_element(type, o + es * i, src[i]);
}

// Rows of doubles (the drivers that work in double); false for a type in_doubles does not take.
bool LoadAsDouble(fastblur::ElementType type, const void* src, double* dst, size_t count) {
  if (!in_doubles(type)) return false;
  const size_t N = hn::Lanes(DoubleTag()), es = fastblur::element_size(type);
  const auto* s = static_cast<const uint8_t*>(src);
  size_t i = 0;
  for (; i + N <= count; i += N) hn::StoreU(LoadDoubles(type, s + i * es), DoubleTag(), dst + i);
  for (; i < count; ++i) dst[i] = load_element(type, s + es * i);
  return true;
}

bool StoreFromDouble(fastblur::ElementType type, const double* src, void* dst, size_t count) {
  if (!in_doubles(type)) return false;
  const size_t N = hn::Lanes(DoubleTag()), es = fastblur::element_size(type);
  auto* o = static_cast<uint8_t*>(dst);
  size_t i = 0;
  for (; i + N <= count; i += N) StoreDoubles(type, hn::LoadU(DoubleTag(), src + i), o + i * es);
  for (; i < count; ++i) store_element(type, o + es * i, src[i]);
  return true;
}

}  // namespace fastblur::core::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::core {
HWY_EXPORT(LoadAsFloat);
HWY_EXPORT(StoreFromFloat);
HWY_EXPORT(LoadWideAsFloat);
HWY_EXPORT(StoreWideFromFloat);
HWY_EXPORT(LoadAsDouble);
HWY_EXPORT(StoreFromDouble);

// The types with a SIMD conversion through a float vector (LoadOne / StoreOne), the wider ones with
// their own loops; the others (NumPy's unsigned 32- and 64-bit integers) convert one element at a time.
static bool simd_type(ElementType type) {
  return type == ElementType::u8 || type == ElementType::u16 || type == ElementType::i8 || type == ElementType::i16 ||
         type == ElementType::f16 || type == ElementType::f32 || type == ElementType::b8;
}
static bool wide_simd_type(ElementType type) {
  return type == ElementType::f64 || type == ElementType::i32 || type == ElementType::i64;
}

void load_as_float(ElementType type, const void* src, float* dst, std::size_t count) {
  if (wide_simd_type(type)) return HWY_DYNAMIC_DISPATCH(LoadWideAsFloat)(type, src, dst, count);
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i)
      dst[i] = static_cast<float>(load_element(type, static_cast<const std::uint8_t*>(src) + es * i));
    return;
  }
  HWY_DYNAMIC_DISPATCH(LoadAsFloat)(type, src, dst, count);
}
void store_from_float(ElementType type, const float* src, void* dst, std::size_t count) {
  if (wide_simd_type(type)) return HWY_DYNAMIC_DISPATCH(StoreWideFromFloat)(type, src, dst, count);
  if (!simd_type(type)) {
    const std::size_t es = element_size(type);
    for (std::size_t i = 0; i < count; ++i) store_element(type, static_cast<std::uint8_t*>(dst) + es * i, src[i]);
    return;
  }
  HWY_DYNAMIC_DISPATCH(StoreFromFloat)(type, src, dst, count);
}

void load_as_double(ElementType type, const void* src, double* dst, std::size_t count) {
  if (HWY_DYNAMIC_DISPATCH(LoadAsDouble)(type, src, dst, count)) return;
  const std::size_t es = element_size(type);
  for (std::size_t i = 0; i < count; ++i) dst[i] = load_element(type, static_cast<const std::uint8_t*>(src) + es * i);
}
void store_from_double(ElementType type, const double* src, void* dst, std::size_t count) {
  if (HWY_DYNAMIC_DISPATCH(StoreFromDouble)(type, src, dst, count)) return;
  const std::size_t es = element_size(type);
  for (std::size_t i = 0; i < count; ++i) store_element(type, static_cast<std::uint8_t*>(dst) + es * i, src[i]);
}
}  // namespace fastblur::core
#endif
