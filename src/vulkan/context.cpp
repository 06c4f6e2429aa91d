// One open device's lifetime: opening a physical device (queue family, features such as float64)
// or adopting a caller's, creating and destroying the context's own objects in order, and what
// the device can do (formats, limits, memory types, the shared sampler). Context's other concerns
// have files of their own (listed in context.hpp; issue 26).
#include "vulkan/context.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "algorithms/gpu_profile.hpp"
#include "fastblur/error.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/image.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

std::uint32_t timestamp_bits(VkPhysicalDevice pd, std::uint32_t family) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  return family < n ? families[family].timestampValidBits : 0;
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
  std::uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> all(n);
  if (vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, all.data()) != VK_SUCCESS) return false;
  return std::any_of(all.begin(), all.end(), [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// Whether timeline semaphores of this device can be exported as opaque file descriptors (and so
// imported by CUDA: cuImportExternalSemaphore's TIMELINE_SEMAPHORE_FD).
bool exports_timeline_semaphores(VkPhysicalDevice pd) {
  if (!has_device_extension(pd, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME) ||
      !has_device_extension(pd, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME))
    return false;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
  info.pNext = &type;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalSemaphoreProperties props{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(pd, &info, &props);
  return (props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT) != 0;
}

// How long a fence wait polls before it sleeps in vkWaitForFences: waking from that sleep took
// about 0.25 ms on an H200 (NVIDIA 580, bench/RESULTS.md), more than a 1080p blur. Not on a CPU
// device (lavapipe), whose workers need the core. FASTBLUR_FENCE_SPIN_US overrides (0: never poll).
std::chrono::microseconds fence_spin(const DeviceInfo& info) {
  if (const char* e = std::getenv("FASTBLUR_FENCE_SPIN_US")) return std::chrono::microseconds(std::atol(e));
  return std::chrono::microseconds(info.type == "cpu" ? 0 : 2000);
}

}  // namespace

Context::Context(int index) {
  const auto devices = physical_devices();
  if (devices.empty()) throw DeviceError("no Vulkan device with a compute queue");
  if (index < 0 || index >= static_cast<int>(devices.size()))
    throw DeviceError("Vulkan device " + std::to_string(index) + " does not exist: there are " +
                      std::to_string(devices.size()) + " (see `fastblur devices`)");
  physical_ = devices[static_cast<std::size_t>(index)];
  info_ = describe(physical_, index);
  fence_spin_ = fence_spin(info_);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  limits_ = props.limits;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  queue_family_ = compute_family(physical_);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queue_family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  // float64 for the recursive filters where the device has it (gpu_iir.cpp).
  VkPhysicalDeviceFeatures available{}, enabled{};
  vkGetPhysicalDeviceFeatures(physical_, &available);
  enabled.shaderFloat64 = available.shaderFloat64;
  float64_ = float64_supported_ = available.shaderFloat64 == VK_TRUE;
  // Exportable memory where the driver has it: CUDA arrays are copied into buffers that CUDA maps
  // (fastblur/cuda.hpp). Nothing else depends on it.
  std::vector<const char*> extensions;
  const bool memory_fd = has_device_extension(physical_, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  if (memory_fd) extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  // And timeline semaphores exported the same way, with which the CUDA stream and the Vulkan queue
  // order each other's work without the host waiting (CudaHandoff::semaphores).
  const bool semaphore_fd = memory_fd && exports_timeline_semaphores(physical_);
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  timeline.timelineSemaphore = VK_TRUE;
  if (semaphore_fd) {
    extensions.push_back(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
    extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  }
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  if (semaphore_fd) dci.pNext = &timeline;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = &enabled;
  dci.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  check(vkCreateDevice(physical_, &dci, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  if (memory_fd)
    get_memory_fd_ = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device_, "vkGetMemoryFdKHR"));
  if (semaphore_fd)
    get_semaphore_fd_ = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(device_, "vkGetSemaphoreFdKHR"));
  try {
    create_own_objects();
  } catch (...) {
    vkDestroyDevice(device_, nullptr);
    throw;
  }
}

Context::Context(VkPhysicalDevice physical, VkDevice device, VkQueue queue, std::uint32_t queue_family,
                 bool float64_enabled)
    : physical_(physical), device_(device), queue_(queue), queue_family_(queue_family), owns_device_(false),
      float64_(float64_enabled), float64_supported_(float64_enabled) {
  if (!physical || !device || !queue) throw InvalidArgument("adopting a Vulkan device: a handle is null");
  load_vulkan();  // the engine's device may be fastblur's first Vulkan use
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, families.data());
  if (queue_family >= n || !(families[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    throw InvalidArgument("adopting a Vulkan device: queue family " + std::to_string(queue_family) +
                          " does not support compute");
  info_ = describe(physical_, -1);
  fence_spin_ = fence_spin(info_);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  limits_ = props.limits;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  create_own_objects();
}

void Context::create_own_objects() {
  profile_ = algo::gpu_profile_for(info_.name);
  idle_budget_ = idle_budget_for(info_.type, info_.memory_bytes);
  timestamp_period_ = limits_.timestampPeriod;
  timestamp_bits_ = timestamp_bits(physical_, queue_family_);
  load_pipeline_cache();
}

Context::~Context() {
  // An owned device may be idled; an adopted one never is (that would stall every queue of the
  // engine's): each job of ours was waited for by its own fence, and a Recording keeps this
  // context alive until the caller's command buffer has run.
  if (owns_device_) vkDeviceWaitIdle(device_);
  save_pipeline_cache();
  for (auto& f : free_frames_) destroy_frame(*f);
  free_frames_.clear();
  free_buffers_.clear();
  free_images_.clear();
  pipelines_.clear();
  if (linear_sampler_) vkDestroySampler(device_, linear_sampler_, nullptr);
  vkDestroyPipelineCache(device_, cache_, nullptr);
  if (owns_device_) vkDestroyDevice(device_, nullptr);
}

bool Context::can_filter_linear(VkFormat format) const {
  VkFormatProperties p;
  vkGetPhysicalDeviceFormatProperties(physical_, format, &p);
  const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  return (p.optimalTilingFeatures & need) == need;
}

bool Context::can_store(VkFormat format) const {
  VkFormatProperties p;
  vkGetPhysicalDeviceFormatProperties(physical_, format, &p);
  return (p.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) != 0;
}

VkSampler Context::linear_sampler() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!linear_sampler_) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = VK_FILTER_LINEAR;
    ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    ci.minLod = 0.0f;
    ci.maxLod = VK_LOD_CLAMP_NONE;
    check(vkCreateSampler(device_, &ci, nullptr, &linear_sampler_), "vkCreateSampler");
  }
  return linear_sampler_;
}

std::uint64_t Context::piece_limit() const noexcept {
  const std::uint64_t range = limits_.maxStorageBufferRange;
  return piece_limit_override_ ? std::min(range, piece_limit_override_) : range;
}

std::uint32_t Context::memory_type(std::uint32_t bits, VkMemoryPropertyFlags required,
                                   VkMemoryPropertyFlags preferred) const {
  for (int pass = 0; pass < 2; ++pass) {
    const VkMemoryPropertyFlags want = pass == 0 ? (required | preferred) : required;
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
  }
  throw Unsupported("Vulkan device " + info_.name + " has no memory type with the properties needed");
}

}  // namespace fastblur::vk
