// blur_slices (src/blur_slices.cpp) on the CPU: a stack of slices, each with its own spec (a batch
// with a sigma per sample), gives each slice what blurring it alone gives, bit for bit - every
// element type, every border, channels interleaved, strided and in place, with the slices on the
// threads; and the sliced plan (src/plan/slices.cpp) refuses what is not a stack of 2D blurs.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "fastblur/device.hpp"
#include "fastblur/error.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

View slice(const View& v, std::int64_t k) {
  View s = v;
  s.data = v.pixel(0, 0, k);
  s.extent[2] = 1;
  return s;
}

bool same_bytes(const View& a, const View& b) {
  const std::size_t row = static_cast<std::size_t>(a.width() * a.channels) * element_size(a.type);
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      if (std::memcmp(a.pixel(0, y, z), b.pixel(0, y, z), row) != 0) return false;
  return true;
}

// Random specs, one a slice: sigmas in [0.1, 3] (one slice left alone, one anisotropic), a border.
std::vector<BlurSpec> random_specs(std::int64_t n, Border border, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.1, 3.0);
  std::vector<BlurSpec> specs;
  for (std::int64_t k = 0; k < n; ++k) {
    BlurSpec s;
    s.sigma = {u(rng), u(rng), 0.0};
    if (k == 1) s.sigma = {0.0, 0.0, 0.0};
    if (k == 2) s.sigma[0] = 0.0;
    s.with_border(border);
    s.cval = 0.25;
    s.threads = 2;
    specs.push_back(s);
  }
  return specs;
}

TEST(BlurSlices, EachSliceGetsTheBitsOfBlurringItAlone) {
  auto rng = test::rng_for_test();
  for (ElementType t : {ElementType::u8, ElementType::u16, ElementType::f16, ElementType::f32, ElementType::f64}) {
    for (Border border : test::all_borders()) {
      for (int c : {1, 3}) {
        SCOPED_TRACE(std::string(to_string(t)) + " " + std::string(to_string(border)) + " " + std::to_string(c) + " channels");
        const std::int64_t w = 23, h = 17, n = 7;
        test::Buffer src = test::make_buffer(t, w, h, n, c, 1, 3);  // padded pixels and rows
        test::Buffer dst = test::make_buffer(t, w, h, n, c);
        test::Buffer want = test::make_buffer(t, w, h, n, c);
        test::fill_random(src.view, rng);
        const std::vector<BlurSpec> specs = random_specs(n, border, rng);
        blur_slices(src.view, dst.view, specs, Device::cpu());
        for (std::int64_t k = 0; k < n; ++k) blur(slice(src.view, k), slice(want.view, k), specs[static_cast<std::size_t>(k)]);
        EXPECT_TRUE(same_bytes(dst.view, want.view));
        // In place, each slice as blurring it alone in place gives it (a plan may run another
        // driver in place: fir's fused rows need the source apart).
        test::Buffer alone = test::make_buffer(t, w, h, n, c, 1, 3);
        std::memcpy(alone.bytes.data(), src.bytes.data(), src.bytes.size());
        for (std::int64_t k = 0; k < n; ++k) blur(slice(alone.view, k), slice(alone.view, k), specs[static_cast<std::size_t>(k)]);
        blur_slices(src.view, src.view, specs, Device::cpu());
        EXPECT_TRUE(same_bytes(src.view, alone.view));
      }
    }
  }
}

TEST(BlurSlices, EachSliceRunsItsOwnPlan) {
  test::Buffer a = test::make_buffer(ElementType::f32, 40, 30, 3, 1);
  std::vector<BlurSpec> specs(3);
  specs[0] = BlurSpec::isotropic_2d(1.0);
  specs[1] = BlurSpec::isotropic_2d(30.0);  // large: the exact plan is another algorithm's
  specs[2] = BlurSpec::isotropic_2d(4.0);
  specs[2].tolerance = 0.05;
  const SlicedPlan plan = make_sliced_plan(specs, a.view, ElementType::f32, Device::cpu());
  ASSERT_EQ(plan.slices.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    View one = a.view;
    one.extent[2] = 1;
    EXPECT_EQ(plan.slices[k].algorithm, make_plan(specs[k], one).algorithm) << k;
  }
  EXPECT_FALSE(plan.stacked);  // stacking is the Vulkan backend's
  EXPECT_NE(describe(plan).find("stack of 3 slices"), std::string::npos) << describe(plan);
}

TEST(BlurSlices, WhatIsNotAStackOf2DBlursIsRefused) {
  test::Buffer a = test::make_buffer(ElementType::f32, 8, 8, 4, 1);
  std::vector<BlurSpec> three(3, BlurSpec::isotropic_2d(1.0));
  EXPECT_THROW(blur_slices(a.view, a.view, three, Device::cpu()), InvalidArgument);
  std::vector<BlurSpec> volume(4, BlurSpec::isotropic_3d(1.0));
  try {
    blur_slices(a.view, a.view, volume, Device::cpu());
    ADD_FAILURE() << "a spec that blurs along z ran";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("slice 0's spec blurs along z"), std::string::npos) << e.what();
  }
  std::vector<BlurSpec> bad(4, BlurSpec::isotropic_2d(1.0));
  bad[2].sigma[0] = -1.0;
  EXPECT_THROW(blur_slices(a.view, a.view, bad, Device::cpu()), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
