// Highway kernels of fir_fixed_simd.hpp.
#include <cmath>
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/fir_fixed_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/fir_fixed_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void U8ToQ6(const std::uint8_t* HWY_RESTRICT in, std::int16_t* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<std::int16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::ShiftLeft<6>(hn::PromoteTo(d, hn::LoadU(d8, in + i))), d, out + i);
  for (; i < n; ++i) out[i] = static_cast<std::int16_t>(in[i] << 6);
}

// U vectors of outputs from taps at at(k) + u N (k = -r..r); integer sums, so the order is free.
// Several vectors per pass over the taps share each weight's broadcast and row pointer, and their
// chains run side by side.
template <int U, class D, class At>
HWY_INLINE void Taps(D d, const At& at, const std::int16_t* HWY_RESTRICT w, int r, hn::Vec<D>* acc) {
  const size_t N = hn::Lanes(d);
  const auto w0 = hn::Set(d, w[0]);
  const std::int16_t* c = at(0);
  for (int u = 0; u < U; ++u) acc[u] = hn::MulFixedPoint15(hn::LoadU(d, c + u * N), w0);
  for (int k = 1; k <= r; ++k) {
    const auto wk = hn::Set(d, w[k]);
    const std::int16_t* lo = at(-k);
    const std::int16_t* hi = at(k);
    for (int u = 0; u < U; ++u)
      acc[u] = hn::Add(acc[u], hn::MulFixedPoint15(hn::Add(hn::LoadU(d, lo + u * N), hn::LoadU(d, hi + u * N)), wk));
  }
}

void FixedConvolveLine(const std::int16_t* HWY_RESTRICT line, std::int16_t* HWY_RESTRICT out, size_t n,
                       const std::int16_t* HWY_RESTRICT w, int r, size_t C) {
  const hn::ScalableTag<std::int16_t> d;
  const size_t N = hn::Lanes(d);
  const auto c = static_cast<std::ptrdiff_t>(C);
  size_t i = 0;
  hn::Vec<decltype(d)> acc[4];
  for (; i + 4 * N <= n; i += 4 * N) {
    const std::int16_t* p = line + i;
    Taps<4>(d, [p, c](int k) { return p + k * c; }, w, r, acc);
    for (int u = 0; u < 4; ++u) hn::StoreU(acc[u], d, out + i + u * N);
  }
  for (; i + N <= n; i += N) {
    const std::int16_t* p = line + i;
    Taps<1>(d, [p, c](int k) { return p + k * c; }, w, r, acc);
    hn::StoreU(acc[0], d, out + i);
  }
  const hn::CappedTag<std::int16_t, 1> d1;
  hn::Vec<decltype(d1)> one[1];
  for (; i < n; ++i) {
    const std::int16_t* p = line + i;
    Taps<1>(d1, [p, c](int k) { return p + k * c; }, w, r, one);
    hn::StoreU(one[0], d1, out + i);
  }
}

void FixedConvolveRowsU8(const std::int16_t* const* HWY_RESTRICT rows, std::uint8_t* HWY_RESTRICT out, size_t n,
                         const std::int16_t* HWY_RESTRICT w, int r) {
  const hn::ScalableTag<std::int16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  const std::int16_t* const* centre = rows + r;
  const auto half = hn::Set(d, 32);
  size_t i = 0;
  hn::Vec<decltype(d)> acc[4];
  for (; i + 4 * N <= n; i += 4 * N) {
    Taps<4>(d, [centre, i](int k) { return centre[k] + i; }, w, r, acc);
    for (int u = 0; u < 4; ++u) hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<6>(hn::Add(acc[u], half))), d8, out + i + u * N);
  }
  for (; i + N <= n; i += N) {
    Taps<1>(d, [centre, i](int k) { return centre[k] + i; }, w, r, acc);
    hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<6>(hn::Add(acc[0], half))), d8, out + i);
  }
  const hn::CappedTag<std::int16_t, 1> d1;
  const hn::Rebind<std::uint8_t, decltype(d1)> d81;
  hn::Vec<decltype(d1)> one[1];
  for (; i < n; ++i) {
    Taps<1>(d1, [centre, i](int k) { return centre[k] + i; }, w, r, one);
    hn::StoreU(hn::DemoteTo(d81, hn::ShiftRight<6>(hn::Add(one[0], hn::Set(d1, 32)))), d81, out + i);
  }
}

