#pragma once
// The process's Vulkan instance and the physical devices it offers: what `fastblur devices` lists
// and what a Context opens. Apart from Context because it needs no device of its own.
#include "vulkan/loader.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "fastblur/device.hpp"

namespace fastblur::vk {

/// The Vulkan instance of the process (created on first use, kept for the process's life).
VkInstance instance();
/// The physical devices with a compute queue, in the loader's order.
std::vector<VkPhysicalDevice> physical_devices();
DeviceInfo describe(VkPhysicalDevice device, int index);

/// A device UUID (VK_UUID_SIZE bytes, Vulkan's deviceUUID or CUDA's cuDeviceGetUuid) as the 32 hex
/// digits of DeviceInfo::uuid.
std::string uuid_text(const std::uint8_t* bytes);

/// The queue family of `device` that supports compute, or UINT32_MAX.
std::uint32_t compute_family(VkPhysicalDevice device);

}  // namespace fastblur::vk
