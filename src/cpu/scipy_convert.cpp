// Highway-dispatched conversions of scipy_convert.hpp: each type's loop is plain C++, vectorised by
// the compiler for the target Highway compiles this part for (AVX-512 here; a build's baseline is
// SSE2, where double conversions run two at a time).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/scipy_convert.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "hwy/cache_control.h"

#include "core/element.hpp"
#include "core/pixel_runs.hpp"
#include "cpu/scipy_convert.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {

template <class T>
void ToDoublesOf(const std::byte* from, std::size_t count, double* HWY_RESTRICT to) {
  for (std::size_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, from + i * sizeof(T), sizeof v);
    to[i] = static_cast<double>(v);
  }
}

namespace hn = hwy::HWY_NAMESPACE;

// Integers of 32 bits and fewer (but uint32): the lanes inside int32's range, truncated through int32
// and wrapped to T as the compiled C does (x86's answer out of range goes value by value).
template <class D>
HWY_INLINE hn::Mask<D> Int32TruncationLanes(D d, hn::Vec<D> x) {
  return hn::And(hn::Gt(x, hn::Set(d, -2147483649.0)), hn::Lt(x, hn::Set(d, 2147483648.0)));
}

// uint32, int64, uint64: the lanes whose C truncation is int64's own truncation of the value (no
// out-of-range answer, no wrap of a negative into an unsigned type): int64 [-2^63, 2^63), unsigned
// (-1, 2^32) and (-1, 2^63). A vector with every lane so converts in SIMD (AVX-512DQ's int64 conversions).
template <class T, class D>
HWY_INLINE hn::Mask<D> WideTruncationLanes(D d, hn::Vec<D> x) {
  constexpr double two63 = 9223372036854775808.0;
  if constexpr (std::is_signed_v<T>) return hn::And(hn::Ge(x, hn::Set(d, -two63)), hn::Lt(x, hn::Set(d, two63)));
  return hn::And(hn::Gt(x, hn::Set(d, -1.0)), hn::Lt(x, hn::Set(d, sizeof(T) == 4 ? 4294967296.0 : two63)));
}

// The lanes a vector path of T takes.
template <class T, class D>
HWY_INLINE hn::Mask<D> TruncationLanes(D d, hn::Vec<D> x) {
  if constexpr (sizeof(T) <= 2 || std::is_same_v<T, std::int32_t>) return Int32TruncationLanes(d, x);
  else return WideTruncationLanes<T>(d, x);
}

// A vector whose every lane passed its type's test above, truncated and stored as T at `to`.
template <class T, class D>
HWY_INLINE void StoreTruncated(D d, hn::Vec<D> v, std::byte* to) {
  if constexpr (sizeof(T) <= 2 || std::is_same_v<T, std::int32_t>) {
    const hn::Rebind<std::int32_t, D> di;
    const hn::Rebind<std::uint32_t, D> du;
    const auto w = hn::DemoteTo(di, v);  // truncated toward zero
    if constexpr (sizeof(T) == 4) {
      hn::StoreU(w, di, reinterpret_cast<std::int32_t*>(to));
    } else {
      const hn::Rebind<std::conditional_t<sizeof(T) == 1, std::uint8_t, std::uint16_t>, D> dn;
      const auto narrow = hn::TruncateTo(dn, hn::BitCast(du, w));  // wrapped, as the compiled C does
      hn::StoreU(narrow, dn, reinterpret_cast<hn::TFromD<decltype(dn)>*>(to));
    }
  } else {
    const hn::RebindToSigned<D> di;
    const hn::RebindToUnsigned<D> du;
    const auto w = hn::ConvertTo(di, v);  // truncated toward zero
    if constexpr (sizeof(T) == 4) {
      const hn::Rebind<std::uint32_t, D> d32;
      hn::StoreU(hn::TruncateTo(d32, hn::BitCast(du, w)), d32, reinterpret_cast<std::uint32_t*>(to));
    } else {
      hn::StoreU(w, di, reinterpret_cast<std::int64_t*>(to));
    }
  }
}

