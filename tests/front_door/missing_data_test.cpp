// Normalized convolution (src/missing_data.cpp) against its definition computed apart: the weighted
// values and the weights blurred as two float64 images (each with its own constant outside: cval and
// 1 where cval is present, 0 and 0 where it is NaN), divided. Every border, 1-4 channels, NaN shared
// by a pixel's channels or not, bool / uint8 / float masks of one channel or all, in place, alpha,
// empty neighbourhoods, preserve_nan, the plain blur when nothing is missing, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fastblur/error.hpp"
#include "fastblur/missing_data.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The definition: G*(x w) / G*w per channel, in float64, from the weights each element has; the
// weight under the kernel G*w of each element into `weight_under` where given.
std::vector<double> reference(const View& src, const std::vector<double>& w, const BlurSpec& spec, bool alpha,
                              double empty, std::vector<double>* weight_under = nullptr) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  auto num = test::make_buffer(ElementType::f64, W, H, D, C), den = test::make_buffer(ElementType::f64, W, H, D, C);
  const double a_scale = src.type == ElementType::u8 ? 255.0 : 1.0;
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y)
      for (std::int64_t x = 0; x < W; ++x)
        for (int c = 0; c < C; ++c) {
          const std::size_t i = static_cast<std::size_t>(((z * H + y) * W + x) * C + c);
          const double v = test::get(src, x, y, z, c);
          const double wt = alpha ? test::get(src, x, y, z, C - 1) / a_scale : w[i];
          test::set(num.view, x, y, z, c, wt == 0.0 ? 0.0 : v * wt);
          test::set(den.view, x, y, z, c, wt);
        }
  BlurSpec s = spec;
  s.rounding = Rounding::nearest;
  const bool present_outside = std::isfinite(spec.cval);
  BlurSpec sn = s, sd = s;
  sn.cval = present_outside ? spec.cval : 0.0;  // outside: cval with weight 1, or missing
  sd.cval = present_outside ? 1.0 : 0.0;
  blur(num.view, num.view, sn);
  blur(den.view, den.view, sd);
  std::vector<double> out(static_cast<std::size_t>(W * H * D * C));
  // The contract's empty pixel: a weight under the kernel below 4 epsilons of the work type (float64
  // for float64 data or a present cval under a constant border, else float32).
  bool wide = src.type == ElementType::f64;
  for (int a = 0; a < 3; ++a) wide = wide || (spec.border[static_cast<std::size_t>(a)] == Border::constant && present_outside);
  const double floor = 4.0 * (wide ? 2.220446049250313e-16 : 1.1920929e-7);
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y)
      for (std::int64_t x = 0; x < W; ++x)
        for (int c = 0; c < C; ++c) {
          const std::size_t i = static_cast<std::size_t>(((z * H + y) * W + x) * C + c);
          const double d = test::get(den.view, x, y, z, alpha ? C - 1 : c);
          if (weight_under) weight_under->push_back(d);
          if (alpha && c == C - 1) out[i] = d * a_scale;
          else out[i] = d > floor ? test::get(num.view, x, y, z, c) / d : (alpha ? 0.0 : empty);
        }
  return out;
}

struct Request {
  ElementType type;
  std::int64_t w, h, d;
  int c;
  Border border;
  double cval;
  bool nan_shared;     // NaN holes cover a pixel's channels together
  int mask_kind;       // 0 none, 1 bool, 2 uint8, 3 float certainty
  bool mask_one_channel;
  bool in_place;
};

