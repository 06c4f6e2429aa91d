// Highway kernels of the recursive Gaussians across lanes; see iir_simd.hpp.
#include <cstddef>
#include <cstdint>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/iir_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "cpu/iir_simd.hpp"

HWY_BEFORE_NAMESPACE();
namespace fastblur::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

size_t LaneWidth() { return kLaneGroups * hn::Lanes(hn::ScalableTag<float>()); }

// G vectors of lanes side by side: G independent recursions per step, so the fused multiply-adds
// of one do not wait for the previous one's.
template <size_t G>
void DericheLanesG(const float* HWY_RESTRICT in, float* HWY_RESTRICT out, int64_t n, int64_t pad,
                   const DericheLaneCoefficients& c, bool constant, float cval) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t lanes = G * N;
  const int64_t len = n + 2 * pad;
  using V = hn::Vec<decltype(d)>;
  // Causal: u_k = r_k x + p_k u_k, from the steady state of the left end; out = 2 Re(u_0 + u_1).
  {
    V ure[2][G], uim[2][G];
    for (size_t g = 0; g < G; ++g) {
      const V left = constant ? hn::Set(d, cval) : hn::LoadU(d, in + g * N);
      for (int k = 0; k < 2; ++k) {
        ure[k][g] = hn::Mul(hn::Set(d, c.steady_causal_re[k]), left);
        uim[k][g] = hn::Mul(hn::Set(d, c.steady_causal_im[k]), left);
      }
    }
    const V rre0 = hn::Set(d, c.residue_re[0]), rim0 = hn::Set(d, c.residue_im[0]);
    const V rre1 = hn::Set(d, c.residue_re[1]), rim1 = hn::Set(d, c.residue_im[1]);
    const V pre0 = hn::Set(d, c.pole_re[0]), pim0 = hn::Set(d, c.pole_im[0]);
    const V pre1 = hn::Set(d, c.pole_re[1]), pim1 = hn::Set(d, c.pole_im[1]);
    const V two = hn::Set(d, 2.0f);
    for (int64_t i = 0; i < len - pad; ++i) {
      const float* x = in + static_cast<size_t>(i) * lanes;
      for (size_t g = 0; g < G; ++g) {
        const V xv = hn::LoadU(d, x + g * N);
        const V a_re = hn::MulAdd(rre0, xv, hn::NegMulAdd(pim0, uim[0][g], hn::Mul(pre0, ure[0][g])));
        const V a_im = hn::MulAdd(rim0, xv, hn::MulAdd(pim0, ure[0][g], hn::Mul(pre0, uim[0][g])));
        const V b_re = hn::MulAdd(rre1, xv, hn::NegMulAdd(pim1, uim[1][g], hn::Mul(pre1, ure[1][g])));
        const V b_im = hn::MulAdd(rim1, xv, hn::MulAdd(pim1, ure[1][g], hn::Mul(pre1, uim[1][g])));
        ure[0][g] = a_re, uim[0][g] = a_im, ure[1][g] = b_re, uim[1][g] = b_im;
        if (i >= pad) hn::StoreU(hn::Mul(two, hn::Add(a_re, b_re)), d, out + static_cast<size_t>(i - pad) * lanes + g * N);
      }
    }
  }
  // Anticausal: v_k[i] = p_k r_k x[i + 1] + p_k v_k[i + 1], from the right end's steady state;
  // out += 2 Re(v_0 + v_1).
  {
    V vre[2][G], vim[2][G];
    for (size_t g = 0; g < G; ++g) {
      const V right = constant ? hn::Set(d, cval) : hn::LoadU(d, in + static_cast<size_t>(len - 1) * lanes + g * N);
      for (int k = 0; k < 2; ++k) {
        vre[k][g] = hn::Mul(hn::Set(d, c.steady_anticausal_re[k]), right);
        vim[k][g] = hn::Mul(hn::Set(d, c.steady_anticausal_im[k]), right);
      }
    }
    const V qre0 = hn::Set(d, c.pole_residue_re[0]), qim0 = hn::Set(d, c.pole_residue_im[0]);
    const V qre1 = hn::Set(d, c.pole_residue_re[1]), qim1 = hn::Set(d, c.pole_residue_im[1]);
    const V pre0 = hn::Set(d, c.pole_re[0]), pim0 = hn::Set(d, c.pole_im[0]);
    const V pre1 = hn::Set(d, c.pole_re[1]), pim1 = hn::Set(d, c.pole_im[1]);
    const V two = hn::Set(d, 2.0f);
    for (int64_t i = len - 1; i >= pad; --i) {
      const float* x = in + static_cast<size_t>(i) * lanes;
      for (size_t g = 0; g < G; ++g) {
        if (i < len - pad) {
          float* o = out + static_cast<size_t>(i - pad) * lanes + g * N;
          hn::StoreU(hn::MulAdd(two, hn::Add(vre[0][g], vre[1][g]), hn::LoadU(d, o)), d, o);
        }
        const V xv = hn::LoadU(d, x + g * N);
        const V a_re = hn::MulAdd(qre0, xv, hn::NegMulAdd(pim0, vim[0][g], hn::Mul(pre0, vre[0][g])));
        const V a_im = hn::MulAdd(qim0, xv, hn::MulAdd(pim0, vre[0][g], hn::Mul(pre0, vim[0][g])));
        const V b_re = hn::MulAdd(qre1, xv, hn::NegMulAdd(pim1, vim[1][g], hn::Mul(pre1, vre[1][g])));
        const V b_im = hn::MulAdd(qim1, xv, hn::MulAdd(pim1, vre[1][g], hn::Mul(pre1, vim[1][g])));
        vre[0][g] = a_re, vim[0][g] = a_im, vre[1][g] = b_re, vim[1][g] = b_im;
      }
    }
  }
}

