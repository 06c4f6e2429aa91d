// Running-sum boxes along lines. Sums are kept in double: integer data (u8/u16) sums exactly
// (below 2^53), float data does not drift over any line length a view can have.
#include "cpu/box.hpp"

#include <utility>

#include "cpu/line_driver.hpp"

namespace fastblur::cpu {

std::vector<kernel::BoxPass> box_passes_for(const BlurSpec& spec, int axis, int passes) {
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  return spec.box_integer_widths ? kernel::integer_box_passes(sigma, passes)
                                 : kernel::extended_box_passes(sigma, passes);
}

namespace {

// One pass over in[lo, hi): writes out[lo + h, hi - h), h = radius + 1.
void box_pass(const double* in, double* out, std::int64_t lo, std::int64_t hi, const kernel::BoxPass& p) {
  const std::int64_t r = p.radius, h = r + 1;
  const double inv = 1.0 / (2.0 * r + 1.0 + 2.0 * p.alpha);
  double sum = 0.0;
  for (std::int64_t j = lo + h - r; j <= lo + h + r; ++j) sum += in[j];
  for (std::int64_t i = lo + h; i < hi - h; ++i) {
    out[i] = (sum + p.alpha * (in[i - h] + in[i + h])) * inv;
    sum += in[i + r + 1] - in[i - r];  // slides the window to i + 1
  }
}

LineFilter box_line_filter(std::vector<kernel::BoxPass> passes) {
  std::int64_t pad = 0;
  for (const auto& p : passes) pad += p.radius + 1;
  LineFilter f;
  f.pad = pad;
  f.apply = [passes = std::move(passes), pad](const double* in, double* out, std::int64_t n, LineScratch& s) {
    const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
    s.a.assign(in, in + len);
    s.b.resize(len);
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(len);
    for (const auto& p : passes) {
      box_pass(s.a.data(), s.b.data(), lo, hi, p);
      lo += p.radius + 1;
      hi -= p.radius + 1;
      std::swap(s.a, s.b);
    }
    for (std::int64_t i = 0; i < n; ++i) out[i] = s.a[static_cast<std::size_t>(pad + i)];
  };
  return f;
}

}  // namespace

void box_blur(const View& src, const View& dst, const BlurSpec& spec, int passes) {
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a)
    if (spec.sigma[static_cast<std::size_t>(a)] > 1e-15) filters[static_cast<std::size_t>(a)] = box_line_filter(box_passes_for(spec, a, passes));
  run_line_filters(src, dst, spec, filters);
}

}  // namespace fastblur::cpu
