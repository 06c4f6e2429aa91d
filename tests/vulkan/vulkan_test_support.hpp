#pragma once
// The Vulkan tests' fixture (skips, and says so, only where no Vulkan device exists at all and
// validation is not asked for; fails on any validation message) and their comparison against the
// CPU on random data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "device_access.hpp"
#include "fastblur/device.hpp"
#include "fastblur/plan.hpp"
#include "algorithms/gpu_passes.hpp"
#include "algorithms/gpu_variants.hpp"
#include "vulkan/context.hpp"
#include "vulkan/work.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/validation.hpp"
#include "support/test_support.hpp"

namespace fastblur::test {

/// Fails the running test on validation messages it did not expect: start() takes the count, check()
/// compares (CI sets FASTBLUR_VULKAN_VALIDATION=1, so the layer reports every invalid use it sees).
class ValidationWatch {
 public:
  void start() { seen_ = vk::validation_messages(); }
  void check() {
    const std::uint64_t now = vk::validation_messages();
    EXPECT_EQ(now, seen_) << now - seen_ << " validation message(s) during this test (printed above)";
    seen_ = now;
  }
  /// For tests that make invalid calls on purpose: the messages since start() or the last call.
  std::uint64_t take() {
    const std::uint64_t now = vk::validation_messages(), n = now - seen_;
    seen_ = now;
    return n;
  }

 private:
  std::uint64_t seen_ = 0;
};

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // With validation asked for (ctest), no device or no layer is a failure, never a skip.
    const bool must_run = vk::validation_requested();
    if (!vulkan_available()) {
      if (must_run) GTEST_FAIL() << "FASTBLUR_VULKAN_VALIDATION is set but this build has no Vulkan backend";
      GTEST_SKIP() << "this build has no Vulkan backend";
    }
    std::vector<DeviceInfo> devices;
    try {
      devices = vulkan_devices();
    } catch (const Error& e) {
      if (must_run) GTEST_FAIL() << "no Vulkan: " << e.what();
      GTEST_SKIP() << "no Vulkan: " << e.what();
    }
    if (devices.empty()) {
      if (must_run) GTEST_FAIL() << "no Vulkan device with a compute queue";
      GTEST_SKIP() << "no Vulkan device with a compute queue";
    }
    watch_.start();
    device_ = Device::vulkan();
    for (const auto& d : devices)
      if (device_.description().find(d.name) != std::string::npos) software_ = d.type == "cpu";
    static bool printed = false;
    if (!printed) std::printf("[ device   ] %s\n", device_.description().c_str()), printed = true;
  }
  void TearDown() override {
    if (device_.is_cpu()) return;
    watch_.check();
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
  ValidationWatch watch_;
};

/// max |a - b| over two views of the same shape (any element types).
inline double max_difference(const View& a, const View& b) {
  double worst = 0.0;
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      for (std::int64_t x = 0; x < a.width(); ++x)
        for (int c = 0; c < a.channels; ++c) {
          const double diff = std::abs(get(a, x, y, z, c) - get(b, x, y, z, c));
          worst = std::isnan(diff) ? INFINITY : std::max(worst, diff);
        }
  return worst;
}

/// The named GPU variant `name` of `algorithm` (algorithms/gpu_variants.cpp); null, with a test
/// failure, where it has none of that name.
inline const algo::GpuVariant* gpu_variant(Algorithm algorithm, std::string_view name) {
  for (const algo::GpuVariant& v : algo::gpu_variants())  // the registry's list lives on: pointers stay valid
    if (v.algorithm == algorithm && v.name == name) return &v;
  ADD_FAILURE() << to_string(algorithm) << " has no GPU variant named " << name;
  return nullptr;
}

/// max |GPU - CPU| over the image, both blurring random data of `type` into float64; the CPU runs
/// `cpu_algorithm` (for GPU-only techniques, the CPU algorithm they compute). The GPU's plan runs
/// the named GPU `variant` of the spec's algorithm (empty: the plan as made).
inline double gpu_cpu_difference(const Device& device, const BlurSpec& spec, ElementType type, std::int64_t w,
                                 std::int64_t h, std::int64_t d, int channels, std::mt19937_64& rng,
                                 Algorithm cpu_algorithm, ElementType out_type = ElementType::f64,
                                 std::string_view variant = {}) {
  auto src = make_buffer(type, w, h, d, channels);
  fill_random(src.view, rng);
  auto gpu = make_buffer(out_type, w, h, d, channels);
  auto cpu = make_buffer(out_type, w, h, d, channels);
  Plan plan = make_plan(spec, src.view, out_type, device);
  if (!variant.empty())
    if (const algo::GpuVariant* v = gpu_variant(plan.algorithm, variant))
      v->apply(plan, vk::shape_on(*DeviceAccess::context(device), {w, h, d}, channels, type, out_type));
  blur(src.view, gpu.view, plan, device);
  const BlurSpec cspec = algo::with_algorithm(spec, cpu_algorithm);  // with that algorithm's own options
  blur(src.view, cpu.view, cspec);
  return max_difference(gpu.view, cpu.view);
}

/// An algorithm the Vulkan backend runs, in one of its named GPU variants (null: one without any,
/// the plan as made).
struct VulkanAlgorithmVariant {
  const algo::Descriptor* descriptor;
  const algo::GpuVariant* variant;
};
/// Every algorithm of the registry the Vulkan backend runs (correlate, fir's recorder with the
/// caller's weights, left out) in each of its named variants (algorithms/gpu_variants.cpp): the
/// cases of the tests that hold for every algorithm and variant (shaders named, the traffic model).
inline std::vector<VulkanAlgorithmVariant> vulkan_algorithm_variants() {
  std::vector<VulkanAlgorithmVariant> out;
  for (const algo::Descriptor* d : algo::registry()) {
    if (d->id() == Algorithm::correlate || !d->info().capabilities.vulkan) continue;
    const std::size_t before = out.size();
    for (const algo::GpuVariant& v : algo::gpu_variants())  // the registry's list lives on: pointers stay valid
      if (v.algorithm == d->id()) out.push_back({d, &v});
    if (out.size() == before) out.push_back({d, nullptr});
  }
  return out;
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
