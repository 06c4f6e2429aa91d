// fir against the double-precision reference: every type, border, channel count, awkward sizes,
// sigma from tiny to larger than the image, 2D and 3D, strided, flipped, in place and aliased,
// and on every SIMD target Highway compiled.
#include <gtest/gtest.h>

#include <cstring>
#include <hwy/targets.h>

#include "support/test_support.hpp"

namespace fastblur {
namespace {
using test::Buffer;
using test::make_buffer;

int taps_of(const BlurSpec& spec) {
  int taps = 1;
  for (int a = 0; a < 3; ++a) taps *= 2 * effective_radius(spec, a) + 1;
  return taps;
}

// Blurs a random image with fir and with the reference; returns the worst error/tolerance ratio.
double check_case(std::mt19937_64& rng, ElementType type, std::int64_t w, std::int64_t h, std::int64_t d,
                  int c, const BlurSpec& spec, int pad_px = 0, int pad_row = 0, bool flip = false,
                  std::string* where = nullptr) {
  Buffer src = make_buffer(type, w, h, d, c, pad_px, pad_row, flip);
  test::fill_random(src.view, rng);
  Buffer out = make_buffer(type, w, h, d, c, pad_px, pad_row, flip);
  blur(src.view, out.view, spec);
  Buffer exact = make_buffer(ElementType::f64, w, h, d, c);
  reference::separable_blur(src.view, exact.view, spec);
  return test::worst_ratio(out.view, exact.view, taps_of(spec), where, test::integer_bound_of(make_plan(spec, src.view)));
}

TEST(Fir, TwoDimensionalEveryTypeBorderChannelAndAwkwardSize) {
  auto rng = test::rng_for_test();
  struct Size { std::int64_t w, h; };
  const Size sizes[] = {{1, 1}, {1, 17}, {23, 1}, {7, 13}, {31, 29}, {64, 3}};
  const double sigmas[] = {0.3, 1.0, 2.5, 7.0, 40.0};
  std::uniform_real_distribution<double> cv(-1.0, 2.0);
  // FASTBLUR_TEST_SCALE=small: each (size, sigma) with a Latin square of types x borders, so every
  // (type, border, size) still runs, with one of the sigmas.
  for (int ti = 0; ti < static_cast<int>(test::all_types().size()); ++ti)
    for (int bi = 0; bi < static_cast<int>(test::all_borders().size()); ++bi)
      for (int si = 0; si < static_cast<int>(std::size(sizes)); ++si)
        for (int gi = 0; gi < static_cast<int>(std::size(sigmas)); ++gi)
          for (int c : {1, 2, 3, 4}) {
            if (!test::grid_cell(ti, bi, si * static_cast<int>(std::size(sigmas)) + gi)) continue;
            const ElementType type = test::all_types()[ti];
            const Border border = test::all_borders()[bi];
            const auto& sz = sizes[si];
            const double sigma = sigmas[gi];
            BlurSpec spec = BlurSpec::isotropic_2d(sigma).with_border(border);
            spec.cval = cv(rng) * test::type_scale(type);
            std::string where;
            const double r = check_case(rng, type, sz.w, sz.h, 1, c, spec, 0, 0, false, &where);
            ASSERT_LE(r, 1.0) << to_string(type) << " " << to_string(border) << " " << sz.w << "x" << sz.h
                              << " c" << c << " sigma " << sigma << " at " << where;
          }
}

TEST(Fir, ThreeDimensionalAnisotropic) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h, d; double sx, sy, sz; };
  const Case cases[] = {{1, 1, 1, 1, 1, 1},   {5, 1, 7, 1.5, 2.0, 0.8}, {7, 11, 13, 1.2, 0.0, 2.7},
                        {17, 3, 5, 0.5, 3.0, 1.0}, {6, 5, 4, 20, 20, 20}, {9, 8, 11, 0.0, 0.0, 1.7}};
  for (auto type : test::all_types())
    for (auto border : test::all_borders())
      for (const auto& k : cases)
        for (int c : {1, 2}) {
          BlurSpec spec;
          spec.sigma = {k.sx, k.sy, k.sz};
          spec.with_border(border);
          spec.cval = 0.25 * test::type_scale(type);
          std::string where;
          const double r = check_case(rng, type, k.w, k.h, k.d, c, spec, 0, 0, false, &where);
          ASSERT_LE(r, 1.0) << to_string(type) << " " << to_string(border) << " " << k.w << "x" << k.h << "x"
                            << k.d << " at " << where;
        }
}

