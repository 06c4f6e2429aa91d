// The Vulkan loader is opened at run time (issue 27, src/vulkan/loader.cpp): where it cannot be
// opened, asking for a Vulkan device fails with one line that says what to install, the device
// list is the CPU alone and the CPU blurs as ever. The loader is opened once per process, so the
// check runs in a fresh copy of this binary (gtest's "threadsafe" death test re-executes it) with
// FASTBLUR_VULKAN_LOADER naming a file that does not exist.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/device.hpp"
#include "fastblur/error.hpp"
#include "fastblur/serialize.hpp"
#include "fastblur/vulkan.hpp"

namespace fastblur {
namespace {

constexpr const char* kMessage = "no Vulkan loader (libvulkan.so.1) was found: install the Vulkan loader "
                                 "(Debian: libvulkan1) and a driver to use device='vulkan'";

// Sets an environment variable for its scope, and puts back what was there.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The child's checks: each failure is one line on stderr and exit status 1; all good is 0.
[[noreturn]] void check_without_loader() {
  int failures = 0;
  auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    ++failures;
  };
  // The first Vulkan use: a device, then the same error again (the loader is tried once).
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      (void)Device::vulkan();
      fail("Device::vulkan() succeeded without a loader");
    } catch (const DeviceError& e) {
      if (!starts_with(e.what(), kMessage)) fail(std::string("Device::vulkan() threw: ") + e.what());
      if (attempt == 0) std::fprintf(stderr, "message: %s\n", e.what());
    } catch (const std::exception& e) {
      fail(std::string("Device::vulkan() threw another kind of error: ") + e.what());
    }
  }
  try {
    (void)Device::parse("vulkan:0");
    fail("Device::parse(\"vulkan:0\") succeeded without a loader");
  } catch (const DeviceError& e) {
    if (!starts_with(e.what(), kMessage)) fail(std::string("Device::parse threw: ") + e.what());
  }
  try {
    (void)vulkan_devices();
    fail("vulkan_devices() succeeded without a loader");
  } catch (const DeviceError& e) {
    if (!starts_with(e.what(), kMessage)) fail(std::string("vulkan_devices() threw: ") + e.what());
  }
  // An engine's handles (never touched: the loader is missing before any is used).
  try {
    int fake = 0;
    (void)vulkan::adopt(reinterpret_cast<VkPhysicalDevice>(&fake), reinterpret_cast<VkDevice>(&fake),
                        reinterpret_cast<VkQueue>(&fake), 0);
    fail("vulkan::adopt succeeded without a loader");
  } catch (const DeviceError& e) {
    if (!starts_with(e.what(), kMessage)) fail(std::string("vulkan::adopt threw: ") + e.what());
  }
  // The device list: the CPU alone, no error.
  try {
    const std::string json = devices_json();
    if (json.find("\"cpu\"") == std::string::npos || json.find("vulkan") != std::string::npos)
      fail("devices_json() is not the CPU alone: " + json);
  } catch (const std::exception& e) {
    fail(std::string("devices_json() threw: ") + e.what());
  }
  // The CPU blurs (a constant image stays constant under reflect borders).
  try {
    std::vector<float> src(16 * 16, 1.0f), dst(16 * 16, 0.0f);
    BlurSpec spec;
    spec.sigma = {1.5, 1.5, 0.0};
    blur(View::packed(src.data(), ElementType::f32, 16, 16), View::packed(dst.data(), ElementType::f32, 16, 16), spec,
         Device::cpu());
    for (float v : dst)
      if (v < 0.9999f || v > 1.0001f) {
        fail("the CPU blur of a constant image gave " + std::to_string(v));
        break;
      }
  } catch (const std::exception& e) {
    fail(std::string("the CPU blur threw: ") + e.what());
  }
  std::fflush(stderr);
  std::_Exit(failures == 0 ? 0 : 1);
}

TEST(VulkanLoader, MissingLoaderIsOneClearErrorAndTheCpuWorks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: the loader is not yet opened
  ScopedEnv loader("FASTBLUR_VULKAN_LOADER", "/nonexistent/libvulkan.so.1");
  EXPECT_EXIT(check_without_loader(), ::testing::ExitedWithCode(0),
              "message: no Vulkan loader \\(libvulkan\\.so\\.1\\) was found: install the Vulkan loader "
              "\\(Debian: libvulkan1\\) and a driver to use device='vulkan' \\(FASTBLUR_VULKAN_LOADER: "
              "/nonexistent/libvulkan\\.so\\.1");
}

}  // namespace
}  // namespace fastblur
