// The validation check itself: the layer is on when asked for, and it catches a deliberately
// invalid call and a deliberately missing barrier (so a clean run of the other tests means something).
#include <gtest/gtest.h>

#include "device_access.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/validation.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

TEST_F(VulkanTest, ValidationLayerIsOnWhenAskedFor) {
  // ctest runs this binary with FASTBLUR_VULKAN_VALIDATION=1 (0 only in the sanitizer builds), and
  // its main() sets 1 where the variable is unset; without the layer the fixture fails.
  if (!vk::validation_requested()) GTEST_SKIP() << "FASTBLUR_VULKAN_VALIDATION=0: validation switched off";
  EXPECT_EQ(watch_.take(), 0u);
}

TEST_F(VulkanTest, ValidationCatchesAnInvalidCall) {
  if (!vk::validation_requested()) GTEST_SKIP() << "validation not asked for";
  vk::Context& ctx = test::context_of(device_);
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 0;  // VUID-VkBufferCreateInfo-size-00912: size must be greater than 0
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer b = VK_NULL_HANDLE;
  if (vkCreateBuffer(ctx.device(), &bci, nullptr, &b) == VK_SUCCESS && b) vkDestroyBuffer(ctx.device(), b, nullptr);
  EXPECT_GE(watch_.take(), 1u) << "the validation layer let a zero-sized buffer through";
}

TEST_F(VulkanTest, SynchronizationValidationCatchesAMissingBarrier) {
  if (!vk::validation_requested()) GTEST_SKIP() << "validation not asked for";
  auto ctx = DeviceAccess::context(device_);
  vk::Buffer target(ctx, 1024, vk::Buffer::Kind::device);
  {
    vk::Job job(ctx);
    // Two transfer writes of the same bytes with no barrier between: a write-after-write hazard.
    vkCmdFillBuffer(job.command_buffer(), target.handle(), 0, 1024, 1u);
    vkCmdFillBuffer(job.command_buffer(), target.handle(), 0, 1024, 2u);
    job.run();
  }
  EXPECT_GE(watch_.take(), 1u) << "synchronization validation is not on";
}

}  // namespace
}  // namespace fastblur