TEST(Fir, PerAxisBordersTruncateAndExplicitRadius) {
  auto rng = test::rng_for_test();
  for (int trial = 0; trial < 40; ++trial) {
    std::uniform_int_distribution<int> bi(0, 4), ri(0, 9), si(1, 40);
    std::uniform_real_distribution<double> su(0.0, 6.0), tu(0.5, 5.0);
    BlurSpec spec;
    for (int a = 0; a < 3; ++a) {
      spec.sigma[a] = su(rng);
      spec.border[a] = test::all_borders()[bi(rng)];
      if (ri(rng) < 3) spec.radius[a] = ri(rng);
    }
    spec.truncate = tu(rng);
    spec.cval = 0.5;
    const auto type = test::all_types()[trial % 5];
    std::string where;
    const double r = check_case(rng, type, si(rng), si(rng), 1 + si(rng) / 8, 1 + trial % 4, spec, 0, 0, false, &where);
    ASSERT_LE(r, 1.0) << "trial " << trial << " " << to_string(type) << " at " << where;
  }
}

TEST(Fir, StridedAndFlippedViews) {
  auto rng = test::rng_for_test();
  for (auto type : test::all_types())
    for (bool flip : {false, true}) {
      BlurSpec spec;
      spec.sigma = {1.7, 2.2, 1.1};
      spec.with_border(Border::mirror);
      std::string where;
      const double r = check_case(rng, type, 19, 11, 3, 3, spec, 5, 7, flip, &where);
      ASSERT_LE(r, 1.0) << to_string(type) << " flip " << flip << " at " << where;
    }
}

TEST(Fir, MixedInputAndOutputTypes) {
  auto rng = test::rng_for_test();
  for (auto in : test::all_types())
    for (auto out : test::all_types()) {
      Buffer src = make_buffer(in, 21, 17, 1, 3);
      test::fill_random(src.view, rng);
      Buffer dst = make_buffer(out, 21, 17, 1, 3);
      Buffer exact = make_buffer(ElementType::f64, 21, 17, 1, 3);
      const BlurSpec spec = BlurSpec::isotropic_2d(1.8);
      blur(src.view, dst.view, spec);
      reference::separable_blur(src.view, exact.view, spec);
      const double bound = test::integer_bound_of(make_plan(spec, src.view, out, Backend::cpu));
      // The tolerance of the output type, with the accumulation budget of the input's scale.
      double worst = 0.0;
      for (std::int64_t y = 0; y < 17; ++y)
        for (std::int64_t x = 0; x < 21; ++x)
          for (int c = 0; c < 3; ++c) {
            const double e = test::get(exact.view, x, y, 0, c);
            const double expected = std::clamp(e, is_integer(out) ? 0.0 : -1e30, is_integer(out) ? test::type_scale(out) : 1e30);
            const double tol = test::tolerance(out, e, 100, bound) + 2e-6 * test::type_scale(in);
            worst = std::max(worst, std::abs(test::get(dst.view, x, y, 0, c) - expected) / tol);
          }
      ASSERT_LE(worst, 1.0) << to_string(in) << " -> " << to_string(out);
    }
}

TEST(Fir, SigmaFarLargerThanTheImage) {
  auto rng = test::rng_for_test();
  for (auto border : test::all_borders()) {
    BlurSpec spec = BlurSpec::isotropic_2d(500.0).with_border(border);
    spec.cval = 0.3;
    std::string where;
    const double r = check_case(rng, ElementType::f32, 13, 5, 1, 2, spec, 0, 0, false, &where);
    ASSERT_LE(r, 1.0) << to_string(border) << " at " << where;
  }
}

// A packed float dst is fir's working image: the y and z passes run in place through rings of rows.
// They must give the bits of the two-image passes (taken for a dst with a gap between pixels), for
// every border - wrap reads rows the ring has passed - with radii past the image, several column
// strips, in place and not.
// 8-bit stacks of images (a volume whose z axis is not filtered) on the fixed-point driver: every
// plane blurred as the image it is, in place too. The driver once wrote only the first plane
// (fuzz_blur's regression inplace-u8-u16-fixed-point; the Python module folds a batch axis so).
TEST(Fir, FixedPointBlursEveryPlaneOfAStack) {
  auto rng = test::rng_for_test();
  for (auto border : test::all_borders())
    for (std::int64_t d : {2, 5}) {
      BlurSpec spec;
      spec.sigma = {2.2, 1.4, 0.0};
      spec.with_border(border);
      spec.border[2] = Border::wrap;
      spec.cval = 40.0;
      Buffer src = make_buffer(ElementType::u8, 37, 23, d, 3);
      test::fill_random(src.view, rng);
      ASSERT_EQ(make_plan(spec, src.view).schedule.driver, CpuDriver::fixed_point);
      Buffer out = make_buffer(ElementType::u8, 37, 23, d, 3);
      blur(src.view, out.view, spec);
      Buffer in_place = src;
      in_place.view.data = in_place.bytes.data();
      blur(in_place.view, in_place.view, spec);
      EXPECT_EQ(out.bytes, in_place.bytes) << to_string(border) << " depth " << d;
      for (std::int64_t z = 0; z < d; ++z) {
        View plane = src.view, plane_out = out.view;
        plane.data = src.view.pixel(0, 0, z);
        plane_out.data = out.view.pixel(0, 0, z);
        plane.extent[2] = plane_out.extent[2] = 1;
        Buffer alone = make_buffer(ElementType::u8, 37, 23, 1, 3);
        blur(plane, alone.view, spec);
        EXPECT_EQ(std::memcmp(alone.view.data, plane_out.data, alone.bytes.size()), 0)
            << to_string(border) << " plane " << z << " of " << d;
      }
    }
}

