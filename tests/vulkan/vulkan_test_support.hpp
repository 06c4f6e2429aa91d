#pragma once
// The Vulkan tests' fixture (skips, and says so, only where no Vulkan device exists at all) and
// their comparison against the CPU on random data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "device_access.hpp"
#include "fastblur/device.hpp"
#include "fastblur/plan.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "support/test_support.hpp"

namespace fastblur::test {

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!vulkan_available()) GTEST_SKIP() << "this build has no Vulkan backend";
    std::vector<DeviceInfo> devices;
    try {
      devices = vulkan_devices();
    } catch (const Error& e) {
      GTEST_SKIP() << "no Vulkan: " << e.what();
    }
    if (devices.empty()) GTEST_SKIP() << "no Vulkan device with a compute queue";
    device_ = Device::vulkan();
    for (const auto& d : devices)
      if (device_.description().find(d.name) != std::string::npos) software_ = d.type == "cpu";
    static bool printed = false;
    if (!printed) std::printf("[ device   ] %s\n", device_.description().c_str()), printed = true;
  }

 public:
  /// The bound of the texture-based algorithms: a software rasteriser (lavapipe) filters in full
  /// float precision; GPUs weight bilinear fetches with 8 fractional bits, an error of up to 1/512
  /// of the data's range per fetch's pair of texels (summed over passes: a few 1e-3).
  double texture_tolerance(ElementType type) const {
    return (software_ ? 5e-6 : 8e-3) * type_scale(type) + (is_integer(type) ? 0.5 : 0.0);
  }

 protected:
  Device device_;
  bool software_ = false;
};

/// max |GPU - CPU| over the image, both blurring random data of `type` into float64; the CPU runs
/// `cpu_algorithm` (for GPU-only techniques, the CPU algorithm they compute). `box`, unless
/// automatic, forces box's schedule on every axis of the GPU's plan.
inline double gpu_cpu_difference(const Device& device, const BlurSpec& spec, ElementType type, std::int64_t w,
                                 std::int64_t h, std::int64_t d, int channels, std::mt19937_64& rng,
                                 Algorithm cpu_algorithm, ElementType out_type = ElementType::f64,
                                 BoxSchedule box = BoxSchedule::automatic) {
  auto src = make_buffer(type, w, h, d, channels);
  fill_random(src.view, rng);
  auto gpu = make_buffer(out_type, w, h, d, channels);
  auto cpu = make_buffer(out_type, w, h, d, channels);
  Plan plan = make_plan(spec, src.view, out_type, device);
  if (box != BoxSchedule::automatic) plan.schedule.box = {box, box, box};
  blur(src.view, gpu.view, plan, device);
  BlurSpec cspec = spec;
  cspec.algorithm = cpu_algorithm;
  blur(src.view, cpu.view, cspec);
  double worst = 0.0;
  for (std::int64_t z = 0; z < d; ++z)
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x)
        for (int c = 0; c < channels; ++c) {
          const double diff = std::abs(get(gpu.view, x, y, z, c) - get(cpu.view, x, y, z, c));
          worst = std::isnan(diff) ? INFINITY : std::max(worst, diff);
        }
  return worst;
}

/// The device's Vulkan context (for the tests that change its limits).
inline vk::Context& context_of(const Device& device) { return *DeviceAccess::context(device); }

/// The plan for `device` run by the backend's host path directly, with its timing.
inline void gpu_blur_timed(const Device& device, const View& src, const View& dst, const BlurSpec& spec,
                           vk::Timing* timing) {
  vk::gpu_blur(DeviceAccess::context(device), src, dst, make_plan(spec, src, dst.type, device), timing);
}

/// The same data blurred by the GPU into float64: for comparisons between GPU runs.
inline Buffer gpu_blurred(const Device& device, const View& src, const BlurSpec& spec) {
  auto out = make_buffer(ElementType::f64, src.width(), src.height(), src.depth(), src.channels);
  blur(src, out.view, spec, device);
  return out;
}

inline std::string describe_case(const BlurSpec& spec, ElementType type, std::int64_t w, std::int64_t h, std::int64_t d,
                                 int channels) {
  return std::string(to_string(spec.algorithm)) + " " + std::string(to_string(type)) + " " +
         std::string(to_string(spec.border[0])) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
         std::to_string(d) + "x" + std::to_string(channels) + " sigma " + std::to_string(spec.sigma[0]) + "," +
         std::to_string(spec.sigma[1]) + "," + std::to_string(spec.sigma[2]);
}

}  // namespace fastblur::test