void check(const Request& r, std::mt19937_64& rng, const std::string& what) {
  auto src = test::make_buffer(r.type, r.w, r.h, r.d, r.c);
  test::fill_random(src.view, rng);
  const bool has_nan = r.type == ElementType::f32 || r.type == ElementType::f64;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  // Holes: a block bigger than the kernel (an empty neighbourhood) and scattered NaNs.
  const std::size_t n = static_cast<std::size_t>(r.w * r.h * r.d * r.c);
  std::vector<double> w(n, 1.0);
  MissingData m;
  m.omit_nan = has_nan;
  for (std::int64_t z = 0; z < r.d; ++z)
    for (std::int64_t y = 0; y < r.h; ++y)
      for (std::int64_t x = 0; x < r.w; ++x) {
        const bool block = x < r.w / 2 && y < r.h / 2;
        const bool pixel_hole = block || u(rng) < 0.15;
        for (int c = 0; c < r.c; ++c) {
          const bool hole = has_nan && (r.nan_shared ? pixel_hole : (block || u(rng) < 0.15));
          if (hole) {
            test::set(src.view, x, y, z, c, kNaN);
            w[static_cast<std::size_t>(((z * r.h + y) * r.w + x) * r.c + c)] = 0.0;
          }
        }
      }
  test::Buffer mask;
  if (r.mask_kind) {
    const int mc = r.mask_one_channel ? 1 : r.c;
    mask = test::make_buffer(r.mask_kind == 3 ? ElementType::f64 : r.mask_kind == 1 ? ElementType::b8 : ElementType::u8,
                             r.w, r.h, r.d, mc);
    for (std::int64_t z = 0; z < r.d; ++z)
      for (std::int64_t y = 0; y < r.h; ++y)
        for (std::int64_t x = 0; x < r.w; ++x)
          for (int c = 0; c < mc; ++c) {
            const double mv = r.mask_kind == 3 ? (u(rng) < 0.2 ? 0.0 : u(rng)) : (u(rng) < 0.2 ? 1.0 : 0.0);
            test::set(mask.view, x, y, z, c, mv);
            const double mw = r.mask_kind == 3 ? mv : 1.0 - mv;
            for (int cc = 0; cc < r.c; ++cc)
              if (r.mask_one_channel || cc == c) w[static_cast<std::size_t>(((z * r.h + y) * r.w + x) * r.c + cc)] *= mw;
          }
    m.mask = mask.view;
  }
  BlurSpec spec;
  spec.sigma = {1.4, r.h > 1 ? 0.9 : 0.0, r.d > 1 ? 1.1 : 0.0};
  spec.with_border(r.border);
  spec.cval = r.cval;
  spec.threads = 2;
  const double empty = has_nan ? kNaN : (std::isfinite(r.cval) ? r.cval : 0.0);
  std::vector<double> weight_under;
  const std::vector<double> want = reference(src.view, w, spec, false, empty, &weight_under);
  auto out = test::make_buffer(r.type, r.w, r.h, r.d, r.c);
  View dst = r.in_place ? src.view : out.view;
  blur(src.view, dst, spec, m);
  // Float results to rounding: the quotient's rounding grows as the weight under the kernel shrinks
  // (a neighbourhood mostly missing: both sums' errors are of the kernel's scale, divided by G*w).
  const double tol = r.type == ElementType::f64 ? 1e-12 : r.type == ElementType::f32 ? 2e-5 : 0.51;
  for (std::int64_t z = 0; z < r.d; ++z)
    for (std::int64_t y = 0; y < r.h; ++y)
      for (std::int64_t x = 0; x < r.w; ++x)
        for (int c = 0; c < r.c; ++c) {
          const double e = want[static_cast<std::size_t>(((z * r.h + y) * r.w + x) * r.c + c)];
          const double g = test::get(dst, x, y, z, c);
          if (std::isnan(e)) {
            ASSERT_TRUE(std::isnan(g)) << what << " at " << x << "," << y << "," << z << "," << c << ": " << g;
          } else {
            const double want_v = is_integer(r.type) ? std::nearbyint(e) : e;
            const std::size_t i = static_cast<std::size_t>(((z * r.h + y) * r.w + x) * r.c + c);
            const double conditioning = is_integer(r.type) ? 1.0 : 1.0 / std::min(1.0, weight_under[i]);
            ASSERT_NEAR(g, want_v, tol * std::max(1.0, std::abs(e)) * conditioning)
                << what << " at " << x << "," << y << "," << z << "," << c << " (weight under the kernel " << weight_under[i] << ")";
          }
        }
}

TEST(MissingData, EqualsTheNormalizedConvolutionOnEveryBorderAndLayout) {
  auto rng = test::rng_for_test();
  int checked = 0;
  for (Border border : test::all_borders())
    for (int variant = 0; variant < 8; ++variant) {
      Request r{ElementType::f64, 23, 17, 1, 1, border, 0.7, true, 0, false, false};
      switch (variant) {
        case 0: break;
        case 1: r.type = ElementType::f32, r.c = 3, r.nan_shared = false; break;  // a weight channel a channel
        case 2: r.c = 4, r.in_place = true; break;                                 // groups of 3 and 1, in place
        case 3: r.type = ElementType::u8, r.c = 3, r.mask_kind = 1, r.mask_one_channel = true; break;
        case 4: r.type = ElementType::u16, r.c = 2, r.mask_kind = 2; break;        // a mask value per channel
        case 5: r.mask_kind = 3, r.d = 5, r.w = 11, r.h = 9; break;                // certainty weights, a volume
        case 6: r.cval = kNaN, r.c = 2; break;                                      // nothing outside
        case 7: r.type = ElementType::f32, r.h = 1, r.w = 40; break;                // a line
      }
      if (variant == 6 && border != Border::constant) continue;
      check(r, rng, std::string(to_string(border)) + " variant " + std::to_string(variant));
      ++checked;
    }
  EXPECT_GT(checked, 35);
}