void DericheLanes(const float* in, float* out, int64_t n, int64_t pad, const DericheLaneCoefficients& c, bool constant,
                  float cval) {
  DericheLanesG<kLaneGroups>(in, out, n, pad, c, constant, cval);
}

}  // namespace fastblur::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur::cpu {
HWY_EXPORT(LaneWidth);
HWY_EXPORT(DericheLanes);

std::size_t lane_width() { return HWY_DYNAMIC_DISPATCH(LaneWidth)(); }

void deriche_lanes(const float* in, float* out, std::int64_t n, std::int64_t pad, const DericheLaneCoefficients& c,
                   bool constant, float cval) {
  HWY_DYNAMIC_DISPATCH(DericheLanes)(in, out, n, pad, c, constant, cval);
}

DericheLaneCoefficients deriche_lane_coefficients(const kernel::DericheParallelForm& f) {
  DericheLaneCoefficients c;
  for (int k = 0; k < 2; ++k) {
    const std::complex<double> p = f.pole[static_cast<std::size_t>(k)], r = f.residue[static_cast<std::size_t>(k)];
    const std::complex<double> ss = r / (1.0 - p), pr = p * r, ssa = pr / (1.0 - p);
    c.pole_re[k] = static_cast<float>(p.real()), c.pole_im[k] = static_cast<float>(p.imag());
    c.residue_re[k] = static_cast<float>(r.real()), c.residue_im[k] = static_cast<float>(r.imag());
    c.pole_residue_re[k] = static_cast<float>(pr.real()), c.pole_residue_im[k] = static_cast<float>(pr.imag());
    c.steady_causal_re[k] = static_cast<float>(ss.real()), c.steady_causal_im[k] = static_cast<float>(ss.imag());
    c.steady_anticausal_re[k] = static_cast<float>(ssa.real()), c.steady_anticausal_im[k] = static_cast<float>(ssa.imag());
  }
  return c;
}
}  // namespace fastblur::cpu
#endif
