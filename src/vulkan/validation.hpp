#pragma once
// The Khronos validation layer, switched on by the environment (FASTBLUR_VULKAN_VALIDATION=1, as the
// Vulkan tests run in ctest): every instance fastblur (or a test playing an engine) creates then
// carries VK_LAYER_KHRONOS_validation with synchronization validation, and a debug-utils messenger
// that counts and prints each warning or error, so a test can fail on any message.
#include "vulkan/loader.hpp"

#include <cstdint>

namespace fastblur::vk {

/// Whether FASTBLUR_VULKAN_VALIDATION is set to something other than "0" or empty.
bool validation_requested() noexcept;

/// An instance, with the validation layer, synchronization validation and a counting messenger where
/// validation is requested. Throws DeviceError where it is requested and the layer is not installed
/// (Debian: vulkan-validationlayers), rather than running unvalidated.
struct InstanceHandles {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
};
InstanceHandles create_instance(const VkApplicationInfo& app);
void destroy_instance(InstanceHandles handles) noexcept;

/// Warnings and errors reported by the validation layer so far, over every instance of the process.
std::uint64_t validation_messages() noexcept;

}  // namespace fastblur::vk