TEST(MissingData, AlphaWeightsColourAndBlursAlphaPlainly) {
  auto rng = test::rng_for_test();
  for (ElementType t : {ElementType::u8, ElementType::f32}) {
    auto src = test::make_buffer(t, 31, 19, 1, 4);
    test::fill_random(src.view, rng);
    // Alpha in [0, 1] (float alpha is taken as given there: fill_random's floats reach -0.5, whose
    // plain blur the core clamps at 0 and the reference does not - a flake for some seeds).
    std::uniform_real_distribution<double> opacity(0.0, 1.0);
    if (t == ElementType::f32)
      for (std::int64_t y = 0; y < 19; ++y)
        for (std::int64_t x = 0; x < 31; ++x) test::set(src.view, x, y, 0, 3, opacity(rng));
    for (std::int64_t y = 0; y < 19; ++y)
      for (std::int64_t x = 0; x < 12; ++x) test::set(src.view, x, y, 0, 3, 0.0);  // transparent
    BlurSpec spec = BlurSpec::isotropic_2d(2.0);
    spec.with_border(Border::reflect);
    MissingData m;
    m.alpha = true;
    const std::vector<double> want = reference(src.view, {}, spec, true, 0.0);
    auto out = test::make_buffer(t, 31, 19, 1, 4);
    blur(src.view, out.view, spec, m);
    for (std::int64_t y = 0; y < 19; ++y)
      for (std::int64_t x = 0; x < 31; ++x)
        for (int c = 0; c < 4; ++c) {
          const double e = want[static_cast<std::size_t>((y * 31 + x) * 4 + c)];
          const double g = test::get(out.view, x, y, 0, c);
          if (t == ElementType::u8) EXPECT_LE(std::abs(g - e), 0.51 + 1e-3 * e) << x << "," << y << "," << c;
          else EXPECT_NEAR(g, e, 2e-5 * std::max(1.0, std::abs(e))) << x << "," << y << "," << c;
        }
  }
}

TEST(MissingData, NothingMissingIsThePlainBlurAndEverythingMissingIsEmpty) {
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f64, 29, 21, 1, 2);
  test::fill_random(src.view, rng);
  BlurSpec spec = BlurSpec::isotropic_2d(1.7);
  auto plain = test::make_buffer(ElementType::f64, 29, 21, 1, 2), omit = test::make_buffer(ElementType::f64, 29, 21, 1, 2);
  blur(src.view, plain.view, spec);
  MissingData m;
  m.omit_nan = true;
  blur(src.view, omit.view, spec, m);
  for (std::int64_t y = 0; y < 21; ++y)
    for (std::int64_t x = 0; x < 29; ++x)
      for (int c = 0; c < 2; ++c)
        EXPECT_NEAR(test::get(omit.view, x, y, 0, c), test::get(plain.view, x, y, 0, c), 1e-13);
  for (std::int64_t y = 0; y < 21; ++y)
    for (std::int64_t x = 0; x < 29; ++x)
      for (int c = 0; c < 2; ++c) test::set(src.view, x, y, 0, c, kNaN);
  blur(src.view, omit.view, spec, m);
  for (std::int64_t y = 0; y < 21; ++y)
    for (std::int64_t x = 0; x < 29; ++x) ASSERT_TRUE(std::isnan(test::get(omit.view, x, y, 0, 1)));
  // preserve_nan: NaN where the source had NaN, values elsewhere.
  test::fill_random(src.view, rng);
  test::set(src.view, 5, 5, 0, 0, kNaN);
  m.preserve_nan = true;
  blur(src.view, omit.view, spec, m);
  EXPECT_TRUE(std::isnan(test::get(omit.view, 5, 5, 0, 0)));
  EXPECT_FALSE(std::isnan(test::get(omit.view, 5, 5, 0, 1)));
  EXPECT_FALSE(std::isnan(test::get(omit.view, 6, 5, 0, 0)));
}

TEST(MissingData, RefusesBadRequestsWritingNothing) {
  std::vector<float> a(64, 1.0f), b(64, 7.0f);
  const View s = View::packed(a.data(), ElementType::f32, 8, 8), d = View::packed(b.data(), ElementType::f32, 8, 8);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  std::vector<float> weights(64, 0.5f);
  weights[9] = 1.5f;
  MissingData m;
  m.mask = View::packed(weights.data(), ElementType::f32, 8, 8);
  EXPECT_THROW(blur(s, d, spec, m), InvalidArgument);  // a weight outside [0, 1]
  weights[9] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(blur(s, d, spec, m), InvalidArgument);  // a NaN weight
  m.mask = View::packed(weights.data(), ElementType::f32, 4, 16);
  EXPECT_THROW(blur(s, d, spec, m), InvalidArgument);  // another shape
  std::vector<std::int32_t> ints(64);
  m.mask = View::packed(ints.data(), ElementType::i32, 8, 8);
  EXPECT_THROW(blur(s, d, spec, m), InvalidArgument);  // a mask type that says nothing
  std::vector<std::uint8_t> u(64), v(64);
  MissingData nan_only;
  nan_only.omit_nan = true;
  EXPECT_THROW(blur(View::packed(u.data(), ElementType::u8, 8, 8), View::packed(v.data(), ElementType::u8, 8, 8), spec, nan_only),
               InvalidArgument);  // integers have no NaN
  MissingData alpha;
  alpha.alpha = true;
  EXPECT_THROW(blur(s, d, spec, alpha), InvalidArgument);  // one channel: no alpha
  for (float x : b) EXPECT_EQ(x, 7.0f);
}

}  // namespace
}  // namespace fastblur
