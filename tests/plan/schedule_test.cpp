// Plans are resolved values whose schedule a caller may change: every schedule an algorithm has gives
// the same result (bit-identical where the arithmetic is the same, to float rounding between the float
// lanes and the double lines), and the schedule make_plan chose is the one that runs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>

#include "algorithms/descriptor.hpp"
#include "fastblur/serialize.hpp"
#include "support/convolve_reference.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

test::Buffer blurred(const View& src, const Plan& plan, ElementType out_type) {
  test::Buffer out = test::make_buffer(out_type, src.width(), src.height(), src.depth(), src.channels);
  blur(src, out.view, plan);
  return out;
}

double max_difference(const View& a, const View& b) {
  double worst = 0.0;
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      for (std::int64_t x = 0; x < a.width(); ++x)
        for (int c = 0; c < a.channels; ++c)
          worst = std::max(worst, std::abs(test::get(a, x, y, z, c) - test::get(b, x, y, z, c)));
  return worst;
}

TEST(Schedule, FirFusedRowsAndAxisPassesAndAnyStripAreBitIdentical) {
  auto rng = test::rng_for_test();
  for (ElementType type : {ElementType::u8, ElementType::f32, ElementType::f64})
    for (Border border : test::all_borders()) {
      test::Buffer src = test::make_buffer(type, 97, 61, 1, 3);
      test::fill_random(src.view, rng);
      BlurSpec spec;
      spec.sigma = {1.9, 2.6, 0.0};
      spec.with_border(border);
      spec.cval = 0.4 * test::type_scale(type);
      Plan chosen = make_plan(spec, src.view);
      // radius 8 and 10: fused (kFusedMaxRadius); 8-bit images: fixed point; float64: SciPy's order
      // (the faster double driver, rounding nothing into float64); the float schedules forced
      ASSERT_EQ(chosen.schedule.driver, type == ElementType::u8    ? CpuDriver::fixed_point
                                        : type == ElementType::f64 ? CpuDriver::scipy_order
                                                                   : CpuDriver::fused_rows);
      chosen.schedule.driver = CpuDriver::fused_rows;
      const test::Buffer fused = blurred(src.view, chosen, type);
      Plan passes = chosen;
      passes.schedule.driver = CpuDriver::axis_passes;
      EXPECT_EQ(blurred(src.view, passes, type).bytes, fused.bytes) << to_string(type) << " " << to_string(border);
      passes.schedule.strip = {0, 3, 3};  // a pixel per strip: many strips, the same sums
      EXPECT_EQ(blurred(src.view, passes, type).bytes, fused.bytes) << to_string(type) << " " << to_string(border);
    }
}

