// Highway kernel of weighted_rows_simd.hpp.
#include <cstddef>
#include <string>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/weighted_rows_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/weighted_rows_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// K rows known at compile time, so the weights and row pointers stay in registers.
template <int K>
void WeightedRowsK(const float* const* rows, const float* w, float* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  hn::Vec<decltype(d)> wv[K];
  for (int k = 0; k < K; ++k) wv[k] = hn::Set(d, w[k]);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    auto sum = hn::Mul(wv[0], hn::LoadU(d, rows[0] + i));
    for (int k = 1; k < K; ++k) sum = hn::MulAdd(wv[k], hn::LoadU(d, rows[k] + i), sum);
    hn::StoreU(sum, d, out + i);
  }
  for (; i < n; ++i) {
    float sum = w[0] * rows[0][i];
    for (int k = 1; k < K; ++k) sum = w[k] * rows[k][i] + sum;
    out[i] = sum;
  }
}

void WeightedRows(const float* const* rows, const float* w, int count, float* out, size_t n) {
  switch (count) {
    case 2: return WeightedRowsK<2>(rows, w, out, n);
    case 4: return WeightedRowsK<4>(rows, w, out, n);
    default: return WeightedRowsK<8>(rows, w, out, n);
  }
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "fastblur/error.hpp"
namespace fastblur::cpu {
HWY_EXPORT(WeightedRows);

void weighted_rows(const float* const* rows, const float* w, int count, float* out, std::size_t n) {
  if (count != 2 && count != 4 && count != 8)
    throw InvalidArgument("weighted_rows: 2, 4 or 8 rows, got " + std::to_string(count));
  HWY_DYNAMIC_DISPATCH(WeightedRows)(rows, w, count, out, n);
}
}  // namespace fastblur::cpu
#endif
