// lane_rows_simd.hpp: four pixels of four RGBA rows are four 512-bit vectors whose 128-bit blocks
// (one pixel each) form a 4 x 4 matrix; transposing it gives one position's pixels of the four
// rows. Two steps of block shuffles: adjacent blocks swapped and blended pairwise, then 256-bit
// halves concatenated (12 shuffles and blends for 16 pixels, against 16 loads and stores of a
// pixel each in the element loop, which the compiler spilled through the stack).
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/lane_rows_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/lane_rows_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET <= HWY_AVX3
using D = hn::Full512<float>;
using V512 = hn::Vec512<float>;

// Blocks b of rows r -> blocks r of positions b (its own inverse).
HWY_INLINE void TransposeBlocks(V512& a, V512& b, V512& c, V512& d) {
  const D tag;
  const V512 e0 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a);  // a0 b0 a2 b2
  const V512 e1 = hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a));  // a1 b1 a3 b3
  const V512 f0 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(d), c);  // c0 d0 c2 d2
  const V512 f1 = hn::OddEvenBlocks(d, hn::SwapAdjacentBlocks(c));  // c1 d1 c3 d3
  a = hn::ConcatLowerLower(tag, f0, e0);                               // a0 b0 c0 d0
  b = hn::ConcatLowerLower(tag, f1, e1);                               // a1 b1 c1 d1
  c = hn::ConcatUpperUpper(tag, f0, e0);                               // a2 b2 c2 d2
  d = hn::ConcatUpperUpper(tag, f1, e1);                               // a3 b3 c3 d3
}
#endif

bool GatherRows(float* HWY_RESTRICT lanes, const float* HWY_RESTRICT A, const size_t* base, size_t V, size_t C,
                int64_t n) {
#if HWY_TARGET <= HWY_AVX3
  if (C != 4 || V % 16 != 0) return false;
  const D tag;
  const size_t quads = V / 16;  // groups of four rows: one vector of a position each
  int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (size_t q = 0; q < quads; ++q) {
      const float* r = A + static_cast<size_t>(j) * 4;
      V512 a = hn::LoadU(tag, r + base[q * 16]), b = hn::LoadU(tag, r + base[q * 16 + 4]);
      V512 c = hn::LoadU(tag, r + base[q * 16 + 8]), d = hn::LoadU(tag, r + base[q * 16 + 12]);
      TransposeBlocks(a, b, c, d);
      float* to = lanes + static_cast<size_t>(j) * V + q * 16;
      hn::StoreU(a, tag, to), hn::StoreU(b, tag, to + V), hn::StoreU(c, tag, to + 2 * V), hn::StoreU(d, tag, to + 3 * V);
    }
  for (; j < n; ++j)
    for (size_t l = 0; l < V; l += 4)
      for (size_t c = 0; c < 4; ++c) lanes[static_cast<size_t>(j) * V + l + c] = A[base[l] + static_cast<size_t>(j) * 4 + c];
  return true;
#else
  (void)lanes, (void)A, (void)base, (void)V, (void)C, (void)n;
  return false;
#endif
}

bool ScatterRows(const float* HWY_RESTRICT lanes, float* HWY_RESTRICT A, const size_t* base, size_t V, size_t C,
                 int64_t n) {
#if HWY_TARGET <= HWY_AVX3
  if (C != 4 || V % 16 != 0) return false;
  const D tag;
  const size_t quads = V / 16;
  int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (size_t q = 0; q < quads; ++q) {
      const float* from = lanes + static_cast<size_t>(j) * V + q * 16;
      V512 a = hn::LoadU(tag, from), b = hn::LoadU(tag, from + V), c = hn::LoadU(tag, from + 2 * V),
           d = hn::LoadU(tag, from + 3 * V);
      TransposeBlocks(a, b, c, d);
      float* r = A + static_cast<size_t>(j) * 4;
      hn::StoreU(a, tag, r + base[q * 16]), hn::StoreU(b, tag, r + base[q * 16 + 4]);
      hn::StoreU(c, tag, r + base[q * 16 + 8]), hn::StoreU(d, tag, r + base[q * 16 + 12]);
    }
  for (; j < n; ++j)
    for (size_t l = 0; l < V; l += 4)
      for (size_t c = 0; c < 4; ++c) A[base[l] + static_cast<size_t>(j) * 4 + c] = lanes[static_cast<size_t>(j) * V + l + c];
  return true;
#else
  (void)lanes, (void)A, (void)base, (void)V, (void)C, (void)n;
  return false;
#endif
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(GatherRows);
HWY_EXPORT(ScatterRows);

bool gather_rows_simd(float* lanes, const float* A, const std::size_t* base, std::size_t V, std::size_t C,
                      std::int64_t n) {
  return HWY_DYNAMIC_DISPATCH(GatherRows)(lanes, A, base, V, C, n);
}
bool scatter_rows_simd(const float* lanes, float* A, const std::size_t* base, std::size_t V, std::size_t C,
                       std::int64_t n) {
  return HWY_DYNAMIC_DISPATCH(ScatterRows)(lanes, A, base, V, C, n);
}
}  // namespace fastblur::cpu
#endif
