#pragma once
// The Vulkan entry points fastblur calls, as pointers that load_vulkan() fills from the Vulkan
// loader opened at run time (issue 27): neither libfastblur's users nor the Python module link
// libvulkan.so.1, so CPU work runs on a machine without it. fastblur's own sources are compiled
// with VK_NO_PROTOTYPES, so a call to an entry point missing from this list does not compile;
// every header of src/vulkan that needs Vulkan's types includes this one, not <vulkan/vulkan.h>.
// The pointers live in fastblur::vk, so code of that namespace calls them by their usual names, and
// a program that links the loader itself (an engine, the tests) keeps its own ::vkX.
#include <vulkan/vulkan.h>

// Every core entry point called in src/ (the loader exports each of them). Extension functions
// (debug utils) are still had through vkGetInstanceProcAddr.
#define FASTBLUR_VULKAN_FUNCTIONS(X) \
  X(vkAllocateCommandBuffers) \
  X(vkAllocateDescriptorSets) \
  X(vkAllocateMemory) \
  X(vkBeginCommandBuffer) \
  X(vkBindBufferMemory) \
  X(vkBindImageMemory) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdBindPipeline) \
  X(vkCmdCopyBuffer) \
  X(vkCmdDispatch) \
  X(vkCmdPipelineBarrier) \
  X(vkCmdPushConstants) \
  X(vkCmdResetQueryPool) \
  X(vkCmdUpdateBuffer) \
  X(vkCmdWriteTimestamp) \
  X(vkCreateBuffer) \
  X(vkCreateCommandPool) \
  X(vkCreateComputePipelines) \
  X(vkCreateDescriptorPool) \
  X(vkCreateDescriptorSetLayout) \
  X(vkCreateDevice) \
  X(vkCreateFence) \
  X(vkCreateImage) \
  X(vkCreateImageView) \
  X(vkCreateInstance) \
  X(vkCreatePipelineCache) \
  X(vkCreatePipelineLayout) \
  X(vkCreateQueryPool) \
  X(vkCreateSampler) \
  X(vkCreateSemaphore) \
  X(vkCreateShaderModule) \
  X(vkDestroyBuffer) \
  X(vkDestroyCommandPool) \
  X(vkDestroyDescriptorPool) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkDestroyDevice) \
  X(vkDestroyFence) \
  X(vkDestroyImage) \
  X(vkDestroyImageView) \
  X(vkDestroyInstance) \
  X(vkDestroyPipeline) \
  X(vkDestroyPipelineCache) \
  X(vkDestroyPipelineLayout) \
  X(vkDestroyQueryPool) \
  X(vkDestroySampler) \
  X(vkDestroySemaphore) \
  X(vkDestroyShaderModule) \
  X(vkDeviceWaitIdle) \
  X(vkEndCommandBuffer) \
  X(vkEnumerateDeviceExtensionProperties) \
  X(vkEnumerateInstanceLayerProperties) \
  X(vkEnumeratePhysicalDevices) \
  X(vkFlushMappedMemoryRanges) \
  X(vkFreeMemory) \
  X(vkGetBufferMemoryRequirements) \
  X(vkGetDeviceProcAddr) \
  X(vkGetDeviceQueue) \
  X(vkGetImageMemoryRequirements) \
  X(vkGetInstanceProcAddr) \
  X(vkGetPhysicalDeviceExternalSemaphoreProperties) \
  X(vkGetPhysicalDeviceFeatures) \
  X(vkGetPhysicalDeviceFormatProperties) \
  X(vkGetPhysicalDeviceMemoryProperties) \
  X(vkGetPhysicalDeviceProperties) \
  X(vkGetPhysicalDeviceProperties2) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPipelineCacheData) \
  X(vkGetQueryPoolResults) \
  X(vkInvalidateMappedMemoryRanges) \
  X(vkMapMemory) \
  X(vkQueueSubmit) \
  X(vkResetCommandPool) \
  X(vkResetDescriptorPool) \
  X(vkResetFences) \
  X(vkUnmapMemory) \
  X(vkUpdateDescriptorSets) \
  X(vkWaitForFences) \
  X(vkGetFenceStatus)

namespace fastblur::vk {

#define FASTBLUR_VULKAN_DECLARE(name) extern PFN_##name name;
FASTBLUR_VULKAN_FUNCTIONS(FASTBLUR_VULKAN_DECLARE)
#undef FASTBLUR_VULKAN_DECLARE

/// Opens the Vulkan loader and fills the pointers above, once per process (thread-safe); every
/// later call returns at once or throws the first call's error again. The loader is
/// libvulkan.so.1 (else libvulkan.so), or the path in the environment variable
/// FASTBLUR_VULKAN_LOADER where it is set (read on the first call). Throws DeviceError "no Vulkan
/// loader (libvulkan.so.1) was found: ..." where it cannot be opened, and DeviceError naming the
/// entry point where one is missing from it.
void load_vulkan();

}  // namespace fastblur::vk