TEST(Fir, InPlaceRowPassesGiveTheBitsOfTheTwoImagePasses) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h, d; int c; double sx, sy, sz; };
  const Case cases[] = {{301, 9, 7, 4, 1.5, 2.0, 3.0}, {40, 5, 6, 1, 0.0, 3.5, 6.0}, {97, 33, 1, 3, 2.0, 30.0, 0.0},
                        {16, 70, 3, 2, 1.0, 11.0, 0.7}, {5, 4, 3, 1, 9.0, 9.0, 9.0}};
  for (auto border : test::all_borders())
    for (const auto& k : cases)
      for (auto type : {ElementType::f32, ElementType::f64}) {
        BlurSpec spec;
        spec.sigma = {k.sx, k.sy, k.sz};
        spec.with_border(border);
        spec.cval = 0.375;
        spec.algorithm = Algorithm::fir;
        Buffer src = make_buffer(type, k.w, k.h, k.d, k.c);
        test::fill_random(src.view, rng);
        Buffer packed = make_buffer(type, k.w, k.h, k.d, k.c);
        Buffer gapped = make_buffer(type, k.w, k.h, k.d, k.c, 8);
        Buffer in_place = src;
        in_place.view.data = in_place.bytes.data();
        blur(src.view, packed.view, spec);
        blur(src.view, gapped.view, spec);
        blur(in_place.view, in_place.view, spec);
        const std::size_t px = element_size(type) * static_cast<std::size_t>(k.c);
        for (std::int64_t z = 0; z < k.d; ++z)
          for (std::int64_t y = 0; y < k.h; ++y)
            for (std::int64_t x = 0; x < k.w; ++x) {
              ASSERT_EQ(std::memcmp(packed.view.pixel(x, y, z), gapped.view.pixel(x, y, z), px), 0)
                  << to_string(type) << " " << to_string(border) << " " << k.w << "x" << k.h << "x" << k.d << " at " << x
                  << "," << y << "," << z;
              ASSERT_EQ(std::memcmp(packed.view.pixel(x, y, z), in_place.view.pixel(x, y, z), px), 0)
                  << "in place " << to_string(type) << " " << to_string(border) << " at " << x << "," << y << "," << z;
            }
      }
}

TEST(Fir, EverySimdTargetAgreesWithTheReference) {
  auto rng = test::rng_for_test();
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (auto type : test::all_types())
      for (int c : {1, 3, 4}) {
        BlurSpec spec;
        spec.sigma = {2.3, 1.4, 0.0};
        spec.with_border(test::all_borders()[static_cast<std::size_t>(c) % 5]);
        std::string where;
        const double r = check_case(rng, type, 67, 29, 1, c, spec, 0, 0, false, &where);
        EXPECT_LE(r, 1.0) << hwy::TargetName(target) << " " << to_string(type) << " at " << where;
      }
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST(Fir, RejectsBadArguments) {
  Buffer a = make_buffer(ElementType::f32, 8, 8, 1, 1);
  Buffer b = make_buffer(ElementType::f32, 8, 8, 1, 1);
  BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  for (double bad : {-1.0, std::nan(""), double(INFINITY)}) {
    BlurSpec s = spec;
    s.sigma[1] = bad;
    EXPECT_THROW(blur(a.view, b.view, s), InvalidArgument) << bad;
  }
  BlurSpec s = spec;
  s.radius[0] = -2;
  EXPECT_THROW(blur(a.view, b.view, s), InvalidArgument);
  s = spec;
  s.truncate = std::nan("");
  EXPECT_THROW(blur(a.view, b.view, s), InvalidArgument);
  s = spec;
  s.sigma[0] = 1e12;  // radius beyond kMaxRadius
  EXPECT_THROW(blur(a.view, b.view, s), InvalidArgument);
  s = spec;
  s.threads = -1;
  EXPECT_THROW(blur(a.view, b.view, s), InvalidArgument);
  Buffer c = make_buffer(ElementType::f32, 8, 7, 1, 1);
  EXPECT_THROW(blur(a.view, c.view, spec), InvalidArgument);  // shapes differ
  View bad = a.view;
  bad.channels = 5;
  EXPECT_THROW(blur(bad, bad, spec), InvalidArgument);
  bad = a.view;
  bad.data = nullptr;
  EXPECT_THROW(blur(bad, b.view, spec), InvalidArgument);
  bad = b.view;
  bad.stride[1] = 4;  // rows overlap pixels
  EXPECT_THROW(blur(a.view, bad, spec), InvalidArgument);
  bad = a.view;
  bad.extent[0] = 0;
  EXPECT_THROW(blur(bad, bad, spec), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
