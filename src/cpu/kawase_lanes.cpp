// Highway kernel of the Kawase passes across lanes; see kawase_lanes.hpp.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/kawase_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/iir_simd.hpp"
#include "cpu/kawase_lanes.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One pass over m positions: y[j] = near (x[j+1] + x[j+2a+1]) + far (x[j] + x[j+2a+2]), the
// stencil centred on x[j + a + 1]. Each float vector of lanes is swept along the whole line, its
// loads of x[j+1] and x[j+2a+2] carried as the next position's x[j] and x[j+2a+1]: two loads
// per vector instead of four, and plain locals that stay in registers. y may be x: position j is
// stored after its last read.
static void KawasePass(const float* x, float* y, int64_t m, int64_t a, float near, float far) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t N = hn::Lanes(d), lanes = kLaneGroups * N;
  const size_t span = static_cast<size_t>(2 * a + 1) * lanes;  // from x[j] to x[j+2a+1]
  const V vn = hn::Set(d, near), vf = hn::Set(d, far);
  for (size_t g = 0; g < kLaneGroups; ++g) {
    const float* xg = x + g * N;
    float* yg = y + g * N;
    V lo = hn::LoadU(d, xg), hi = hn::LoadU(d, xg + span);  // x[j], x[j+2a+1]
    for (int64_t j = 0; j < m; ++j) {
      const float* row = xg + static_cast<size_t>(j) * lanes;
      const V lo_next = hn::LoadU(d, row + lanes), hi_next = hn::LoadU(d, row + span + lanes);
      hn::StoreU(hn::MulAdd(vf, hn::Add(lo, hi_next), hn::Mul(vn, hn::Add(lo_next, hi))), d,
                 yg + static_cast<size_t>(j) * lanes);
      lo = lo_next, hi = hi_next;
    }
  }
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(KawasePass);

void kawase_lanes(const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad,
                  const double* offsets, std::size_t count) {
  if (n <= 0) return;
  const std::size_t V = lane_width();
  std::int64_t need = 0;
  for (std::size_t p = 0; p < count; ++p) need += static_cast<std::int64_t>(std::floor(offsets[p])) + 1;
  HWY_ASSERT(need <= pad);
  const float* src = in + static_cast<std::size_t>(pad - need) * V;  // extra padding is skipped
  if (count == 0) {
    std::memcpy(out, src, static_cast<std::size_t>(n) * V * sizeof(float));
    return;
  }
  std::int64_t len = n + 2 * need;
  for (std::size_t p = 0; p < count; ++p) {
    const double dist = offsets[p];
    const std::int64_t a = static_cast<std::int64_t>(std::floor(dist)), m = len - 2 * (a + 1);
    const double t = dist - static_cast<double>(a);
    float* dst = p + 1 == count ? out : scratch;
    HWY_DYNAMIC_DISPATCH(KawasePass)(src, dst, m, a, static_cast<float>(0.5 * (1.0 - t)), static_cast<float>(0.5 * t));
    src = dst;
    len = m;
  }
}

}  // namespace fastblur::cpu
#endif