TEST(Schedule, ShortXRowsAcrossRowsEqualARowAtATime) {
  // Schedule::x_across_rows (x rows of fewer than a few vectors' values: an RGB array's channel axis
  // given one sigma) changes where each output's operations run, not the operations: the same bits
  // as a row at a time, for fir's axis passes and SciPy's order, every border, 2D and 3D, radii
  // beyond the axis and within it, packed and padded views, and in place.
  auto rng = test::rng_for_test();
  int fused = 0;
  for (Rounding rounding : {Rounding::nearest, Rounding::scipy})
    for (ElementType type : {ElementType::u8, ElementType::i16, ElementType::f32, ElementType::f64})
      for (Border border : test::all_borders())
        for (const auto& [w, c, d, sigma] : {std::tuple{3, 1, 7, 2.3}, std::tuple{2, 2, 1, 0.8}, std::tuple{5, 1, 4, 1.1},
                                                   std::tuple{2, 1, 5, 1.3}, std::tuple{4, 1, 3, 1.6}}) {
          const std::string what = std::string(to_string(rounding)) + " " + std::string(to_string(type)) + " " +
                                   std::string(to_string(border)) + " " + std::to_string(w) + "x" + std::to_string(c);
          for (int pad : {0, 1}) {
            test::Buffer src = test::make_buffer(type, w, 37, d, c, pad * static_cast<int>(element_size(type)));
            test::fill_random(src.view, rng);
            BlurSpec spec;
            spec.sigma = {sigma, 1.7, d > 1 ? (w == 5 ? 1.9 : 2.9) : 0.0};  // z radius 8 (fused) or 12
            spec.rounding = rounding;
            spec.with_border(border);
            spec.cval = 0.3 * test::type_scale(type);
            const Plan chosen = make_plan(spec, src.view);
            if (chosen.schedule.driver == CpuDriver::fixed_point) {  // 8-bit images keep fixed point's bits
              EXPECT_FALSE(chosen.schedule.x_across_rows) << what;
              continue;
            }
            ASSERT_TRUE(chosen.schedule.x_across_rows) << what;
            EXPECT_NE(describe(chosen).find("filtered across rows"), std::string::npos) << what;
            const test::Buffer across = blurred(src.view, chosen, type);
            Plan by_row = chosen;
            by_row.schedule.x_across_rows = false;
            by_row.schedule.strip = {0, 64, 64};
            EXPECT_EQ(blurred(src.view, by_row, type).bytes, across.bytes) << what << " pad " << pad;
            // fir's y and z through the ring of rows of the image of x's pixels (Schedule::fused_axes,
            // z radius up to kFusedMaxRadius): the passes' bits.
            if (rounding == Rounding::nearest && chosen.schedule.driver == CpuDriver::axis_passes) {
              fused += chosen.schedule.fused_axes;
              Plan passes = chosen;
              passes.schedule.fused_axes = false;
              EXPECT_EQ(blurred(src.view, passes, type).bytes, across.bytes) << what << " fused, pad " << pad;
            }
            test::Buffer in_place = src;
            in_place.view.data = in_place.bytes.data() + (static_cast<std::byte*>(src.view.data) - src.bytes.data());
            blur(in_place.view, in_place.view, chosen);
            EXPECT_EQ(max_difference(in_place.view, across.view), 0.0) << what << " in place, pad " << pad;
          }
        }
  EXPECT_GT(fused, 20);
}

TEST(Schedule, FixedPointIsWithinOneOfTheRoundedResultAndTheSameEverywhere) {
  // fir's 8-bit schedule against the correctly rounded float64 result: every output within 1, the
  // fraction that differs reported; integer arithmetic, so threads, views and in place agree bit
  // for bit. Radii up to kFixedMaxRadius, every border, 1 to 4 channels.
  auto rng = test::rng_for_test();
  std::size_t outputs = 0, off_by_one = 0;
  for (double sigma : {0.6, 1.0, 2.5, 5.8})
    for (Border border : test::all_borders())
      for (int c : {1, 3, 4}) {
        test::Buffer src = test::make_buffer(ElementType::u8, 83, 47, 1, c);
        test::fill_random(src.view, rng);
        BlurSpec spec = BlurSpec::isotropic_2d(sigma).with_border(border);
        spec.cval = 77.3;
        const Plan plan = make_plan(spec, src.view);
        ASSERT_EQ(plan.schedule.driver, CpuDriver::fixed_point) << sigma;
        const test::Buffer out = blurred(src.view, plan, ElementType::u8);
        test::Buffer exact = test::make_buffer(ElementType::f64, 83, 47, 1, c);
        reference::separable_blur(src.view, exact.view, spec);
        for (std::int64_t y = 0; y < 47; ++y)
          for (std::int64_t x = 0; x < 83; ++x)
            for (int ch = 0; ch < c; ++ch) {
              const double want = std::nearbyint(std::clamp(test::get(exact.view, x, y, 0, ch), 0.0, 255.0));
              const double got = test::get(out.view, x, y, 0, ch);
              ASSERT_LE(std::abs(got - want), 1.0) << sigma << " " << to_string(border) << " (" << x << "," << y << ")";
              ++outputs;
              off_by_one += got != want;
            }
        Plan one = plan;
        one.schedule.threads = 1;
        EXPECT_EQ(blurred(src.view, one, ElementType::u8).bytes, out.bytes);
        test::Buffer in_place = src;
        in_place.view.data = in_place.bytes.data();
        blur(in_place.view, in_place.view, spec);
        EXPECT_EQ(in_place.bytes, out.bytes) << "in place";
        test::Buffer strided = test::make_buffer(ElementType::u8, 83, 47, 1, c, 2, 9, true);
        test::Buffer strided_out = test::make_buffer(ElementType::u8, 83, 47, 1, c, 1, 3, true);
        for (std::int64_t y = 0; y < 47; ++y)
          for (std::int64_t x = 0; x < 83; ++x)
            for (int ch = 0; ch < c; ++ch) test::set(strided.view, x, y, 0, ch, test::get(src.view, x, y, 0, ch));
        blur(strided.view, strided_out.view, spec);
        EXPECT_EQ(max_difference(strided_out.view, out.view), 0.0) << "strided and flipped";
      }
  const double fraction = static_cast<double>(off_by_one) / static_cast<double>(outputs);
  std::printf("[ measured ] fixed point: %zu of %zu outputs (%.3f%%) differ from the rounded result by 1\n", off_by_one,
              outputs, 100.0 * fraction);
  EXPECT_LT(fraction, 0.05);
  // Beyond its error budget the schedule is not chosen: radius 25 runs in float.
  test::Buffer src = test::make_buffer(ElementType::u8, 64, 64, 1, 1);
  BlurSpec wide = BlurSpec::isotropic_2d(6.2);
  EXPECT_NE(make_plan(wide, src.view).schedule.driver, CpuDriver::fixed_point);
  EXPECT_NE(describe(make_plan(BlurSpec::isotropic_2d(2.0), src.view)).find("fixed-point"), std::string::npos);
}