// Integers truncated as C converts, a vector at a time where every lane passes its type's test (the
// compiler does not vectorise these conversions by itself); a vector with one lane outside goes value
// by value through core::c_convert. One pass: checked as converted.
template <class T>
void TruncateRun(const double* HWY_RESTRICT from, std::size_t count, std::byte* to) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  const auto scalar = [&](std::size_t j) {
    const T v = core::c_convert<T>(from[j]);
    std::memcpy(to + j * sizeof(T), &v, sizeof v);
  };
  for (; i + N <= count; i += N) {
    const auto v = hn::LoadU(d, from + i);
    if (!hn::AllTrue(d, TruncationLanes<T>(d, v))) {
      for (std::size_t j = i; j < i + N; ++j) scalar(j);
      continue;
    }
    StoreTruncated<T>(d, v, to + i * sizeof(T));
  }
  for (; i < count; ++i) scalar(i);
}

// Truncated (integers) or rounded (floats) as C converts: integers of 32 bits and fewer a vector at a
// time where every value lies in int32's range, floats straight into an aligned destination; the
// rest element by element (core::c_convert).
template <class T>
void FromDoublesOf(const double* HWY_RESTRICT from, std::size_t count, std::byte* to) {
  if constexpr (std::is_integral_v<T>) {
    TruncateRun<T>(from, count, to);
    return;
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (reinterpret_cast<std::uintptr_t>(to) % alignof(T) == 0) {
      T* HWY_RESTRICT out = reinterpret_cast<T*>(to);
      for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<T>(from[i]);
      return;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const T v = core::c_convert<T>(from[i]);
    std::memcpy(to + i * sizeof(T), &v, sizeof v);
  }
}

// The exact result rounded once (Rounding::nearest): integers rounded to nearest, ties to even, and
// saturated (core::saturate_round) - a vector at a time where every lane lies within T's range (then
// rounded, it is its own truncation), value by value through core::store_element where one does not
// (or is NaN).
template <class T>
void RoundRun(const double* HWY_RESTRICT from, std::size_t count, std::byte* to, ElementType type) {
  const hn::ScalableTag<double> d;
  const std::size_t N = hn::Lanes(d);
  constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
  // Within int64's range too: the vector conversion's reach (uint64's higher values go value by value).
  constexpr double hi = std::min(core::saturate_highest<T>(), core::saturate_highest<std::int64_t>());
  const auto scalar = [&](std::size_t j) { core::store_element(type, to + j * sizeof(T), from[j]); };
  std::size_t i = 0;
  for (; i + N <= count; i += N) {
    const auto v = hn::LoadU(d, from + i);
    if (!hn::AllTrue(d, hn::And(hn::Ge(v, hn::Set(d, lo)), hn::Le(v, hn::Set(d, hi))))) {
      for (std::size_t j = i; j < i + N; ++j) scalar(j);
      continue;
    }
    StoreTruncated<T>(d, hn::Round(v), to + i * sizeof(T));
  }
  for (; i < count; ++i) scalar(i);
}

// A vector whose every lane passed TruncationLanes<T>, truncated and wrapped to T and back to double:
// through int32 (sign or zero extension of T's low bits) for 32 bits and fewer but uint32, through
// int64 for the wide types (int64 to double rounds to nearest, as C).
template <class T, class D>
HWY_INLINE hn::Vec<D> TruncatedBack(D d, hn::Vec<D> x) {
  if constexpr (sizeof(T) <= 2 || std::is_same_v<T, std::int32_t>) {
    const hn::Rebind<std::int32_t, D> di;
    auto w = hn::DemoteTo(di, x);  // truncated toward zero
    if constexpr (sizeof(T) < 4) {
      constexpr int shift = 32 - 8 * static_cast<int>(sizeof(T));
      w = std::is_signed_v<T> ? hn::ShiftRight<shift>(hn::ShiftLeft<shift>(w))
                              : hn::And(w, hn::Set(di, static_cast<std::int32_t>((1u << (8 * sizeof(T))) - 1)));
    }
    return hn::PromoteTo(d, w);
  } else {
    const hn::RebindToSigned<D> di;
    return hn::ConvertTo(d, hn::ConvertTo(di, x));
  }
}

// A value through T and back, in place: float32 rounded, integers truncated and wrapped a vector at a
// time where every lane passes TruncationLanes<T> (value by value through core::c_convert where one
// does not).
template <class T>
void ThroughTypeOf(double* HWY_RESTRICT v, std::size_t count) {
  if constexpr (std::is_same_v<T, float>) {
    for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<double>(static_cast<float>(v[i]));
    return;
  } else if constexpr (std::is_integral_v<T>) {
    const hn::ScalableTag<double> d;
    const std::size_t N = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + N <= count; i += N) {
      const auto x = hn::LoadU(d, v + i);
      if (!hn::AllTrue(d, TruncationLanes<T>(d, x))) {
        for (std::size_t j = i; j < i + N; ++j) v[j] = static_cast<double>(core::c_convert<T>(v[j]));
        continue;
      }
      hn::StoreU(TruncatedBack<T>(d, x), d, v + i);
    }
    for (; i < count; ++i) v[i] = static_cast<double>(core::c_convert<T>(v[i]));
    return;
  }
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<double>(core::c_convert<T>(v[i]));
}

