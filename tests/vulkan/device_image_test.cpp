// DeviceImage: blurs chained on the device equal the same blurs through host memory; uploads and
// downloads convert element types; in place; and the errors.
#include <gtest/gtest.h>

#include "fastblur/error.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, ChainedBlursOnTheDeviceEqualTheHostPath) {
  auto rng = test::rng_for_test();
  for (ElementType type : {ElementType::u8, ElementType::f16, ElementType::f32}) {
    const std::int64_t w = 53, h = 37;
    auto src = test::make_buffer(type, w, h, 1, 4, 0, 8);  // padded rows: any layout uploads
    test::fill_random(src.view, rng);
    BlurSpec first = BlurSpec::isotropic_2d(2.5), second;
    first.algorithm = Algorithm::box;
    second.sigma = {1.0, 4.0, 0.0};
    second.algorithm = Algorithm::fir;
    second.with_border(Border::wrap);
    // On the device: upload, two blurs (the second in place), download.
    DeviceImage a(device_, w, h, 1, 4, type), b(device_, w, h, 1, 4, type);
    a.upload(src.view);
    blur(a, b, first);
    blur(b, b, second);
    auto resident = test::make_buffer(type, w, h, 1, 4);
    b.download(resident.view);
    // Through host memory, the same steps (results stored in `type` in between, as on the device).
    auto mid = test::make_buffer(type, w, h, 1, 4), host = test::make_buffer(type, w, h, 1, 4);
    blur(src.view, mid.view, first, device_);
    blur(mid.view, host.view, second, device_);
    EXPECT_EQ(resident.bytes, host.bytes) << to_string(type);
  }
}

TEST_F(VulkanTest, DeviceImagesConvertOnUploadAndDownload) {
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f64, 20, 9, 3, 2);
  test::fill_random(src.view, rng);
  DeviceImage volume(device_, 20, 9, 3, 2, ElementType::f32);
  volume.upload(src.view);  // f64 -> f32
  auto back = test::make_buffer(ElementType::f64, 20, 9, 3, 2);
  volume.download(back.view);
  for (std::int64_t z = 0; z < 3; ++z)
    for (std::int64_t y = 0; y < 9; ++y)
      for (std::int64_t x = 0; x < 20; ++x)
        for (int c = 0; c < 2; ++c)
          EXPECT_EQ(test::get(back.view, x, y, z, c), static_cast<double>(static_cast<float>(test::get(src.view, x, y, z, c))));
  // A volume blurred on the device against the CPU.
  BlurSpec spec = BlurSpec::isotropic_3d(1.5);
  spec.algorithm = Algorithm::iir;
  blur(volume, volume, spec);
  volume.download(back.view);
  auto cpu = test::make_buffer(ElementType::f64, 20, 9, 3, 2);
  auto as_f32 = test::make_buffer(ElementType::f32, 20, 9, 3, 2);
  blur(src.view, as_f32.view, BlurSpec{});  // the uploaded (rounded) values
  blur(as_f32.view, cpu.view, spec);
  double worst = 0.0;
  for (std::int64_t z = 0; z < 3; ++z)
    for (std::int64_t y = 0; y < 9; ++y)
      for (std::int64_t x = 0; x < 20; ++x)
        for (int c = 0; c < 2; ++c)
          worst = std::max(worst, std::abs(test::get(back.view, x, y, z, c) - test::get(cpu.view, x, y, z, c)));
  EXPECT_LE(worst, 1e-6);
}

TEST_F(VulkanTest, DeviceImagesPackRowsOfAnyLayout) {
  // Packed rows travel by one copy a row, strided and flipped views element by element: the same
  // bytes either way, for each element type.
  auto rng = test::rng_for_test();
  for (ElementType type : {ElementType::u8, ElementType::u16, ElementType::f16, ElementType::f32}) {
    auto flipped = test::make_buffer(type, 13, 7, 2, 3, 4, 12, true);  // padded pixels, rows bottom up
    test::fill_random(flipped.view, rng);
    auto packed = test::make_buffer(type, 13, 7, 2, 3), again = test::make_buffer(type, 13, 7, 2, 3);
    DeviceImage image(device_, 13, 7, 2, 3, type);
    image.upload(flipped.view);
    image.download(packed.view);
    image.upload(packed.view);
    image.download(again.view);
    EXPECT_EQ(packed.bytes, again.bytes) << to_string(type);
    for (std::int64_t z = 0; z < 2; ++z)
      for (std::int64_t y = 0; y < 7; ++y)
        for (std::int64_t x = 0; x < 13; ++x)
          for (int c = 0; c < 3; ++c)
            ASSERT_EQ(test::get(packed.view, x, y, z, c), test::get(flipped.view, x, y, z, c)) << to_string(type);
  }
}

TEST_F(VulkanTest, DeviceImageErrors) {
  EXPECT_THROW(DeviceImage(Device::cpu(), 4, 4, 1, 1, ElementType::f32), InvalidArgument);
  EXPECT_THROW(DeviceImage(device_, 0, 4, 1, 1, ElementType::f32), InvalidArgument);
  EXPECT_THROW(DeviceImage(device_, 4, 4, 1, 5, ElementType::f32), InvalidArgument);
  EXPECT_THROW(DeviceImage(device_, 4, 4, 1, 1, ElementType::f64), InvalidArgument);
  EXPECT_THROW(DeviceImage(device_, 1 << 20, 1 << 12, 1, 4, ElementType::u8), Unsupported);  // beyond one piece
  DeviceImage a(device_, 8, 8, 1, 1, ElementType::f32), b(device_, 8, 4, 1, 1, ElementType::f32);
  std::vector<float> px(32);
  EXPECT_THROW(a.upload(View::packed(px.data(), ElementType::f32, 8, 4)), InvalidArgument);
  EXPECT_THROW(blur(a, b, BlurSpec::isotropic_2d(1.0)), InvalidArgument);
  BlurSpec fft = BlurSpec::isotropic_2d(1.0);
  fft.algorithm = Algorithm::fft;
  EXPECT_THROW(blur(a, a, fft), Unsupported);
}

}  // namespace
}  // namespace fastblur