TEST(Schedule, LanesAndLinesAgreeToFloatRounding) {
  auto rng = test::rng_for_test();
  struct Case {
    Algorithm algorithm;
    double sigma;
  };
  for (const Case c : {Case{Algorithm::box, 3.3}, Case{Algorithm::kawase, 4.1}, Case{Algorithm::sliding_dct, 5.2},
                       Case{Algorithm::iir, 6.7}})
    for (Border border : test::all_borders()) {
      test::Buffer src = test::make_buffer(ElementType::f32, 45, 38, 5, 2);
      test::fill_random(src.view, rng);
      BlurSpec spec;
      spec.sigma = {c.sigma, 0.7 * c.sigma, 0.5 * c.sigma};
      spec.with_border(border);
      spec.cval = 0.25;
      spec.algorithm = c.algorithm;
      const Plan lanes = make_plan(spec, src.view);
      ASSERT_EQ(lanes.schedule.driver, CpuDriver::lanes) << to_string(c.algorithm);
      Plan lines = lanes;
      lines.schedule.driver = CpuDriver::lines;
      const test::Buffer a = blurred(src.view, lanes, ElementType::f64), b = blurred(src.view, lines, ElementType::f64);
      // Float intermediates between the axes and passes against double ones: a few float roundings
      // of the data (in [-0.5, 1.5]).
      EXPECT_LE(max_difference(a.view, b.view), 2e-6) << to_string(c.algorithm) << " " << to_string(border);
      // And the double lines are the convolution with the plan's own equivalent kernels (the twins).
      if (c.algorithm == Algorithm::box) {
        std::array<std::vector<double>, 3> k;
        for (int ax = 0; ax < 3; ++ax) k[ax] = kernel::box_kernel(kernel::extended_box_passes(spec.sigma[ax], 3));
        test::Buffer exact = test::make_buffer(ElementType::f64, 45, 38, 5, 2);
        test::convolve_reference(src.view, exact.view, k, spec);
        EXPECT_LE(max_difference(b.view, exact.view), 1e-6) << to_string(border);
      }
    }
}

