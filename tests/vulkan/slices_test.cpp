// blur_slices on a Vulkan device with host views: each slice what blurring it alone on the device
// gives (the stack in one submission is cuda::blur_slices', cuda_arrays_test.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "fastblur/device.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, HostSlicesEachGetTheBitsOfBlurringItAlone) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.1, 3.0);
  for (ElementType t : {ElementType::u8, ElementType::f32}) {
    SCOPED_TRACE(std::string(to_string(t)));
    const std::int64_t w = 31, h = 22, n = 4;
    test::Buffer src = test::make_buffer(t, w, h, n, 2), dst = test::make_buffer(t, w, h, n, 2), want = test::make_buffer(t, w, h, n, 2);
    test::fill_random(src.view, rng);
    std::vector<BlurSpec> specs;
    for (std::int64_t k = 0; k < n; ++k) specs.push_back(BlurSpec::isotropic_2d(u(rng)).with_border(Border::wrap));
    blur_slices(src.view, dst.view, specs, device_);
    for (std::int64_t k = 0; k < n; ++k) {
      View a = src.view, b = want.view;
      a.data = src.view.pixel(0, 0, k), b.data = want.view.pixel(0, 0, k);
      a.extent[2] = b.extent[2] = 1;
      blur(a, b, specs[static_cast<std::size_t>(k)], device_);
    }
    EXPECT_EQ(std::memcmp(dst.bytes.data(), want.bytes.data(), dst.bytes.size()), 0);
  }
}

}  // namespace
}  // namespace fastblur
