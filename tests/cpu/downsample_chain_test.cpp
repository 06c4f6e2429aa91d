// downsample's 2D chain driver (cpu/downsample_chain.cpp) against its line driver: the same
// function, so the same values up to float rounding, for every border, awkward sizes, 1-4
// channels, every factor and a different one per axis, in place and not, every element type.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cmath>
#include <cstdio>

#include "support/test_support.hpp"

namespace fastblur {
namespace {

BlurSpec downsample_spec(double sx, double sy, Border border, std::int64_t factor) {
  BlurSpec spec;
  spec.algorithm = Algorithm::downsample;
  spec.sigma = {sx, sy, 0.0};
  spec.with_border(border);
  spec.cval = 0.25;
  if (factor) set_parameter(spec, "downsample_factor", factor);
  return spec;
}

// The line driver's result in double: the same data as float64 (which the plan runs on lines).
test::Buffer line_driver_result(const View& src, const BlurSpec& spec) {
  test::Buffer in = test::make_buffer(ElementType::f64, src.width(), src.height(), 1, src.channels);
  test::Buffer out = test::make_buffer(ElementType::f64, src.width(), src.height(), 1, src.channels);
  for (std::int64_t y = 0; y < src.height(); ++y)
    for (std::int64_t x = 0; x < src.width(); ++x)
      for (int c = 0; c < src.channels; ++c) test::set(in.view, x, y, 0, c, test::get(src, x, y, 0, c));
  EXPECT_EQ(make_plan(spec, in.view).schedule.driver, CpuDriver::lines);
  blur(in.view, out.view, spec);
  return out;
}

double max_difference(const View& a, const View& b) {
  double worst = 0.0;
  for (std::int64_t y = 0; y < a.height(); ++y)
    for (std::int64_t x = 0; x < a.width(); ++x)
      for (int c = 0; c < a.channels; ++c) worst = std::max(worst, std::abs(test::get(a, x, y, 0, c) - test::get(b, x, y, 0, c)));
  return worst;
}

TEST(DownsampleChain, EqualsTheLineDriverForEveryBorderSizeAndFactor) {
  auto rng = test::rng_for_test();
  struct Case {
    std::int64_t w, h;
    int channels;
    double sx, sy;
    std::int64_t factor;  // 0: each axis's own (a different one per axis where the sigmas differ)
  };
  for (const Case& k : {Case{1, 1, 1, 2.0, 2.0, 2}, Case{2, 3, 4, 1.5, 3.0, 2}, Case{17, 9, 3, 2.5, 2.5, 2},
                        Case{64, 33, 4, 5.8, 5.8, 0}, Case{5, 70, 1, 3.0, 7.0, 4}, Case{96, 41, 2, 4.0, 25.0, 0},
                        Case{131, 7, 4, 30.0, 2.0, 0}, Case{83, 150, 4, 9.0, 40.0, 8}, Case{300, 13, 3, 50.0, 6.0, 8}})
    for (Border border : test::all_borders()) {
      test::Buffer src = test::make_buffer(ElementType::f32, k.w, k.h, 1, k.channels);
      test::fill_random(src.view, rng);
      const BlurSpec spec = downsample_spec(k.sx, k.sy, border, k.factor);
      ASSERT_EQ(make_plan(spec, src.view).schedule.driver, CpuDriver::chain);
      test::Buffer got = test::make_buffer(ElementType::f32, k.w, k.h, 1, k.channels);
      blur(src.view, got.view, spec);
      const test::Buffer want = line_driver_result(src.view, spec);
      // Values in [-0.5, 1.5]: a float chain of a few hundred multiply-adds rounds within 1e-6.
      EXPECT_LE(max_difference(got.view, want.view), 2e-6)
          << k.w << "x" << k.h << "x" << k.channels << " sigma " << k.sx << "," << k.sy << " factor " << k.factor
          << " border " << to_string(border);
      // In place: the source is read whole before the destination is written.
      blur(src.view, src.view, spec);
      EXPECT_EQ(max_difference(src.view, got.view), 0.0) << "in place, " << k.w << "x" << k.h;
    }
}

TEST(DownsampleChain, EveryElementTypeAndStridedViews) {
  auto rng = test::rng_for_test();
  for (ElementType t : test::all_types()) {
    // A padded pixel and row and a flipped y: read_row and write_row's strided paths.
    test::Buffer src = test::make_buffer(t, 37, 23, 1, 3, 2 * static_cast<int>(element_size(t)), 8, true);
    test::fill_random(src.view, rng);
    const BlurSpec spec = downsample_spec(3.5, 4.5, Border::reflect, 0);
    const Plan plan = make_plan(spec, src.view);
    const bool chain = plan.schedule.driver == CpuDriver::chain;
    EXPECT_EQ(chain, !needs_double(t)) << to_string(t);  // float64 and wide integers stay on lines
    test::Buffer got = test::make_buffer(t, 37, 23, 1, 3);
    blur(src.view, got.view, spec);
    const test::Buffer want = line_driver_result(src.view, spec);
    const double scale = test::type_scale(t);
    // Integer outputs are the rounded value, within 0.5 (and one more where float lands on a tie).
    const double bound = is_integer(t) ? 1.0 : (t == ElementType::f16 ? 2e-3 * scale : 2e-6 * scale);
    EXPECT_LE(max_difference(got.view, want.view), bound) << to_string(t);
  }
}

TEST(DownsampleChain, ThePlanChoosesItFor2dFloatWorkAndStacksOnly) {
  float px[8 * 8 * 8] = {};
  const View image = View::packed(px, ElementType::f32, 8, 8, 1, 1);
  const View volume = View::packed(px, ElementType::f32, 8, 8, 8, 1);
  BlurSpec spec = downsample_spec(3.0, 3.0, Border::reflect, 2);
  EXPECT_EQ(make_plan(spec, image).schedule.driver, CpuDriver::chain);
  spec.sigma = {3.0, 3.0, 3.0};
  EXPECT_EQ(make_plan(spec, volume).schedule.driver, CpuDriver::lines);
  spec.sigma = {3.0, 3.0, 0.0};
  EXPECT_EQ(make_plan(spec, volume).schedule.driver, CpuDriver::chain);  // a stack: plane by plane
  spec.sigma = {3.0, 0.0, 0.0};
  EXPECT_EQ(make_plan(spec, image).schedule.driver, CpuDriver::lines);  // one axis: nothing to gain
}

// The reduced images and each worker's rows are kept by the calling thread from one blur to the
// next (as the lane driver's buffers, LaneLines.RepeatedBlursTouchNoFreshPages).
TEST(DownsampleChain, RepeatedBlursTouchNoFreshPages) {
  auto rng = test::rng_for_test();
  test::Buffer src = test::make_buffer(ElementType::f32, 2048, 1536, 1, 4);
  test::fill_random(src.view, rng);
  test::Buffer dst = test::make_buffer(ElementType::f32, 2048, 1536, 1, 4);
  mallopt(M_MMAP_THRESHOLD, 64 * 1024);  // every block of 64 KiB or more mapped afresh, as in Python
  struct Restore {
    ~Restore() { mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); }
  } restore;
  for (std::int64_t factor : {2, 4, 8}) {
    BlurSpec spec = downsample_spec(6.0, 6.0, Border::reflect, factor);
    spec.threads = 2;
    ASSERT_EQ(make_plan(spec, src.view).schedule.driver, CpuDriver::chain);
    blur(src.view, dst.view, spec);
    const long before = test::minor_faults();
    constexpr int kCalls = 5;
    for (int i = 0; i < kCalls; ++i) blur(src.view, dst.view, spec);
    const long per_call = (test::minor_faults() - before) / kCalls;
    // Allocated per call, the reduced image, its x-blurred copy and the rows faulted in 3348 pages
    // a call at factor 2 and 962 at factor 4 (measured by allocating them afresh); kept, none in a
    // release build (a sanitizer's allocator adds the plan's small allocations).
    EXPECT_LT(per_call, 300) << "factor " << factor;
  }
}

}  // namespace
}  // namespace fastblur