TEST(Schedule, Float64DataUsesTheFloatLanesOnlyWhereATolerancePermits) {
  auto rng = test::rng_for_test();
  test::Buffer src = test::make_buffer(ElementType::f64, 53, 41, 1, 1);
  test::fill_random(src.view, rng);
  for (Algorithm a : {Algorithm::box, Algorithm::kawase, Algorithm::sliding_dct, Algorithm::iir}) {
    BlurSpec spec = BlurSpec::isotropic_2d(4.5);
    spec.algorithm = a;
    const Plan exact = make_plan(spec, src.view);  // tolerance 0: float64 data is computed in double
    EXPECT_EQ(exact.schedule.driver, CpuDriver::lines) << to_string(a);
    EXPECT_EQ(exact.schedule.intermediate, ElementType::f64) << to_string(a);
    spec.tolerance = algo::kFloatLanesTolerance;
    const Plan fast = make_plan(spec, src.view);
    EXPECT_EQ(fast.schedule.driver, CpuDriver::lanes) << to_string(a);
    EXPECT_EQ(fast.schedule.intermediate, ElementType::f32) << to_string(a);
    EXPECT_NE(describe(fast).find("lanes"), std::string::npos);
    // The same filter: the lanes differ from the double lines by float rounding only.
    const test::Buffer x = blurred(src.view, exact, ElementType::f64), y = blurred(src.view, fast, ElementType::f64);
    EXPECT_LE(max_difference(x.view, y.view), 2e-6) << to_string(a);
    EXPECT_GT(max_difference(x.view, y.view), 0.0) << to_string(a) << ": the lanes did not run";
  }
  BlurSpec below = BlurSpec::isotropic_2d(4.5);
  below.algorithm = Algorithm::box;
  below.tolerance = algo::kFloatLanesTolerance / 2;
  EXPECT_EQ(make_plan(below, src.view).schedule.driver, CpuDriver::lines);
}

TEST(Schedule, ThreadsOfAPlanAreThoseThatRunAndTinyWorkRunsOnOneThread) {
  std::vector<float> tiny(8 * 8), large(512 * 512 * 4);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  EXPECT_EQ(make_plan(spec, View::packed(tiny.data(), ElementType::f32, 8, 8)).schedule.threads, 1);
  spec.threads = 2;
  EXPECT_EQ(make_plan(spec, View::packed(large.data(), ElementType::f32, 512, 512, 1, 4)).schedule.threads, 2);
  spec.threads = 100000;  // more than the processors: as many as there are
  EXPECT_LE(make_plan(spec, View::packed(large.data(), ElementType::f32, 512, 512, 1, 4)).schedule.threads, 4096);
}

TEST(Schedule, APlanRunsOnlyOnItsShapeAndBackend) {
  std::vector<float> a(16 * 16), b(16 * 12);
  const View va = View::packed(a.data(), ElementType::f32, 16, 16), vb = View::packed(b.data(), ElementType::f32, 16, 12);
  const Plan plan = make_plan(BlurSpec::isotropic_2d(1.0), va);
  EXPECT_NO_THROW(blur(va, va, plan));
  EXPECT_THROW(blur(vb, vb, plan), InvalidArgument);
  const Plan gpu = make_plan(BlurSpec::isotropic_2d(1.0), va, Backend::vulkan);
  EXPECT_THROW(blur(va, va, gpu), Unsupported);
}

TEST(Schedule, DescribeShowsTheSchedule) {
  std::vector<float> a(300 * 200 * 4);
  BlurSpec spec = BlurSpec::isotropic_2d(12.0);
  spec.algorithm = Algorithm::fir;  // at tolerance 0 the planner would take sliding-dct fitted to fir's kernel
  const std::string text = describe(make_plan(spec, View::packed(a.data(), ElementType::f32, 300, 200, 1, 4)));
  EXPECT_NE(text.find("schedule: cpu, driver axis-passes"), std::string::npos) << text;
  EXPECT_NE(text.find("y strips of"), std::string::npos) << text;
  EXPECT_NE(text.find("support 48"), std::string::npos) << text;
  spec.algorithm = Algorithm::box;
  const Plan box_plan = make_plan(spec, View::packed(a.data(), ElementType::f32, 300, 200, 1, 4), Backend::vulkan);
  const std::string box = describe(box_plan);
  EXPECT_NE(box.find("variant running-sums"), std::string::npos) << box;  // named once, by its passes' shaders
  EXPECT_NE(box.find("x box_chunk"), std::string::npos) << box;
  EXPECT_NE(box.find("y box_chunk"), std::string::npos) << box;
  EXPECT_NE(plan_json(box_plan).find("\"gpu_variant\":\"running-sums\""), std::string::npos) << plan_json(box_plan);
}

}  // namespace
}  // namespace fastblur
