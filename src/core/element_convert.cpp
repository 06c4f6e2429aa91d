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

// float64, int32 and int64 (NumPy's float and integer defaults, a common integer type) in SIMD, with
// the scalar conversion's bits: float64 demoted and promoted as the cast does (one rounding to
// nearest, by the same MXCSR); int32 converted to nearest; int64 to double, then to float (load_element's
// two roundings). Integers are stored as saturate_round does - NaN to 0, saturated, ties to even. The
// tail goes through load_element / store_element.
void LoadWideAsFloat(fastblur::ElementType type, const void* src, float* dst, size_t count) {
  size_t i = 0;
  if (type == fastblur::ElementType::f64 || type == fastblur::ElementType::i64) {
    const hn::ScalableTag<double> dd;
    const hn::RebindToSigned<decltype(dd)> di;
    const hn::Rebind<float, decltype(dd)> df;
    const size_t N = hn::Lanes(dd);
    if (type == fastblur::ElementType::f64) {
      const auto* s = static_cast<const double*>(src);
      for (; i + N <= count; i += N) hn::StoreU(hn::DemoteTo(df, hn::LoadU(dd, s + i)), df, dst + i);
    } else {
      const auto* s = static_cast<const int64_t*>(src);
      for (; i + N <= count; i += N) hn::StoreU(hn::DemoteTo(df, hn::ConvertTo(dd, hn::LoadU(di, s + i))), df, dst + i);
    }
  } else {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const auto* s = static_cast<const int32_t*>(src);
    for (const size_t N = hn::Lanes(df); i + N <= count; i += N) hn::StoreU(hn::ConvertTo(df, hn::LoadU(di, s + i)), df, dst + i);
  }
  const size_t es = fastblur::element_size(type);
  for (; i < count; ++i) dst[i] = static_cast<float>(load_element(type, static_cast<const uint8_t*>(src) + es * i));
}

void StoreWideFromFloat(fastblur::ElementType type, const float* src, void* dst, size_t count) {
  size_t i = 0;
  if (type == fastblur::ElementType::f64) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> df;
    auto* o = static_cast<double*>(dst);
    for (const size_t N = hn::Lanes(dd); i + N <= count; i += N) hn::StoreU(hn::PromoteTo(dd, hn::LoadU(df, src + i)), dd, o + i);
  } else if (type == fastblur::ElementType::i64) {
    const hn::ScalableTag<double> dd;
    const hn::RebindToSigned<decltype(dd)> di;
    const hn::Rebind<float, decltype(dd)> df;
    auto* o = static_cast<int64_t*>(dst);
    // Rounded to an integer in float (exact), then converted exactly; from 2^63 saturate_round's
    // highest (2^63 - 1024), at most -2^63 INT64_MIN, NaN 0.
    const auto lowest = hn::Set(df, -9223372036854775808.0f), beyond = hn::Set(df, 9223372036854775808.0f);
    const auto highest = hn::Set(di, static_cast<int64_t>(saturate_highest<int64_t>()));
    for (const size_t N = hn::Lanes(dd); i + N <= count; i += N) {
      const auto v = hn::LoadU(df, src + i);
      const auto whole = hn::Round(hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(v), v), lowest), beyond));
      const auto converted = hn::ConvertTo(di, hn::PromoteTo(dd, whole));
      hn::StoreU(hn::IfThenElse(hn::RebindMask(di, hn::Ge(hn::PromoteTo(dd, whole), hn::PromoteTo(dd, beyond))), highest, converted), di, o + i);
    }
  } else {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    auto* o = static_cast<int32_t*>(dst);
    const auto lowest = hn::Set(df, -2147483648.0f), beyond = hn::Set(df, 2147483648.0f);
    for (const size_t N = hn::Lanes(df); i + N <= count; i += N) {
      const auto v = hn::LoadU(df, src + i);
      // NaN to 0, at most -2^31 to INT32_MIN; from 2^31 (float's next value past INT32_MAX) INT32_MAX.
      const auto rounded = hn::NearestInt(hn::Min(hn::Max(hn::IfThenZeroElse(hn::IsNaN(v), v), lowest), beyond));
      hn::StoreU(hn::IfThenElse(hn::RebindMask(di, hn::Ge(v, beyond)), hn::Set(di, INT32_MAX), rounded), di, o + i);
    }
  }
  const size_t es = fastblur::element_size(type);
  for (; i < count; ++i) store_element(type, static_cast<uint8_t*>(dst) + es * i, src[i]);
}

