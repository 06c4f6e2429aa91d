// The Vulkan backend's recorders (algorithm_list.def) against the registry's capabilities: a
// recorder for exactly the algorithms whose descriptors promise the Vulkan backend, and each of
// them blurs a small image on the device (an image and, where promised, a volume).
#include <gtest/gtest.h>

#include "vulkan/vulkan_test_support.hpp"
#include "vulkan/work.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST(VulkanRecorders, ExistForExactlyWhatTheCapabilitiesPromise) {
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic) continue;
    EXPECT_EQ(vk::recorder(a.id) != nullptr, a.capabilities.vulkan) << a.name;
  }
}

TEST_F(VulkanTest, EveryPromisedRecorderBlursImagesAndVolumes) {
  auto rng = test::rng_for_test();
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic || !a.capabilities.vulkan) continue;
    for (const int depth : {1, 5}) {
      if (depth > 1 && !(a.capabilities.vulkan_volumes && a.capabilities.max_dimensions == 3)) continue;
      auto src = test::make_buffer(ElementType::f32, 23, 17, depth, 1);
      auto dst = test::make_buffer(ElementType::f32, 23, 17, depth, 1);
      test::fill_random(src.view, rng);
      BlurSpec spec = depth > 1 ? BlurSpec::isotropic_3d(2.0) : BlurSpec::isotropic_2d(2.0);
      spec.algorithm = a.id;
      EXPECT_NO_THROW(blur(src.view, dst.view, spec, device_)) << a.name << " depth " << depth;
    }
  }
}

}  // namespace
}  // namespace fastblur
