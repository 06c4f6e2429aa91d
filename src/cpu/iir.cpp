// Recursive Gaussians along lines, on the generic line driver: Deriche's 4th order (Getreuer's
// causal + anticausal form) and Young-van Vliet's 3rd order (causal then anticausal, Triggs-Sdika
// boundaries). Two sweeps per line, a few multiply-adds per sample, whatever the sigma.
#include "cpu/iir.hpp"

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

// Padded lines start where the slowest pole has decayed to this; the weight of the impulse
// response left beyond the padding then stays below 1e-7 (tests/kernel/iir_coefficients_test.cpp).
constexpr double kPoleDecay = 1e-8;

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

std::optional<LineFilter> iir_line_filter(const BlurSpec& spec, int axis) {
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  if (sigma <= 1e-15) return std::nullopt;  // as fir: leave the axis alone
  if (sigma < kernel::kIirMinSigma || sigma > kernel::kIirMaxSigma) {
    const char* names[] = {"x", "y", "z"};
    throw InvalidArgument(std::string("iir: sigma along ") + names[axis] + " is " + std::to_string(sigma) +
                          ": expected 0 or 0.5 to 1000 (fir takes any sigma)");
  }
  const Border border = spec.border[static_cast<std::size_t>(axis)];
  const double cval = spec.cval;
  // nearest and constant continue the line by a constant, from which the recursions start exactly.
  const bool constant_ends = border == Border::nearest || border == Border::constant;
  LineFilter f;
  switch (spec.iir_variant) {
    case IirVariant::deriche: {
      const auto c = kernel::deriche_coefficients(sigma);
      const std::int64_t pad = constant_ends ? 0 : kernel::recursive_decay_length(c.pole_radius, kPoleDecay);
      f.pad = pad;
      f.apply = [c, pad, border, cval](const double* in, double* out, std::int64_t n, LineScratch&) {
        deriche_line(c, in, out, n + 2 * pad, pad, line_ends(in, n + 2 * pad, border, cval));
      };
      return f;
    }
    case IirVariant::young_van_vliet: {
      const auto c = kernel::young_van_vliet_coefficients(sigma);
      const auto m = kernel::triggs_sdika_matrix(c.feedback);
      const std::int64_t pad = constant_ends ? 0 : kernel::recursive_decay_length(c.pole_radius, kPoleDecay);
      f.pad = pad;
      f.apply = [c, m, pad, border, cval](const double* in, double* out, std::int64_t n, LineScratch& s) {
        young_van_vliet_line(c, m, in, out, n + 2 * pad, pad, line_ends(in, n + 2 * pad, border, cval), s.a);
      };
      return f;
    }
  }
  throw InvalidArgument("iir_variant is " + std::to_string(static_cast<int>(spec.iir_variant)) +
                        ": expected deriche or young_van_vliet");
}

// Deriche on float data: its parallel form (two complex first-order recursions per direction, well
// conditioned in float) in SIMD across lines, lane_width() lines at a time.
std::optional<LaneFilter> deriche_lane_filter(const BlurSpec& spec, int axis) {
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  if (sigma <= 1e-15) return std::nullopt;
  (void)iir_line_filter(spec, axis);  // the same checks as the double path
  const Border border = spec.border[static_cast<std::size_t>(axis)];
  const bool constant = border == Border::constant;
  const bool constant_ends = constant || border == Border::nearest;
  const DericheLaneCoefficients c = deriche_lane_coefficients(kernel::deriche_parallel_form(sigma));
  LaneFilter f;
  f.pad = constant_ends ? 0 : kernel::recursive_decay_length(kernel::deriche_coefficients(sigma).pole_radius, kPoleDecay);
  const float cval = static_cast<float>(spec.cval);
  f.apply = [c, constant, cval](const float* in, float* out, std::int64_t n, std::int64_t pad) {
    deriche_lanes(in, out, n, pad, c, constant, cval);
  };
  return f;
}

}  // namespace

void iir_blur(const View& src, const View& dst, const BlurSpec& spec) {
  if (spec.iir_variant == IirVariant::deriche && src.type != ElementType::f64 && dst.type != ElementType::f64) {
    std::array<std::optional<LaneFilter>, 3> lanes;
    for (int a = 0; a < 3; ++a) lanes[static_cast<std::size_t>(a)] = deriche_lane_filter(spec, a);
    run_lane_filters(src, dst, spec, lanes);
    return;
  }
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a) filters[static_cast<std::size_t>(a)] = iir_line_filter(spec, a);
  run_line_filters(src, dst, spec, filters);
}

}  // namespace fastblur::cpu
