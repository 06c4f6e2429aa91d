// iir on the CPU: recursive Gaussians along lines, on the line driver (double) or, for Deriche on float
// data, in SIMD lanes: Deriche's 4th order (Getreuer's
// causal + anticausal form) and Young-van Vliet's 3rd order (causal then anticausal, Triggs-Sdika
// boundaries). Two sweeps per line, a few multiply-adds per sample, whatever the sigma.
#include "algorithms/iir.hpp"
#include "cpu/execute.hpp"

#include <optional>
#include <string>
#include <vector>

#include "cpu/iir_simd.hpp"
#include "cpu/lane_lines.hpp"
#include "cpu/line_driver.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_iir.hpp"

namespace fastblur::cpu {
namespace {

// The constants that continue the (padded) line at each end. Exact for nearest and constant (no
// padding); for the other borders the padding has made what lies beyond irrelevant.
struct LineEnds {
  double left, right;
};
LineEnds line_ends(const double* in, std::int64_t len, Border border, double cval) {
  if (border == Border::constant) return {cval, cval};
  return {in[0], in[len - 1]};
}

// in[0, len) is the padded line; out[0, len - 2 pad) receives y+ + y- at in[pad, len - pad).
void deriche_line(const kernel::DericheCoefficients& c, const double* in, double* out, std::int64_t len,
                  std::int64_t pad, LineEnds ends) {
  const auto& b = c.causal;
  const auto& a = c.feedback;
  // Causal, left to right, from the steady state of the left constant.
  double x1 = ends.left, x2 = x1, x3 = x1;
  double y1 = ends.left * c.causal_gain, y2 = y1, y3 = y1, y4 = y1;
  for (std::int64_t i = 0; i < len - pad; ++i) {
    const double x0 = in[i];
    const double y0 = b[0] * x0 + b[1] * x1 + b[2] * x2 + b[3] * x3 - a[0] * y1 - a[1] * y2 - a[2] * y3 - a[3] * y4;
    if (i >= pad) out[i - pad] = y0;
    x3 = x2, x2 = x1, x1 = x0;
    y4 = y3, y3 = y2, y2 = y1, y1 = y0;
  }
  // Anticausal, right to left, from the steady state of the right constant; it sees x[n+1..n+4].
  const auto& bm = c.anticausal;
  double x4 = ends.right;
  x1 = x2 = x3 = x4;
  y1 = y2 = y3 = y4 = ends.right * c.anticausal_gain;
  for (std::int64_t i = len - 1; i >= pad; --i) {
    const double y0 = bm[0] * x1 + bm[1] * x2 + bm[2] * x3 + bm[3] * x4 - a[0] * y1 - a[1] * y2 - a[2] * y3 - a[3] * y4;
    if (i < len - pad) out[i - pad] += y0;
    x4 = x3, x3 = x2, x2 = x1, x1 = in[i];
    y4 = y3, y3 = y2, y2 = y1, y1 = y0;
  }
}

// The same contract; `w` is scratch for the causal pass.
void young_van_vliet_line(const kernel::YoungVanVlietCoefficients& c, const kernel::Matrix3& m, const double* in,
                          double* out, std::int64_t len, std::int64_t pad, LineEnds ends, std::vector<double>& w_buf) {
  const double B = c.B, a1 = c.feedback[0], a2 = c.feedback[1], a3 = c.feedback[2];
  // Causal pass over the whole line; w[-3..-1] hold the steady state of the left constant.
  w_buf.resize(static_cast<std::size_t>(len + 3));
  double* w = w_buf.data() + 3;
  w[-1] = w[-2] = w[-3] = ends.left;
  for (std::int64_t i = 0; i < len; ++i) w[i] = B * in[i] + a1 * w[i - 1] + a2 * w[i - 2] + a3 * w[i - 3];
  // Triggs-Sdika: the anticausal pass's values at len-1, len, len+1 for a constant continuation u.
  // Both passes have DC gain 1, so u is the steady state of each; M acts on the deviations from it,
  // scaled by B because the anticausal pass weights its input w by B.
  const double u = ends.right;
  const double d0 = w[len - 1] - u, d1 = w[len - 2] - u, d2 = w[len - 3] - u;
  double v1 = u + B * (m[0][0] * d0 + m[0][1] * d1 + m[0][2] * d2);
  double v2 = u + B * (m[1][0] * d0 + m[1][1] * d1 + m[1][2] * d2);
  double v3 = u + B * (m[2][0] * d0 + m[2][1] * d1 + m[2][2] * d2);
  if (pad == 0) out[len - 1] = v1;
  for (std::int64_t i = len - 2; i >= pad; --i) {
    const double v0 = B * w[i] + a1 * v1 + a2 * v2 + a3 * v3;
    if (i < len - pad) out[i - pad] = v0;
    v3 = v2, v2 = v1, v1 = v0;
  }
}

std::optional<LineFilter> iir_line_filter(const Plan& plan, const algo::IirResolved& r, int axis) {
  const algo::IirAxis& c = r.axes[static_cast<std::size_t>(axis)];
  if (!c.filtered) return std::nullopt;  // as fir: leave the axis alone
  const Border border = plan.spec.border[static_cast<std::size_t>(axis)];
  const double cval = plan.spec.cval;
  const std::int64_t pad = c.pad;
  LineFilter f;
  f.pad = pad;
  if (r.variant == IirVariant::deriche) {
    f.apply = [d = c.deriche, pad, border, cval](const double* in, double* out, std::int64_t n, LineScratch&) {
      deriche_line(d, in, out, n + 2 * pad, pad, line_ends(in, n + 2 * pad, border, cval));
    };
  } else {
    f.apply = [y = c.young_van_vliet, m = c.triggs_sdika, pad, border, cval](const double* in, double* out,
                                                                             std::int64_t n, LineScratch& s) {
      young_van_vliet_line(y, m, in, out, n + 2 * pad, pad, line_ends(in, n + 2 * pad, border, cval), s.a);
    };
  }
  return f;
}

// Deriche on float data: its parallel form (two complex first-order recursions per direction, well
// conditioned in float) in SIMD across lines, lane_width() lines at a time.
std::optional<LaneFilter> deriche_lane_filter(const Plan& plan, const algo::IirResolved& r, int axis) {
  const algo::IirAxis& c = r.axes[static_cast<std::size_t>(axis)];
  if (!c.filtered) return std::nullopt;
  const bool constant = plan.spec.border[static_cast<std::size_t>(axis)] == Border::constant;
  const DericheLaneCoefficients lanes = deriche_lane_coefficients(kernel::deriche_parallel_form(c.deriche.sigma));
  LaneFilter f;
  f.pad = c.pad;
  const float cval = static_cast<float>(plan.spec.cval);
  f.apply = [lanes, constant, cval](const float* in, float* out, float*, std::int64_t n, std::int64_t pad) {
    deriche_lanes(in, out, n, pad, lanes, constant, cval);
  };
  return f;
}

}  // namespace

void iir_blur(const Plan& plan, const View& src, const View& dst) {
  const auto& r = algo::resolved_as<algo::IirResolved>(plan);
  if (plan.schedule.driver == CpuDriver::lanes) {
    if (r.variant != IirVariant::deriche)
      throw InvalidArgument("the lane driver runs iir's Deriche variant only, not Young-van Vliet");
    std::array<std::optional<LaneFilter>, 3> lanes;
    for (int a = 0; a < 3; ++a) lanes[static_cast<std::size_t>(a)] = deriche_lane_filter(plan, r, a);
    run_lane_filters(plan, src, dst, lanes);
    return;
  }
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a) filters[static_cast<std::size_t>(a)] = iir_line_filter(plan, r, a);
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
