#pragma once
// VkResult -> fastblur errors: out of memory -> OutOfMemory, everything else -> DeviceError.
#include "vulkan/loader.hpp"

namespace fastblur::vk {

/// Throws for any result other than VK_SUCCESS, naming `what` and the result.
void check(VkResult result, const char* what);

const char* result_name(VkResult result) noexcept;

}  // namespace fastblur::vk
