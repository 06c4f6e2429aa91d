// dual-kawase: the library against a plain double implementation of the GPU passes (2D bilinear
// fetches with clamping on an explicitly padded image) for every border, type, channel count and
// awkward shape; the variance per axis averaged over the phases; accuracy against the Gaussian.
#include <gtest/gtest.h>

#include <cmath>

#include "core/border.hpp"
#include "algorithms/dual_kawase.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "support/test_support.hpp"
#include "support/twins.hpp"

namespace fastblur {
namespace {

struct Image {
  std::int64_t w = 0, h = 0;
  int c = 1;
  std::vector<double> v;
  Image(std::int64_t w_, std::int64_t h_, int c_) : w(w_), h(h_), c(c_), v(static_cast<std::size_t>(w_ * h_ * c_), 0.0) {}
  double& at(std::int64_t x, std::int64_t y, int ch) { return v[static_cast<std::size_t>((y * w + x) * c + ch)]; }
  double at(std::int64_t x, std::int64_t y, int ch) const { return v[static_cast<std::size_t>((y * w + x) * c + ch)]; }
};

// A GPU's bilinear fetch at (px, py) with clamp-to-edge addressing.
double fetch(const Image& s, double px, double py, int ch) {
  const double ux = px - 0.5, uy = py - 0.5, fx = std::floor(ux), fy = std::floor(uy), tx = ux - fx, ty = uy - fy;
  const auto texel = [&](double x, double y) {
    return s.at(std::clamp<std::int64_t>(static_cast<std::int64_t>(x), 0, s.w - 1),
                std::clamp<std::int64_t>(static_cast<std::int64_t>(y), 0, s.h - 1), ch);
  };
  return (1 - tx) * (1 - ty) * texel(fx, fy) + tx * (1 - ty) * texel(fx + 1, fy) + (1 - tx) * ty * texel(fx, fy + 1) +
         tx * ty * texel(fx + 1, fy + 1);
}

// Bjorge's downsample: 4/8 at the centre, 1/8 at each diagonal (+-hx, +-hy), h = half texel * offset.
Image down(const Image& s, double dx, double dy) {
  Image t(s.w / 2, s.h / 2, s.c);
  const double hx = dx / 2, hy = dy / 2;
  for (std::int64_t y = 0; y < t.h; ++y)
    for (std::int64_t x = 0; x < t.w; ++x)
      for (int ch = 0; ch < s.c; ++ch) {
        const double cx = 2.0 * x + 1, cy = 2.0 * y + 1;  // the target's centre in source texels
        t.at(x, y, ch) = (4 * fetch(s, cx, cy, ch) + fetch(s, cx - hx, cy - hy, ch) + fetch(s, cx + hx, cy + hy, ch) +
                          fetch(s, cx + hx, cy - hy, ch) + fetch(s, cx - hx, cy + hy, ch)) / 8;
      }
  return t;
}

// Bjorge's upsample: 1/12 at (+-2h, 0) and (0, +-2h), 2/12 at (+-h, +-h).
Image up(const Image& s, double dx, double dy) {
  Image t(s.w * 2, s.h * 2, s.c);
  const double hx = dx / 2, hy = dy / 2;
  for (std::int64_t y = 0; y < t.h; ++y)
    for (std::int64_t x = 0; x < t.w; ++x)
      for (int ch = 0; ch < s.c; ++ch) {
        const double cx = (x + 0.5) / 2, cy = (y + 0.5) / 2;
        t.at(x, y, ch) = (fetch(s, cx - 2 * hx, cy, ch) + fetch(s, cx + 2 * hx, cy, ch) + fetch(s, cx, cy - 2 * hy, ch) +
                          fetch(s, cx, cy + 2 * hy, ch) +
                          2 * (fetch(s, cx - hx, cy + hy, ch) + fetch(s, cx + hx, cy + hy, ch) +
                               fetch(s, cx + hx, cy - hy, ch) + fetch(s, cx - hx, cy - hy, ch))) / 12;
      }
  return t;
}

// The chain on the image placed at (before_x, before_y) of a padded image of size_x x size_y
// filled by the border modes, cropped back.
Image reference(const View& src, const BlurSpec& spec, const kernel::DualKawaseSchedule& s,
                algo::DualKawasePadding px, algo::DualKawasePadding py) {
  Image img(px.size, py.size, src.channels);
  for (std::int64_t y = 0; y < py.size; ++y)
    for (std::int64_t x = 0; x < px.size; ++x) {
      const std::int64_t mx = core::border_index(x - px.before, src.width(), spec.border[0]);
      const std::int64_t my = core::border_index(y - py.before, src.height(), spec.border[1]);
      for (int ch = 0; ch < src.channels; ++ch)
        img.at(x, y, ch) = mx < 0 || my < 0 ? spec.cval : test::get(src, mx, my, 0, ch);
    }
  for (int l = 0; l < s.levels; ++l) img = down(img, s.offset[0], s.offset[1]);
  for (int l = 0; l < s.levels; ++l) img = up(img, s.offset[0], s.offset[1]);
  Image out(src.width(), src.height(), src.channels);
  for (std::int64_t y = 0; y < src.height(); ++y)
    for (std::int64_t x = 0; x < src.width(); ++x)
      for (int ch = 0; ch < src.channels; ++ch) out.at(x, y, ch) = img.at(x + px.before, y + py.before, ch);
  return out;
}

// The reference at the library's padding, checked against one two blocks wider on every side (the
// clamping at the padded image's edge must not reach the output), as an f64 buffer.
test::Buffer exact(const View& src, const BlurSpec& spec) {
  const kernel::DualKawaseSchedule s = algo::dual_kawase_schedule_for(spec);
  const algo::DualKawasePadding px = algo::dual_kawase_padding(src.width(), s.levels, s.offset[0]);
  const algo::DualKawasePadding py = algo::dual_kawase_padding(src.height(), s.levels, s.offset[1]);
  EXPECT_EQ(px.before % (1 << s.levels), 0);
  EXPECT_EQ(px.size % (1 << s.levels), 0);
  const Image a = reference(src, spec, s, px, py);
  const std::int64_t more = 2 << s.levels;
  const Image b = reference(src, spec, s, {px.before + more, px.size + 2 * more}, {py.before + more, py.size + 2 * more});
  double diff = 0, scale = 1;
  for (std::size_t i = 0; i < a.v.size(); ++i) diff = std::max(diff, std::abs(a.v[i] - b.v[i])), scale = std::max(scale, std::abs(a.v[i]));
  EXPECT_LE(diff, 1e-13 * scale) << "the padding is too small: the clamping reaches the output";
  test::Buffer out = test::make_buffer(ElementType::f64, src.width(), src.height(), 1, src.channels);
  for (std::int64_t y = 0; y < src.height(); ++y)
    for (std::int64_t x = 0; x < src.width(); ++x)
      for (int ch = 0; ch < src.channels; ++ch) test::set(out.view, x, y, 0, ch, a.at(x, y, ch));
  return out;
}

// Float rounding through the chain: the budget of test::tolerance for this many taps (every case
// passes with 1: the chain's float error stays near 1e-6 of the data's scale).
constexpr int kTaps = 4;

// The twin, for the contract suite's grid of shapes, types, borders and options.
const bool kTwin = test::register_twin(Algorithm::dual_kawase, kTaps, exact);

BlurSpec dual(double sx, double sy, Border border = Border::reflect) {
  BlurSpec spec;
  spec.sigma = {sx, sy, 0.0};
  spec.algorithm = Algorithm::dual_kawase;
  spec.with_border(border);
  spec.cval = 0.37;
  return spec;
}


TEST(DualKawaseBlur, ExplicitLevelsAndOffset) {
  auto rng = test::rng_for_test();
  test::Buffer src = test::make_buffer(ElementType::f32, 40, 33, 1, 2);
  test::fill_random(src.view, rng);
  for (auto [levels, offset] : {std::pair{3, 1.0}, {2, 0.0}, {0, 2.0}, {4, 0.2}}) {
    BlurSpec spec = dual(9.0, 6.0, Border::wrap);
    set_parameter(spec, "dual_kawase_levels", static_cast<std::int64_t>(levels));
    set_parameter(spec, "dual_kawase_offset", static_cast<double>(offset));
    const kernel::DualKawaseSchedule s = algo::dual_kawase_schedule_for(spec);
    if (levels) EXPECT_EQ(s.levels, levels);
    if (offset > 0) EXPECT_EQ(s.offset[0], offset);
    test::Buffer dst = test::make_buffer(ElementType::f32, 40, 33, 1, 2);
    blur(src.view, dst.view, spec);
    EXPECT_LE(test::worst_ratio(dst.view, exact(src.view, spec).view, kTaps), 1.0) << levels << " " << offset;
  }
}

// The second moment along x (or y) about the impulse of the response's marginal, averaged over
// the impulse's phases in a block of 2^levels pixels: the chain's variance, sigma^2.
double phase_averaged_variance(const BlurSpec& spec, int axis) {
  const kernel::DualKawaseSchedule s = algo::dual_kawase_schedule_for(spec);
  const int block = 1 << s.levels;
  const int n = block * (2 * static_cast<int>(std::ceil(8 * std::max(spec.sigma[0], spec.sigma[1]) / block)) + 3);
  double v = 0;
  for (int phase = 0; phase < block; ++phase) {
    std::vector<double> img(static_cast<std::size_t>(n) * n, 0.0);
    const int px = axis == 0 ? n / 2 / block * block + phase : n / 2, py = axis == 1 ? n / 2 / block * block + phase : n / 2;
    img[static_cast<std::size_t>(py) * n + px] = 1.0;
    const View view = View::packed(img.data(), ElementType::f64, n, n);
    BlurSpec c = spec;
    c.with_border(Border::constant);
    c.cval = 0;
    blur(view, view, c);
    double m0 = 0, m2 = 0;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double d = axis == 0 ? x - px : y - py, h = img[static_cast<std::size_t>(y) * n + x];
        m0 += h, m2 += h * d * d;
      }
    EXPECT_NEAR(m0, 1.0, 1e-9);
    v += m2 / m0 / block;
  }
  return v;
}

TEST(DualKawaseBlur, PhaseAveragedVarianceIsSigmaSquared) {
  for (auto [sx, sy] : {std::pair{1.0, 1.0}, {2.7, 2.7}, {6.0, 6.0}, {13.0, 13.0}, {2.5, 7.0}}) {
    const BlurSpec spec = dual(sx, sy);
    EXPECT_NEAR(phase_averaged_variance(spec, 0), sx * sx, 1e-9 * sx * sx) << sx << " " << sy;
    EXPECT_NEAR(phase_averaged_variance(spec, 1), sy * sy, 1e-9 * sy * sy) << sx << " " << sy;
  }
}

TEST(DualKawaseBlur, AccuracyAgainstTheGaussian) {
  // docs/DESIGN.md metrics of measure_impulse (the impulse at the centre of its image: one phase); the
  // bounds are those of bench/RESULTS.md's accuracy table.
  struct Bound { double sigma, max_error, max_error_2d, sigma_error; };
  for (const Bound& b : {Bound{1.0, 0.34, 0.52, 0.001}, Bound{2.0, 0.29, 0.63, 0.001}, Bound{5.0, 0.105, 0.37, 0.01},
                         Bound{10.0, 0.085, 0.30, 0.012}, Bound{20.0, 0.08, 0.27, 0.012}, Bound{50.0, 0.10, 0.34, 0.005}}) {
    BlurSpec spec;
    spec.algorithm = Algorithm::dual_kawase;
    const auto m = analysis::measure_impulse(spec, b.sigma);
    const auto s = kernel::dual_kawase_schedule(b.sigma, b.sigma);
    std::printf("[ measured ] dual-kawase sigma %4.0f (%d levels, offset %.3f): effective sigma %.4f, max error %.4f, "
                "L1 %.4f, 2D max error %.4f, anisotropy %.4f\n", b.sigma, s.levels, s.offset[0], m.effective_sigma,
                m.max_error, m.l1_error, m.max_error_2d, m.anisotropy);
    EXPECT_LE(m.max_error, b.max_error) << b.sigma;
    EXPECT_LE(m.max_error_2d, b.max_error_2d) << b.sigma;
    EXPECT_LE(std::abs(m.effective_sigma / b.sigma - 1), b.sigma_error) << b.sigma;
  }
}

TEST(DualKawaseBlur, RejectsBadInput) {
  float px[4 * 4 * 2] = {};
  const View flat = View::packed(px, ElementType::f32, 4, 4);
  const View volume = View::packed(px, ElementType::f32, 4, 4, 2);
  const auto message = [&](const View& v, const BlurSpec& spec) {
    try {
      blur(v, v, spec);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(flat, dual(0.5, 0.5)).find("smallest sigma is 1"), std::string::npos);
  EXPECT_NE(message(flat, dual(0.0, 3.0)).find("both"), std::string::npos);
  EXPECT_NE(message(volume, dual(3.0, 3.0)).find("2D images only"), std::string::npos);
  BlurSpec z = dual(3.0, 3.0);
  z.sigma[2] = 1.0;
  EXPECT_NE(message(flat, z).find("sigma along z"), std::string::npos);
  BlurSpec levels = dual(2.0, 2.0);
  set_parameter(levels, "dual_kawase_levels", static_cast<std::int64_t>(2));  // 2 levels start at sigma sqrt(5)
  EXPECT_NE(message(flat, levels).find("below the smallest sigma of 2 levels"), std::string::npos);
  test::set_unchecked(levels, "dual_kawase_levels", std::int64_t{17});  // what blur() itself refuses
  EXPECT_NE(message(flat, levels).find("levels"), std::string::npos);
  BlurSpec offset = dual(3.0, 3.0);
  test::set_unchecked(offset, "dual_kawase_offset", -1.0);
  EXPECT_NE(message(flat, offset).find("offset"), std::string::npos);
  test::set_unchecked(offset, "dual_kawase_offset", double(NAN));
  EXPECT_NE(message(flat, offset).find("offset"), std::string::npos);
  // Nothing to blur: a copy.
  px[5] = 3.0f;
  const BlurSpec none = dual(0.0, 0.0);
  std::vector<float> out(16, -1.0f);
  blur(flat, View::packed(out.data(), ElementType::f32, 4, 4), none);
  EXPECT_EQ(out[5], 3.0f);
  EXPECT_EQ(out[0], 0.0f);
}

}  // namespace
}  // namespace fastblur
