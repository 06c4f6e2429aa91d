// Highway kernel of ordered_correlate.hpp: SciPy's order of operations, multiplies and adds kept apart.
#include <cstddef>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/ordered_correlate.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/ordered_correlate.hpp"
#include "core/element.hpp"

#include <stdexcept>
#include <type_traits>

// No contraction of a * b + c into a fused multiply-add anywhere here: SciPy rounds twice.
#pragma GCC optimize("fp-contract=off")

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// An output vector as it is stored (StoredAs): SciPy stores an axis's result in the output array
// and the next axis reads it back.
template <class D>
HWY_INLINE hn::Vec<D> Stored(D d, hn::Vec<D> v, StoredAs stored) {
  if (stored == StoredAs::truncated) return hn::Trunc(v);
  if (stored != StoredAs::float32) return v;
  const hn::Rebind<float, D> df;
  return hn::PromoteTo(d, hn::DemoteTo(df, v));
}

// A tap's values as doubles: loaded, or float32 loaded and widened (exactly, as SciPy's line buffer
// holds a float32 array's values).
template <class D>
HWY_INLINE hn::Vec<D> LoadTap(D d, const double* p) {
  return hn::LoadU(d, p);
}
template <class D>
HWY_INLINE hn::Vec<D> LoadTap(D d, const float* p) {
  const hn::Rebind<float, D> df;
  return hn::PromoteTo(d, hn::LoadU(df, p));
}
// 8- and 16-bit integers: widened to int32, then to double (exact).
template <class D, typename T, std::enable_if_t<std::is_integral_v<T> && (sizeof(T) <= 2)>* = nullptr>
HWY_INLINE hn::Vec<D> LoadTap(D d, const T* p) {
  const hn::Rebind<int32_t, D> di;
  const hn::Rebind<T, D> dt;
  return hn::PromoteTo(d, hn::PromoteTo(di, hn::LoadU(dt, p)));
}

// U output vectors at once, their chains of adds interleaved in one loop over the taps (each
// output's own order unchanged): one vector's chain alone waits on the adder's latency at every tap.
// tap(j) is where tap j's values for these outputs start.
template <int U, class D, class Tap>
HWY_INLINE void OrderedBlock(D d, const Tap& tap, double* HWY_RESTRICT out, const double* HWY_RESTRICT fw, int size1,
                             int size2, int symmetry, StoredAs stored) {
  const size_t N = hn::Lanes(d);
  hn::Vec<D> acc[U];
  if (symmetry != 0) {
    const auto w0 = hn::Set(d, fw[0]);
    const auto* c = tap(0);
    for (int u = 0; u < U; ++u) acc[u] = hn::Mul(LoadTap(d, c + u * N), w0);
    for (int k = size1; k >= 1; --k) {
      const auto w = hn::Set(d, fw[-k]);
      const auto* lo = tap(-k);
      const auto* hi = tap(k);
      for (int u = 0; u < U; ++u) {
        const auto l = LoadTap(d, lo + u * N), r = LoadTap(d, hi + u * N);
        acc[u] = hn::Add(acc[u], hn::Mul(symmetry > 0 ? hn::Add(l, r) : hn::Sub(l, r), w));
      }
    }
  } else {
    const auto wl = hn::Set(d, fw[size2]);
    const auto* last = tap(size2);
    for (int u = 0; u < U; ++u) acc[u] = hn::Mul(LoadTap(d, last + u * N), wl);
    for (int j = -size1; j < size2; ++j) {
      const auto w = hn::Set(d, fw[j]);
      const auto* t = tap(j);
      for (int u = 0; u < U; ++u) acc[u] = hn::Add(acc[u], hn::Mul(LoadTap(d, t + u * N), w));
    }
  }
  for (int u = 0; u < U; ++u) hn::StoreU(Stored(d, acc[u], stored), d, out + u * N);
}

