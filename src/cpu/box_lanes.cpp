// Highway kernel of the running-sum boxes across lanes; see box_lanes.hpp.
#include <cstddef>
#include <cstdint>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/box_lanes.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/box_lanes.hpp"
#include "cpu/iir_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A position of kLaneGroups float vectors is this many double vectors (one float half each).
constexpr size_t kChunks = kLaneGroups * (HWY_TARGET == HWY_SCALAR ? 1 : 2);

// One pass on the lanes of two double vectors (chunks c and c + 1) along the whole line:
// y[j] = (sum x[j+1 .. j+2r+1] + alpha (x[j] + x[j+2r+2])) / (2r+1+2 alpha) for j < m, the box
// centred on x[j + r + 1]. y may be x: position j is stored after its last read. The line is
// swept once per pair of chunks rather than all chunks per position, so that the sums and
// carried samples are plain locals the compiler keeps in registers (GCC 12 left arrays of them
// on the stack, and the extra stores bounded the loop); two independent sums per step hide the
// adds' latency.
static void BoxPassPair(const float* x, float* y, int64_t m, int r, double alpha, size_t c) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // the floats of one double vector
  const size_t Nd = hn::Lanes(dd), lanes = kChunks * Nd;
  using VD = hn::Vec<decltype(dd)>;
  x += c * Nd, y += c * Nd;
  const auto load = [&](int64_t pos, size_t half) {
    return hn::PromoteTo(dd, hn::LoadU(df, x + static_cast<size_t>(pos) * lanes + half * Nd));
  };
  VD sum0 = hn::Zero(dd), sum1 = hn::Zero(dd);
  for (int64_t k = 1; k <= 2 * r + 1; ++k) {
    sum0 = hn::Add(sum0, load(k, 0));
    sum1 = hn::Add(sum1, load(k, 1));
  }
  const VD va = hn::Set(dd, alpha), inv = hn::Set(dd, 1.0 / (2.0 * r + 1.0 + 2.0 * alpha));
  const int64_t far = 2 * static_cast<int64_t>(r) + 2;
  // x[j + 1], promoted for the slide, is the next output's x[j]: carried, each sample is
  // converted twice instead of three times (the conversions bound this loop, not the adds).
  VD first0 = load(0, 0), first1 = load(0, 1);
  const auto step = [&](int64_t j, size_t half, VD& sum, VD& first) {
    const VD last = load(j + far, half), next = load(j + 1, half);
    const VD out = hn::Mul(hn::MulAdd(va, hn::Add(first, last), sum), inv);
    sum = hn::Add(sum, hn::Sub(last, next));  // slides the window to j + 1
    first = next;
    hn::StoreU(hn::DemoteTo(df, out), df, y + static_cast<size_t>(j) * lanes + half * Nd);
  };
  for (int64_t j = 0; j < m; ++j) {
    step(j, 0, sum0, first0);
    step(j, 1, sum1, first1);
  }
}

static void BoxPass(const float* x, float* y, int64_t m, int r, double alpha) {
  for (size_t c = 0; c < kChunks; c += 2) BoxPassPair(x, y, m, r, alpha, c);
}

static size_t BoxLaneCount() { return kChunks * hn::Lanes(hn::ScalableTag<double>()); }

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(BoxPass);
HWY_EXPORT(BoxLaneCount);

void box_lanes(const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad,
               const kernel::BoxPass* passes, std::size_t count) {
  if (n <= 0) return;
  const std::size_t V = HWY_DYNAMIC_DISPATCH(BoxLaneCount)();
  HWY_ASSERT(V == lane_width());
  std::int64_t need = 0;
  for (std::size_t p = 0; p < count; ++p) need += passes[p].radius + 1;
  HWY_ASSERT(need <= pad);
  // Extra padding beyond what the passes use is skipped.
  const float* src = in + static_cast<std::size_t>(pad - need) * V;
  if (count == 0) {
    std::memcpy(out, src, static_cast<std::size_t>(n) * V * sizeof(float));
    return;
  }
  std::int64_t len = n + 2 * need;
  for (std::size_t p = 0; p < count; ++p) {
    const std::int64_t m = len - 2 * (passes[p].radius + 1);
    float* dst = p + 1 == count ? out : scratch;
    HWY_DYNAMIC_DISPATCH(BoxPass)(src, dst, m, passes[p].radius, passes[p].alpha);
    src = dst;
    len = m;
  }
}

}  // namespace fastblur::cpu
#endif
