// Highway-dispatched (de)interleaving of interleaved_pixels.hpp: Highway's LoadInterleaved /
// StoreInterleaved for 2, 3 and 4 values a pixel, whole vectors of pixels, the rest one by one.
#include <cstddef>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/interleaved_pixels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/interleaved_pixels.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
void Deinterleave(const T* HWY_RESTRICT from, std::size_t pixels, int n, T* const* to) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t p = 0;
  if (n == 2) {
    for (; p + N <= pixels; p += N) {
      hn::Vec<decltype(d)> a, b;
      hn::LoadInterleaved2(d, from + p * 2, a, b);
      hn::StoreU(a, d, to[0] + p), hn::StoreU(b, d, to[1] + p);
    }
  } else if (n == 3) {
    for (; p + N <= pixels; p += N) {
      hn::Vec<decltype(d)> a, b, c;
      hn::LoadInterleaved3(d, from + p * 3, a, b, c);
      hn::StoreU(a, d, to[0] + p), hn::StoreU(b, d, to[1] + p), hn::StoreU(c, d, to[2] + p);
    }
  } else if (n == 4) {
    for (; p + N <= pixels; p += N) {
      hn::Vec<decltype(d)> a, b, c, e;
      hn::LoadInterleaved4(d, from + p * 4, a, b, c, e);
      hn::StoreU(a, d, to[0] + p), hn::StoreU(b, d, to[1] + p), hn::StoreU(c, d, to[2] + p), hn::StoreU(e, d, to[3] + p);
    }
  }
  for (; p < pixels; ++p)
    for (int c = 0; c < n; ++c) to[c][p] = from[p * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)];
}

template <class T>
void Interleave(const T* const* from, std::size_t pixels, int n, T* HWY_RESTRICT to) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t p = 0;
  if (n == 2) {
    for (; p + N <= pixels; p += N)
      hn::StoreInterleaved2(hn::LoadU(d, from[0] + p), hn::LoadU(d, from[1] + p), d, to + p * 2);
  } else if (n == 3) {
    for (; p + N <= pixels; p += N)
      hn::StoreInterleaved3(hn::LoadU(d, from[0] + p), hn::LoadU(d, from[1] + p), hn::LoadU(d, from[2] + p), d,
                            to + p * 3);
  } else if (n == 4) {
    for (; p + N <= pixels; p += N)
      hn::StoreInterleaved4(hn::LoadU(d, from[0] + p), hn::LoadU(d, from[1] + p), hn::LoadU(d, from[2] + p),
                            hn::LoadU(d, from[3] + p), d, to + p * 4);
  }
  for (; p < pixels; ++p)
    for (int c = 0; c < n; ++c) to[p * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)] = from[c][p];
}

void DeinterleaveDoubles(const double* from, std::size_t pixels, int n, double* const* to) { Deinterleave(from, pixels, n, to); }
void DeinterleaveFloats(const float* from, std::size_t pixels, int n, float* const* to) { Deinterleave(from, pixels, n, to); }
void InterleaveDoubles(const double* const* from, std::size_t pixels, int n, double* to) { Interleave(from, pixels, n, to); }
void InterleaveFloats(const float* const* from, std::size_t pixels, int n, float* to) { Interleave(from, pixels, n, to); }

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {

HWY_EXPORT(DeinterleaveDoubles);
HWY_EXPORT(DeinterleaveFloats);
HWY_EXPORT(InterleaveDoubles);
HWY_EXPORT(InterleaveFloats);

void deinterleave(const double* from, std::size_t pixels, int n, double* const* to) {
  HWY_DYNAMIC_DISPATCH(DeinterleaveDoubles)(from, pixels, n, to);
}
void deinterleave(const float* from, std::size_t pixels, int n, float* const* to) {
  HWY_DYNAMIC_DISPATCH(DeinterleaveFloats)(from, pixels, n, to);
}
void interleave(const double* const* from, std::size_t pixels, int n, double* to) {
  HWY_DYNAMIC_DISPATCH(InterleaveDoubles)(from, pixels, n, to);
}
void interleave(const float* const* from, std::size_t pixels, int n, float* to) {
  HWY_DYNAMIC_DISPATCH(InterleaveFloats)(from, pixels, n, to);
}

}  // namespace fastblur::cpu
#endif