// Rounded to nearest as static_cast<float> rounds; whole cache lines streamed, the partial lines at
// either end stored plainly (a line written partly each way costs a trip to memory: measured 1.4x
// slower on a volume's 920-byte rows). A `to` not aligned to a float never streams.
void FromDoublesStreamed(const double* HWY_RESTRICT from, std::size_t count, float* to) {
  const hn::ScalableTag<double> d;
  const hn::Rebind<float, decltype(d)> df;
  const std::size_t N = hn::Lanes(d);
  constexpr std::size_t kLine = 64 / sizeof(float);  // floats a cache line
  const auto address = reinterpret_cast<std::uintptr_t>(to);
  const std::size_t head = address % sizeof(float) != 0 ? count : (kLine - address / sizeof(float) % kLine) % kLine;
  const std::size_t body = head >= count || kLine % N != 0 ? head : head + (count - head) / kLine * kLine;
  std::size_t i = 0;
  for (; i < head && i < count; ++i) to[i] = static_cast<float>(from[i]);
  for (; i < body; i += N) hn::Stream(hn::DemoteTo(df, hn::LoadU(d, from + i)), df, to + i);
  for (; i < count; ++i) to[i] = static_cast<float>(from[i]);
}

void FenceStreamed() { hwy::FlushStream(); }

template <class F>
void WithType(ElementType t, F&& f) {
  switch (t) {
    case ElementType::b8: return f(std::uint8_t{});  // NumPy's bool is an unsigned char, and SciPy treats it as one
    case ElementType::u8: return f(std::uint8_t{});
    case ElementType::i8: return f(std::int8_t{});
    case ElementType::u16: return f(std::uint16_t{});
    case ElementType::i16: return f(std::int16_t{});
    case ElementType::u32: return f(std::uint32_t{});
    case ElementType::i32: return f(std::int32_t{});
    case ElementType::u64: return f(std::uint64_t{});
    case ElementType::i64: return f(std::int64_t{});
    case ElementType::f32: return f(float{});
    case ElementType::f64: return f(double{});
    case ElementType::f16: return;  // scalar, below
  }
}

void ToDoubles(ElementType type, const void* from, std::size_t count, double* to) {
  const auto* p = static_cast<const std::byte*>(from);
  if (type == ElementType::f16) {
    for (std::size_t i = 0; i < count; ++i) to[i] = core::load_element(ElementType::f16, p + 2 * i);
    return;
  }
  WithType(type, [&](auto tag) { ToDoublesOf<decltype(tag)>(p, count, to); });
}

void FromDoubles(ElementType type, const double* from, std::size_t count, void* to) {
  auto* p = static_cast<std::byte*>(to);
  if (type == ElementType::f16) {
    for (std::size_t i = 0; i < count; ++i) core::store_element(ElementType::f16, p + 2 * i, from[i]);
    return;
  }
  WithType(type, [&](auto tag) { FromDoublesOf<decltype(tag)>(from, count, p); });
}