// Every output i < count, tap(j, i) giving where tap j's value for output i lies.
template <class TapAt>
HWY_INLINE void OrderedAll(const TapAt& tap_at, double* out, size_t count, const double* fw, int size1, int size2,
                           int symmetry, StoredAs t) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  const auto at = [&](size_t first) { return [&tap_at, first](int j) { return tap_at(j, first); }; };
  for (; i + 8 * N <= count; i += 8 * N) OrderedBlock<8>(d, at(i), out + i, fw, size1, size2, symmetry, t);
  for (; i + 4 * N <= count; i += 4 * N) OrderedBlock<4>(d, at(i), out + i, fw, size1, size2, symmetry, t);
  for (; i + N <= count; i += N) OrderedBlock<1>(d, at(i), out + i, fw, size1, size2, symmetry, t);
  const hn::CappedTag<double, 1> d1;
  for (; i < count; ++i) OrderedBlock<1>(d1, at(i), out + i, fw, size1, size2, symmetry, t);
}

void OrderedCorrelate(const double* center, double* out, size_t count, const double* fw, int size1, int size2,
                      int symmetry, size_t step) {
  const auto s = static_cast<std::ptrdiff_t>(step);
  OrderedAll([center, s](int j, size_t i) { return center + i + j * s; }, out, count, fw, size1, size2, symmetry,
             StoredAs::as_summed);
}

template <typename T>
void OrderedCorrelateRowsThrough(const T* const* rows, size_t offset, double* out, size_t count, const double* fw,
                                 int size1, int size2, int symmetry, StoredAs stored) {
  OrderedAll([rows, offset](int j, size_t i) { return rows[j] + offset + i; }, out, count, fw, size1, size2, symmetry,
             stored);
}

void OrderedCorrelateRows(const double* const* rows, size_t offset, double* out, size_t count, const double* fw,
                          int size1, int size2, int symmetry) {
  OrderedCorrelateRowsThrough(rows, offset, out, count, fw, size1, size2, symmetry, StoredAs::as_summed);
}

// M output rows of a symmetric (sign 1) or antisymmetric (sign -1) kernel, U vectors of each: tap k
// of output m reads rows m - k and m + k, so from one k to the next the outputs' low rows slide by
// one (lo[m] <- lo[m + 1]) and their high rows too (hi[m] <- hi[m - 1]): two loads a step for all M
// outputs where each output alone takes two. Every output's own order of operations is unchanged.
template <int M, int U, class D, typename T>
HWY_INLINE void WindowBlock(D d, const T* const* rows, size_t at, double* const* out, const double* HWY_RESTRICT fw,
                            int radius, int sign, StoredAs stored) {
  const size_t N = hn::Lanes(d);
  hn::Vec<D> acc[M][U], lo[M][U], hi[M][U];
  const auto w0 = hn::Set(d, fw[0]);
  for (int m = 0; m < M; ++m)
    for (int u = 0; u < U; ++u) acc[m][u] = hn::Mul(LoadTap(d, rows[m] + at + u * N), w0);
  for (int m = 0; m < M; ++m)
    for (int u = 0; u < U; ++u) {
      lo[m][u] = LoadTap(d, rows[m - radius] + at + u * N);
      hi[m][u] = LoadTap(d, rows[m + radius] + at + u * N);
    }
  for (int k = radius;; --k) {
    const auto w = hn::Set(d, fw[-k]);
    for (int m = 0; m < M; ++m)
      for (int u = 0; u < U; ++u)
        acc[m][u] = hn::Add(acc[m][u], hn::Mul(sign > 0 ? hn::Add(lo[m][u], hi[m][u]) : hn::Sub(lo[m][u], hi[m][u]), w));
    if (k == 1) break;
    for (int u = 0; u < U; ++u) {
      for (int m = 0; m + 1 < M; ++m) lo[m][u] = lo[m + 1][u];
      for (int m = M - 1; m > 0; --m) hi[m][u] = hi[m - 1][u];
      lo[M - 1][u] = LoadTap(d, rows[M - k] + at + u * N);  // row (M - 1) - (k - 1)
      hi[0][u] = LoadTap(d, rows[k - 1] + at + u * N);      // row 0 + (k - 1)
    }
  }
  for (int m = 0; m < M; ++m)
    for (int u = 0; u < U; ++u) hn::StoreU(Stored(d, acc[m][u], stored), d, out[m] + u * N);
}

