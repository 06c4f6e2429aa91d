#include "vulkan/validation.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fastblur/error.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

constexpr const char* kLayer = "VK_LAYER_KHRONOS_validation";
std::atomic<std::uint64_t> g_messages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL count_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  // The loader's own notices (a layer enabled by VK_INSTANCE_LAYERS, as the tests' stand-in
  // semaphore layer is) reach the messenger too; they say nothing about fastblur's calls.
  if (data && data->pMessageIdName && std::strcmp(data->pMessageIdName, "Loader Message") == 0) return VK_FALSE;
  // The layer's own timeout while it tracks a timeline semaphore ("most likely a validation bug", it
  // says): seen only under load (ctest -j2 on two cores), the wait itself succeeding. Printed, not
  // counted as an invalid call.
  const bool layer_timeout =
      data && data->pMessageIdName && std::strcmp(data->pMessageIdName, "UNASSIGNED-VkSemaphore-state-timeout") == 0;
  if (!layer_timeout) g_messages.fetch_add(1);
  std::fprintf(stderr, "[validation %s] %s\n",
               severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
               data && data->pMessage ? data->pMessage : "(no message)");
  return VK_FALSE;  // the call goes on, as it would without the layer
}

bool has_layer() {
  std::uint32_t n = 0;
  vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, kLayer) == 0) return true;
  return false;
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info() {
  VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mi.pfnUserCallback = count_message;
  return mi;
}

}  // namespace

bool validation_requested() noexcept {
  const char* v = std::getenv("FASTBLUR_VULKAN_VALIDATION");
  return v && *v && std::strcmp(v, "0") != 0;
}

std::uint64_t validation_messages() noexcept { return g_messages.load(); }

InstanceHandles create_instance(const VkApplicationInfo& app) {
  load_vulkan();  // instance() has, but an engine's instance (the interop tests') may come first
  InstanceHandles h;
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  if (!validation_requested()) {
    check(vkCreateInstance(&ci, nullptr, &h.instance), "vkCreateInstance");
    return h;
  }
  if (!has_layer())
    throw DeviceError(std::string("FASTBLUR_VULKAN_VALIDATION is set but the Vulkan layer ") + kLayer +
                      " is not installed (Debian: vulkan-validationlayers)");
  // Synchronization validation is off by default in the layer; it finds missing barriers.
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkDebugUtilsMessengerCreateInfoEXT mi = messenger_info();
  mi.pNext = &features;  // the messenger in the chain also hears vkCreateInstance / vkDestroyInstance
  const char* layers[] = {kLayer};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  ci.pNext = &mi;
  ci.enabledLayerCount = 1;
  ci.ppEnabledLayerNames = layers;
  ci.enabledExtensionCount = 2;
  ci.ppEnabledExtensionNames = extensions;
  check(vkCreateInstance(&ci, nullptr, &h.instance), "vkCreateInstance (with the validation layer)");
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(h.instance, "vkCreateDebugUtilsMessengerEXT"));
  const VkDebugUtilsMessengerCreateInfoEXT plain = messenger_info();
  const VkResult r = create ? create(h.instance, &plain, nullptr, &h.messenger) : VK_ERROR_EXTENSION_NOT_PRESENT;
  if (r != VK_SUCCESS) {
    vkDestroyInstance(h.instance, nullptr);
    check(r, "vkCreateDebugUtilsMessengerEXT");
  }
  return h;
}

void destroy_instance(InstanceHandles h) noexcept {
  if (!h.instance) return;
  if (h.messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(h.instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(h.instance, h.messenger, nullptr);
  }
  vkDestroyInstance(h.instance, nullptr);
}

}  // namespace fastblur::vk