void FromDoublesRounded(ElementType type, const double* from, std::size_t count, void* to) {
  auto* p = static_cast<std::byte*>(to);
  if (!is_integer(type)) return FromDoubles(type, from, count, to);  // floats rounded to nearest as C converts
  if (type == ElementType::b8) {  // nonzero once rounded
    for (std::size_t i = 0; i < count; ++i) core::store_element(type, p + i, from[i]);
    return;
  }
  WithType(type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>) RoundRun<T>(from, count, p, type);
  });
}

void ThroughType(ElementType type, double* values, std::size_t count) {
  if (type == ElementType::f64) return;
  if (type == ElementType::f16) {
    for (std::size_t i = 0; i < count; ++i) {
      std::uint16_t h;
      core::store_element(ElementType::f16, &h, values[i]);
      values[i] = core::load_element(ElementType::f16, &h);
    }
    return;
  }
  WithType(type, [&](auto tag) { ThroughTypeOf<decltype(tag)>(values, count); });
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {

HWY_EXPORT(ToDoubles);
HWY_EXPORT(FromDoubles);
HWY_EXPORT(ThroughType);
HWY_EXPORT(FromDoublesRounded);
HWY_EXPORT(FromDoublesStreamed);
HWY_EXPORT(FenceStreamed);

void from_doubles_streamed(const double* from, std::size_t count, float* to) {
  HWY_DYNAMIC_DISPATCH(FromDoublesStreamed)(from, count, to);
}

void fence_streamed() { HWY_DYNAMIC_DISPATCH(FenceStreamed)(); }

void to_doubles(ElementType type, const void* from, std::size_t count, double* to) {
  HWY_DYNAMIC_DISPATCH(ToDoubles)(type, from, count, to);
}

void from_doubles(ElementType type, const double* from, std::size_t count, void* to) {
  HWY_DYNAMIC_DISPATCH(FromDoubles)(type, from, count, to);
}

void from_doubles_rounded(ElementType type, const double* from, std::size_t count, void* to) {
  HWY_DYNAMIC_DISPATCH(FromDoublesRounded)(type, from, count, to);
}

void through_type(ElementType type, double* values, std::size_t count) {
  HWY_DYNAMIC_DISPATCH(ThroughType)(type, values, count);
}

namespace {
// A worker's packed run of a strided one's elements (kept: a fresh one would fault its pages).
std::byte* packed_run(std::size_t bytes) {
  thread_local std::vector<std::byte> run;
  if (run.size() < bytes) run.resize(bytes);
  return run.data();
}
}  // namespace

void to_doubles_strided(ElementType type, const void* from, std::ptrdiff_t stride, std::size_t values,
                        std::size_t pixels, double* to) {
  const std::size_t pixel = values * element_size(type);
  if (stride == static_cast<std::ptrdiff_t>(pixel)) return to_doubles(type, from, pixels * values, to);
  std::byte* run = packed_run(pixels * pixel);
  core::gather_pixels(static_cast<const std::byte*>(from), stride, pixel, static_cast<std::int64_t>(pixels), run);
  to_doubles(type, run, pixels * values, to);
}

void from_doubles_strided(ElementType type, const double* from, std::size_t values, std::size_t pixels, void* to,
                          std::ptrdiff_t stride, bool rounded_once) {
  const std::size_t pixel = values * element_size(type);
  const auto convert = rounded_once ? from_doubles_rounded : from_doubles;
  if (stride == static_cast<std::ptrdiff_t>(pixel)) return convert(type, from, pixels * values, to);
  std::byte* run = packed_run(pixels * pixel);
  convert(type, from, pixels * values, run);
  core::scatter_pixels(run, pixel, static_cast<std::int64_t>(pixels), static_cast<std::byte*>(to), stride);
}

}  // namespace fastblur::cpu
#endif  // HWY_ONCE