template <int M, typename T>
HWY_INLINE void WindowRows(const T* const* rows, size_t offset, double* const* out, size_t count, const double* fw,
                           int radius, int sign, StoredAs t) {
  const hn::ScalableTag<double> d;
  const size_t N = hn::Lanes(d);
  double* at_out[M];
  const auto shift = [&](size_t i) {
    for (int m = 0; m < M; ++m) at_out[m] = out[m] + i;
    return static_cast<double* const*>(at_out);
  };
  size_t i = 0;
  for (; i + 2 * N <= count; i += 2 * N) WindowBlock<M, 2>(d, rows, offset + i, shift(i), fw, radius, sign, t);
  for (; i + N <= count; i += N) WindowBlock<M, 1>(d, rows, offset + i, shift(i), fw, radius, sign, t);
  const hn::CappedTag<double, 1> d1;
  for (; i < count; ++i) WindowBlock<M, 1>(d1, rows, offset + i, shift(i), fw, radius, sign, t);
}

template <typename T>
void RowWindow(const T* const* rows, size_t offset, double* const* out, int outputs, size_t count, const double* fw,
               int size1, int size2, int symmetry, StoredAs t) {
  int m = 0;
  if (symmetry != 0 && size1 == size2 && size1 > 0) {
    for (; m + 4 <= outputs; m += 4) WindowRows<4>(rows + m, offset, out + m, count, fw, size1, symmetry, t);
    for (; m + 2 <= outputs; m += 2) WindowRows<2>(rows + m, offset, out + m, count, fw, size1, symmetry, t);
  }
  for (; m < outputs; ++m) OrderedCorrelateRowsThrough(rows + m, offset, out[m], count, fw, size1, size2, symmetry, t);
}

void OrderedCorrelateRowWindow(fastblur::ElementType type, const void* const* rows, size_t offset, double* const* out,
                               int outputs, size_t count, const double* fw, int size1, int size2, int symmetry,
                               StoredAs stored) {
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    RowWindow(reinterpret_cast<const T* const*>(rows), offset, out, outputs, count, fw, size1, size2, symmetry, stored);
  };
  switch (type) {
    case fastblur::ElementType::f64: return run(double{});
    case fastblur::ElementType::f32: return run(float{});
    case fastblur::ElementType::u8: return run(uint8_t{});
    case fastblur::ElementType::i8: return run(int8_t{});
    case fastblur::ElementType::u16: return run(uint16_t{});
    case fastblur::ElementType::i16: return run(int16_t{});
    default: return;  // refused by the caller (ordered_correlate_row_window)
  }
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(OrderedCorrelate);
HWY_EXPORT(OrderedCorrelateRows);
HWY_EXPORT(OrderedCorrelateRowWindow);

void ordered_correlate(const double* center, double* out, std::size_t count, const double* fw, int size1, int size2,
                       int symmetry, std::size_t step) {
  HWY_DYNAMIC_DISPATCH(OrderedCorrelate)(center, out, count, fw, size1, size2, symmetry, step);
}

void ordered_correlate_rows(const double* const* rows, std::size_t offset, double* out, std::size_t count,
                            const double* fw, int size1, int size2, int symmetry) {
  HWY_DYNAMIC_DISPATCH(OrderedCorrelateRows)(rows, offset, out, count, fw, size1, size2, symmetry);
}

void ordered_correlate_row_window(ElementType type, const void* const* rows, std::size_t offset, double* const* out,
                                  int outputs, std::size_t count, const double* fw, int size1, int size2, int symmetry,
                                  StoredAs stored) {
  if (type != ElementType::f64 && !core::widens_to_double_as_loaded(type))
    throw std::logic_error("internal: ordered_correlate_row_window reads float64, float32, 8- and 16-bit rows");
  HWY_DYNAMIC_DISPATCH(OrderedCorrelateRowWindow)(type, rows, offset, out, outputs, count, fw, size1, size2, symmetry,
                                                  stored);
}

void ordered_correlate_row_window(const double* const* rows, std::size_t offset, double* const* out, int outputs,
                                  std::size_t count, const double* fw, int size1, int size2, int symmetry,
                                  StoredAs stored) {
  ordered_correlate_row_window(ElementType::f64, reinterpret_cast<const void* const*>(rows), offset, out, outputs, count,
                               fw, size1, size2, symmetry, stored);
}
}  // namespace fastblur::cpu
#endif
