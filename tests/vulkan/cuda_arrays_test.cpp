// fastblur/cuda.hpp (src/cuda_arrays.cpp) from C++, under the validation layer: CUDA views blurred
// through the Vulkan buffer CUDA maps give the bits of the host path on the same device, with
// pitched rows, planes whose pitch is no multiple of the rows' (a copy per plane), a destination of
// another type, and in place; what the copies cannot take is refused. "CUDA" here is the stand-in
// driver of tests/python/fake_cuda_driver.cpp, whose device pointers are host pointers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "fastblur/cuda.hpp"
#include "fastblur/error.hpp"
#include "fastblur/serialize.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

// Points fastblur at the stand-in driver, with the UUID of the fixture's device (read at the first
// CUDA call of the process, which these tests make).
void use_stand_in_driver(const Device& device) {
  setenv("FASTBLUR_CUDA_DRIVER", FASTBLUR_FAKE_CUDA_DRIVER, 1);
  setenv("FASTBLUR_FAKE_CUDA_UUID", test::context_of(device).info().uuid.c_str(), 1);
}

// A view over `b`'s bytes as CUDA sees them (the stand-in's device pointers are host pointers).
cuda::DeviceView device_view(const View& v) {
  cuda::DeviceView d;
  d.data = reinterpret_cast<std::uint64_t>(v.data);
  d.extent = v.extent;
  d.stride = {v.stride[0], v.stride[1], v.stride[2]};
  d.channels = v.channels;
  d.type = v.type;
  return d;
}

// A buffer whose planes lie `plane_pad` bytes apart beyond its rows (0: planes follow rows).
test::Buffer padded(ElementType t, std::int64_t w, std::int64_t h, std::int64_t d, int c, int pad_row, int plane_pad) {
  test::Buffer b = test::make_buffer(t, w, h, d, c, 0, pad_row);
  const std::ptrdiff_t plane = b.view.stride[1] * h + plane_pad;
  b.bytes.assign(static_cast<std::size_t>(plane * d), std::byte{0});
  b.view.data = b.bytes.data();
  b.view.stride[2] = plane;
  return b;
}

bool same_values(const View& a, const View& b) {
  const std::size_t es = element_size(a.type);
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      if (std::memcmp(a.pixel(0, y, z), b.pixel(0, y, z), static_cast<std::size_t>(a.width() * a.channels) * es) != 0)
        return false;
  return true;
}

TEST_F(VulkanTest, CudaViewsGiveTheBitsOfTheHostPath) {
  use_stand_in_driver(device_);
  auto rng = test::rng_for_test();
  struct Case {
    ElementType in, out;
    std::int64_t w, h, d;
    int c, pad_row, plane_pad;
    BlurSpec spec;
  };
  BlurSpec volume = BlurSpec::isotropic_3d(1.5);
  BlurSpec wide = BlurSpec::isotropic_2d(4.0);
  wide.algorithm = Algorithm::box;
  wide.tolerance = 0.05;
  const Case cases[] = {
      {ElementType::f32, ElementType::f32, 37, 23, 5, 3, 28, 64, volume},  // a copy per plane
      {ElementType::f32, ElementType::f32, 37, 23, 5, 1, 0, 0, volume},    // packed: one copy
      {ElementType::u8, ElementType::f32, 61, 44, 1, 4, 12, 0, wide},      // pitched rows, another type out
      {ElementType::f16, ElementType::f16, 40, 31, 1, 2, 8, 0, BlurSpec::isotropic_2d(2.0)},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(to_string(k.in)) + " -> " + std::string(to_string(k.out)) + " " + std::to_string(k.w) + "x" +
                 std::to_string(k.h) + "x" + std::to_string(k.d) + "x" + std::to_string(k.c));
    test::Buffer src = padded(k.in, k.w, k.h, k.d, k.c, k.pad_row, k.plane_pad);
    test::Buffer dst = padded(k.out, k.w, k.h, k.d, k.c, k.pad_row + 4, k.plane_pad ? k.plane_pad + 32 : 0);
    test::Buffer want = test::make_buffer(k.out, k.w, k.h, k.d, k.c);
    test::fill_random(src.view, rng);
    blur(src.view, want.view, k.spec, device_);
    const std::string host_ran = run_json(*last_run());
    cuda::blur(device_view(src.view), device_view(dst.view), k.spec, 0, 0);
    EXPECT_TRUE(same_values(dst.view, want.view));
    // The plan printed is the plan run, and the host path's for the same shape.
    const Plan planned = cuda::plan(device_view(src.view), k.out, k.spec, 0);
    EXPECT_EQ(run_json(*last_run()), host_ran);
    EXPECT_EQ(run_json(RunRecord{planned.algorithm, planned.schedule, planned.spec.rounding, k.in, k.out}), host_ran);
    if (k.in == k.out) {  // in place
      cuda::blur(device_view(src.view), device_view(src.view), k.spec, 0, 0);
      EXPECT_TRUE(same_values(src.view, want.view));
    }
  }
  const std::uint64_t imports = cuda::imports();
  test::Buffer a = test::make_buffer(ElementType::f32, 37, 23, 5, 3);
  for (int i = 0; i < 10; ++i) cuda::blur(device_view(a.view), device_view(a.view), volume, 0, 0);
  EXPECT_EQ(cuda::imports(), imports) << "blurs that fit the pooled buffer imported anew";
}

TEST_F(VulkanTest, CudaViewsTheCopiesCannotTakeAreRefused) {
  use_stand_in_driver(device_);
  test::Buffer a = test::make_buffer(ElementType::f32, 16, 16, 1, 1);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  cuda::DeviceView v = device_view(a.view);
  cuda::DeviceView gaps = v;
  gaps.stride[0] = 8;  // a pixel every other float
  gaps.stride[1] = 16 * 8;
  EXPECT_THROW(cuda::blur(gaps, gaps, spec, 0, 0), InvalidArgument);
  cuda::DeviceView overlap = v;
  overlap.stride[1] = 8;
  EXPECT_THROW(cuda::blur(overlap, v, spec, 0, 0), InvalidArgument);
  cuda::DeviceView doubles = v;
  doubles.type = ElementType::f64;
  doubles.stride = {8, 128, 2048};
  EXPECT_THROW(cuda::blur(doubles, doubles, spec, 0, 0), Unsupported);
  cuda::DeviceView smaller = v;
  smaller.extent[0] = 8;
  EXPECT_THROW(cuda::blur(v, smaller, spec, 0, 0), InvalidArgument);
  EXPECT_THROW(cuda::vulkan_device_for(3), DeviceError);  // the stand-in has one device
  try {
    cuda::vulkan_device_for(3);
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA device 3 does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fastblur