// Two output rows from 2r + 2 rows (rows[0] = row j - r): out0 is row j, out1 row j + 1. With
// L(m) = row j + m, out0 sums w[k] (L(-k) + L(k)) and out1 w[k] (L(1 - k) + L(1 + k)); L(1 - k) and
// L(k) were loaded at step k - 1, so each step loads two rows for both outputs (one row at a time
// loads four).
void FixedConvolveRows2U8(const std::int16_t* const* HWY_RESTRICT rows, std::uint8_t* HWY_RESTRICT out0,
                          std::uint8_t* HWY_RESTRICT out1, size_t n, const std::int16_t* HWY_RESTRICT w, int r) {
  const hn::ScalableTag<std::int16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  const auto half = hn::Set(d, 32);
  const std::int16_t* const* L = rows + r;  // L[m] = row j + m, m = -r .. r + 1
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    hn::Vec<decltype(d)> a[2], b[2], lo[2], hi[2];
    const auto w0 = hn::Set(d, w[0]);
    for (int u = 0; u < 2; ++u) {
      lo[u] = hn::LoadU(d, L[0] + i + u * N);
      hi[u] = hn::LoadU(d, L[1] + i + u * N);
      a[u] = hn::MulFixedPoint15(lo[u], w0);
      b[u] = hn::MulFixedPoint15(hi[u], w0);
    }
    for (int k = 1; k <= r; ++k) {
      const auto wk = hn::Set(d, w[k]);
      for (int u = 0; u < 2; ++u) {
        const auto new_lo = hn::LoadU(d, L[-k] + i + u * N), new_hi = hn::LoadU(d, L[k + 1] + i + u * N);
        a[u] = hn::Add(a[u], hn::MulFixedPoint15(hn::Add(new_lo, hi[u]), wk));  // L(-k) + L(k)
        b[u] = hn::Add(b[u], hn::MulFixedPoint15(hn::Add(lo[u], new_hi), wk));  // L(1 - k) + L(1 + k)
        lo[u] = new_lo;
        hi[u] = new_hi;
      }
    }
    for (int u = 0; u < 2; ++u) {
      hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<6>(hn::Add(a[u], half))), d8, out0 + i + u * N);
      hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<6>(hn::Add(b[u], half))), d8, out1 + i + u * N);
    }
  }
  if (i < n) {  // the tails, one row at a time (the same sums)
    const std::int16_t* tail[2 * kFixedMaxRadius + 2];
    for (int k = 0; k <= 2 * r + 1; ++k) tail[k] = rows[k] + i;
    FixedConvolveRowsU8(tail, out0 + i, n - i, w, r);
    FixedConvolveRowsU8(tail + 1, out1 + i, n - i, w, r);
  }
}

