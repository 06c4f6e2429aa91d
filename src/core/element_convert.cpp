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

}  // namespace fastblur::core::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::core {
HWY_EXPORT(LoadAsFloat);
HWY_EXPORT(StoreFromFloat);

// The types with a SIMD conversion; the others (f64, computed in double; NumPy's other integer types
// and bool) convert one element at a time.
static bool simd_type(ElementType type) {
  return type == ElementType::u8 || type == ElementType::u16 || type == ElementType::i8 || type == ElementType::i16 ||
         type == ElementType::f16 || type == ElementType::f32;
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