// Rows of doubles (the drivers that work in double): float32, float64, int32 and int64 in SIMD with
// load_element's and store_element's bits (int64 to double rounded to nearest as the cast; doubles
// stored as saturate_round does, rounded to an integer first - exact - then converted); the tail
// and the other types one element at a time.
bool LoadAsDouble(fastblur::ElementType type, const void* src, double* dst, size_t count) {
  const hn::ScalableTag<double> dd;
  const hn::RebindToSigned<decltype(dd)> di;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<int32_t, decltype(dd)> di32;
  const size_t N = hn::Lanes(dd);
  size_t i = 0;
  switch (type) {
    case fastblur::ElementType::f64: std::memcpy(dst, src, count * sizeof(double)); return true;
    case fastblur::ElementType::f32:
      for (const auto* s = static_cast<const float*>(src); i + N <= count; i += N) hn::StoreU(hn::PromoteTo(dd, hn::LoadU(df, s + i)), dd, dst + i);
      break;
    case fastblur::ElementType::i32:
      for (const auto* s = static_cast<const int32_t*>(src); i + N <= count; i += N)
        hn::StoreU(hn::PromoteTo(dd, hn::LoadU(di32, s + i)), dd, dst + i);
      break;
    case fastblur::ElementType::i64:
      for (const auto* s = static_cast<const int64_t*>(src); i + N <= count; i += N) hn::StoreU(hn::ConvertTo(dd, hn::LoadU(di, s + i)), dd, dst + i);
      break;
    default: return false;
  }
  const size_t es = fastblur::element_size(type);
  for (; i < count; ++i) dst[i] = load_element(type, static_cast<const uint8_t*>(src) + es * i);
  return true;
}

bool StoreFromDouble(fastblur::ElementType type, const double* src, void* dst, size_t count) {
  const hn::ScalableTag<double> dd;
  const hn::RebindToSigned<decltype(dd)> di;
  const hn::Rebind<float, decltype(dd)> df;
  const hn::Rebind<int32_t, decltype(dd)> di32;
  const size_t N = hn::Lanes(dd);
  // NaN to 0, rounded to an integer (ties to even), within [lowest, highest] (both exact in double).
  const auto whole = [&](hn::Vec<decltype(dd)> v, double lowest, double highest) {
    return hn::Min(hn::Max(hn::Round(hn::IfThenZeroElse(hn::IsNaN(v), v)), hn::Set(dd, lowest)), hn::Set(dd, highest));
  };
  size_t i = 0;
  switch (type) {
    case fastblur::ElementType::f64: std::memcpy(dst, src, count * sizeof(double)); return true;
    case fastblur::ElementType::f32:
      for (auto* o = static_cast<float*>(dst); i + N <= count; i += N) hn::StoreU(hn::DemoteTo(df, hn::LoadU(dd, src + i)), df, o + i);
      break;
    case fastblur::ElementType::i32:
      for (auto* o = static_cast<int32_t*>(dst); i + N <= count; i += N)
        hn::StoreU(hn::DemoteTo(di32, whole(hn::LoadU(dd, src + i), -2147483648.0, 2147483647.0)), di32, o + i);
      break;
    case fastblur::ElementType::i64:
      for (auto* o = static_cast<int64_t*>(dst); i + N <= count; i += N)
        hn::StoreU(hn::ConvertTo(di, whole(hn::LoadU(dd, src + i), -9223372036854775808.0, saturate_highest<int64_t>())), di, o + i);
      break;
    default: return false;
  }
  const size_t es = fastblur::element_size(type);
  for (; i < count; ++i) store_element(type, static_cast<uint8_t*>(dst) + es * i, src[i]);
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
