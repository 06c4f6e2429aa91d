// downsample's 2D chain driver (cpu/downsample_chain.cpp) against its line driver: the same
// function, so the same values up to float rounding, for every border, awkward sizes, 1-4
// channels, every factor and a different one per axis, in place and not, every element type.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/cache_size.hpp"

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

// An image shape, its sigmas and the factor (0: each axis's own, a different one per axis where the
// sigmas differ).
struct Case {
  std::int64_t w, h;
  int channels;
  double sx, sy;
  std::int64_t factor;
};

TEST(DownsampleChain, EqualsTheLineDriverForEveryBorderSizeAndFactor) {
  auto rng = test::rng_for_test();
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

// Packed 8- and 16-bit sources are converted as the tent reads them, and packed destinations as the
// output lerp writes them; sources and destinations with padded pixels go through float rows
// (read_row, write_row). The same values every way, for every factor, a border whose rows outside
// are cval's (the tent falls back to float rows there), and in place (stashed rows, the same).
TEST(DownsampleChain, RowsConvertedWhereTheyLieEqualTheConvertedFloatRows) {
  auto rng = test::rng_for_test();
  for (ElementType t : {ElementType::u8, ElementType::u16, ElementType::f16})
    for (Border border : {Border::mirror, Border::constant})
      for (std::int64_t factor : {2, 4, 8}) {
        SCOPED_TRACE(std::string(to_string(t)) + " " + std::string(to_string(border)) + " factor " + std::to_string(factor));
        const int pad = 2 * static_cast<int>(element_size(t));
        test::Buffer src = test::make_buffer(t, 301, 57, 1, 3), src_padded = test::make_buffer(t, 301, 57, 1, 3, pad);
        test::fill_random(src.view, rng);
        for (std::int64_t y = 0; y < 57; ++y)
          for (std::int64_t x = 0; x < 301; ++x)
            for (int c = 0; c < 3; ++c) test::set(src_padded.view, x, y, 0, c, test::get(src.view, x, y, 0, c));
        const BlurSpec spec = downsample_spec(19.0, 11.0, border, factor);
        ASSERT_EQ(make_plan(spec, src.view).schedule.driver, CpuDriver::chain);
        test::Buffer want = test::make_buffer(t, 301, 57, 1, 3, pad);  // float rows both ways
        blur(src_padded.view, want.view, spec);
        for (const View* in : {&src.view, &src_padded.view}) {
          test::Buffer packed = test::make_buffer(t, 301, 57, 1, 3), padded = test::make_buffer(t, 301, 57, 1, 3, pad);
          blur(*in, packed.view, spec);
          blur(*in, padded.view, spec);
          EXPECT_EQ(max_difference(packed.view, want.view), 0.0) << (in == &src.view ? "packed" : "padded") << " source";
          EXPECT_EQ(max_difference(padded.view, want.view), 0.0) << (in == &src.view ? "packed" : "padded") << " source";
        }
        // In place, both conversions where the rows lie (and the stash where workers meet).
        BlurSpec two = spec;
        two.threads = 2;
        blur(src.view, src.view, two);
        EXPECT_EQ(max_difference(src.view, want.view), 0.0) << "in place";
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

// Streaming stores (Schedule::stream_destination) change where the output goes, not its value: the
// same bits with and without, at every placement of the rows in their cache lines (the vectors
// start where a row is aligned), every factor, 1-4 channels, in place and not, with two workers.
TEST(DownsampleChain, AStreamedDestinationGetsTheSameBits) {
  auto rng = test::rng_for_test();
  for (const Case& k : {Case{97, 61, 4, 6.0, 9.0, 2}, Case{130, 45, 3, 20.0, 11.0, 4}, Case{301, 77, 1, 40.0, 40.0, 8},
                        Case{9, 300, 2, 5.0, 30.0, 0}})
    for (Border border : {Border::reflect, Border::constant, Border::wrap})
      for (std::size_t shift : {0, 1, 3}) {
        SCOPED_TRACE(std::to_string(k.w) + "x" + std::to_string(k.h) + "x" + std::to_string(k.channels) + " " +
                     std::string(to_string(border)) + ", destination " + std::to_string(shift) + " floats past a line");
        test::Buffer src = test::make_buffer(ElementType::f32, k.w, k.h, 1, k.channels);
        test::fill_random(src.view, rng);
        BlurSpec spec = downsample_spec(k.sx, k.sy, border, k.factor);
        spec.threads = 2;
        Plan plan = make_plan(spec, src.view);
        ASSERT_EQ(plan.schedule.driver, CpuDriver::chain);
        const std::size_t floats = static_cast<std::size_t>(k.w * k.h * k.channels);
        std::vector<float> cached(floats + 32), streamed(floats + 32, -7.0f);
        const auto at = [&](std::vector<float>& v) {
          float* p = v.data();
          while (reinterpret_cast<std::uintptr_t>(p) % 64 != 0) ++p;
          return View::packed(p + shift, ElementType::f32, k.w, k.h, 1, k.channels);
        };
        plan.schedule.stream_destination = false;
        blur(src.view, at(cached), plan);
        plan.schedule.stream_destination = true;
        blur(src.view, at(streamed), plan);
        const View a = at(cached), b = at(streamed);
        ASSERT_EQ(std::memcmp(a.data, b.data, floats * sizeof(float)), 0);
        // Nothing written past the image.
        const float* end = static_cast<const float*>(b.data) + floats;
        for (const float* g = end; g < streamed.data() + streamed.size(); ++g) ASSERT_EQ(*g, -7.0f);
        // In place, streamed.
        blur(src.view, src.view, plan);
        ASSERT_EQ(std::memcmp(src.view.data, a.data, floats * sizeof(float)), 0) << "in place";
      }
}

// The plan streams a float32 destination of half the last-level cache or more, where the chain
// writes it itself, and says so; a smaller one, or one the chain converts, stays cached.
TEST(DownsampleChain, ThePlanStreamsADestinationOfHalfTheCacheOrMore) {
  float px[4] = {};
  const std::uint64_t half = core::last_level_cache_bytes() / 2;
  const std::int64_t w = 1024, row_bytes = w * 4 * 4;
  const std::int64_t big_h = static_cast<std::int64_t>(half) / row_bytes + 1, small_h = big_h / 4;
  const BlurSpec spec = downsample_spec(12.0, 12.0, Border::reflect, 0);
  // make_plan reads the view's shape only.
  const Plan big = make_plan(spec, View::packed(px, ElementType::f32, w, big_h, 1, 4));
  ASSERT_EQ(big.schedule.driver, CpuDriver::chain);
  EXPECT_TRUE(big.schedule.stream_destination);
  EXPECT_NE(describe(big).find("destination streamed past the caches"), std::string::npos) << describe(big);
  EXPECT_NE(plan_json(big).find("\"stream_destination\":true"), std::string::npos);
  const Plan small = make_plan(spec, View::packed(px, ElementType::f32, w, small_h, 1, 4));
  EXPECT_FALSE(small.schedule.stream_destination);
  EXPECT_EQ(describe(small).find("streamed"), std::string::npos);
  // An 8-bit image of the same pixels: the chain converts its rows, so nothing is streamed.
  const Plan bytes = make_plan(spec, View::packed(px, ElementType::u8, w, 4 * big_h, 1, 4));
  ASSERT_EQ(bytes.schedule.driver, CpuDriver::chain);
  EXPECT_FALSE(bytes.schedule.stream_destination);
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