// B output rows from 2r + B rows (rows[0] = row j - r): out[m] is row j + m. With L(m) = row j + m,
// out[m] sums w[k] (L(m - k) + L(m + k)); at step k the rows L(-k) .. L(B - 1 - k) and L(k) ..
// L(k + B - 1) are needed, and all but L(-k) and L(k + B - 1) were loaded at step k - 1, so each
// step loads two rows for B outputs (one row at a time loads two for one). The same products and
// exact integer sums as the calls above: the same bits.
template <int B, int U>
HWY_INLINE void FixedConvolveRowsBlock(const std::int16_t* const* HWY_RESTRICT rows, std::uint8_t* const* HWY_RESTRICT out,
                                       size_t n, const std::int16_t* HWY_RESTRICT w, int r) {
  const hn::ScalableTag<std::int16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const size_t N = hn::Lanes(d);
  const auto half = hn::Set(d, 32);
  const std::int16_t* const* L = rows + r;  // L[m] = row j + m, m = -r .. r + B - 1
  size_t i = 0;
  for (; i + U * N <= n; i += U * N) {
    hn::Vec<decltype(d)> acc[U][B], lo[U][B], hi[U][B];
    const auto w0 = hn::Set(d, w[0]);
    for (int u = 0; u < U; ++u)
      for (int m = 0; m < B; ++m) {
        lo[u][m] = hi[u][m] = hn::LoadU(d, L[m] + i + u * N);
        acc[u][m] = hn::MulFixedPoint15(lo[u][m], w0);
      }
    for (int k = 1; k <= r; ++k) {
      const auto wk = hn::Set(d, w[k]);
      const std::int16_t* new_lo_row = L[-k] + i;
      const std::int16_t* new_hi_row = L[k + B - 1] + i;
      for (int u = 0; u < U; ++u) {
        for (int m = B - 1; m > 0; --m) lo[u][m] = lo[u][m - 1];
        lo[u][0] = hn::LoadU(d, new_lo_row + u * N);  // L(-k)
        for (int m = 0; m + 1 < B; ++m) hi[u][m] = hi[u][m + 1];
        hi[u][B - 1] = hn::LoadU(d, new_hi_row + u * N);  // L(k + B - 1)
        for (int m = 0; m < B; ++m)
          acc[u][m] = hn::Add(acc[u][m], hn::MulFixedPoint15(hn::Add(lo[u][m], hi[u][m]), wk));
      }
    }
    for (int u = 0; u < U; ++u)
      for (int m = 0; m < B; ++m)
        hn::StoreU(hn::DemoteTo(d8, hn::ShiftRight<6>(hn::Add(acc[u][m], half))), d8, out[m] + i + u * N);
  }
  if (i < n) {  // the tails, one row at a time (the same sums)
    const std::int16_t* tail[2 * kFixedMaxRadius + B];
    for (int k = 0; k <= 2 * r + B - 1; ++k) tail[k] = rows[k] + i;
    for (int m = 0; m < B; ++m) FixedConvolveRowsU8(tail + m, out[m] + i, n - i, w, r);
  }
}

void FixedConvolveRowsBlockU8(const std::int16_t* const* HWY_RESTRICT rows, std::uint8_t* const* HWY_RESTRICT out,
                              size_t n, const std::int16_t* HWY_RESTRICT w, int r) {
  static_assert(kFixedRowBlock == 8);
#if HWY_TARGET <= HWY_AVX3
  FixedConvolveRowsBlock<8, 1>(rows, out, n, w, r);  // 24 of the 32 registers
#else
  // 16 registers (AVX2 and below): two blocks of 4 rows, 12 registers each (not timed here: the
  // machine of issue 28 runs AVX3).
  FixedConvolveRowsBlock<4, 1>(rows, out, n, w, r);
  FixedConvolveRowsBlock<4, 1>(rows + 4, out + 4, n, w, r);
#endif
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(U8ToQ6);
HWY_EXPORT(FixedConvolveLine);
HWY_EXPORT(FixedConvolveRowsU8);
HWY_EXPORT(FixedConvolveRows2U8);
HWY_EXPORT(FixedConvolveRowsBlockU8);

void u8_to_q6(const std::uint8_t* in, std::int16_t* out, std::size_t n) { HWY_DYNAMIC_DISPATCH(U8ToQ6)(in, out, n); }

void fixed_convolve_line(const std::int16_t* line, std::int16_t* out, std::size_t n, const std::int16_t* w, int r,
                         std::size_t C) {
  HWY_DYNAMIC_DISPATCH(FixedConvolveLine)(line, out, n, w, r, C);
}

void fixed_convolve_rows_u8(const std::int16_t* const* rows, std::uint8_t* out, std::size_t n, const std::int16_t* w,
                            int r) {
  HWY_DYNAMIC_DISPATCH(FixedConvolveRowsU8)(rows, out, n, w, r);
}

void fixed_convolve_rows2_u8(const std::int16_t* const* rows, std::uint8_t* out0, std::uint8_t* out1, std::size_t n,
                             const std::int16_t* w, int r) {
  HWY_DYNAMIC_DISPATCH(FixedConvolveRows2U8)(rows, out0, out1, n, w, r);
}

void fixed_convolve_rows_block_u8(const std::int16_t* const* rows, std::uint8_t* const* out, std::size_t n,
                                  const std::int16_t* w, int r) {
  HWY_DYNAMIC_DISPATCH(FixedConvolveRowsBlockU8)(rows, out, n, w, r);
}
}  // namespace fastblur::cpu
#endif
