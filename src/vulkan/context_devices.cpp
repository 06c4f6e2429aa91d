// Finding devices: the process's instance, the physical devices with a compute queue and what
// each one is (DeviceInfo). Split from context.cpp (issue 26): none of it needs an open device.
#include "vulkan/context_devices.hpp"

#include <algorithm>
#include <string>

#include "fastblur/error.hpp"
#include "vulkan/validation.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

// The instance lives for the process: drivers (lavapipe included) dislike instances destroyed
// and re-created while other threads use them.
struct Instance {
  InstanceHandles handles;
  std::string error;  // why there is no instance
  Instance() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "fastblur";
    app.apiVersion = VK_API_VERSION_1_1;
    try {
      handles = create_instance(app);
    } catch (const Error& e) {
      error = e.what();
    }
  }
  ~Instance() { destroy_instance(handles); }
};

}  // namespace

std::uint32_t compute_family(VkPhysicalDevice pd) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  for (std::uint32_t i = 0; i < n; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  return UINT32_MAX;
}

VkInstance instance() {
  load_vulkan();  // the front door: no loader throws its own one-line DeviceError, unwrapped
  static Instance inst;
  if (!inst.handles.instance)
    throw DeviceError("no Vulkan: " + inst.error + " (is a Vulkan driver installed? e.g. Debian's mesa-vulkan-drivers)");
  return inst.handles.instance;
}

std::vector<VkPhysicalDevice> physical_devices() {
  VkInstance inst = instance();
  std::uint32_t n = 0;
  check(vkEnumeratePhysicalDevices(inst, &n, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> all(n);
  check(vkEnumeratePhysicalDevices(inst, &n, all.data()), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> out;
  for (VkPhysicalDevice pd : all)
    if (compute_family(pd) != UINT32_MAX) out.push_back(pd);
  return out;
}

std::string uuid_text(const std::uint8_t* bytes) {
  static const char* const hex = "0123456789abcdef";
  std::string s(2 * VK_UUID_SIZE, '0');
  for (std::size_t i = 0; i < VK_UUID_SIZE; ++i) s[2 * i] = hex[bytes[i] >> 4], s[2 * i + 1] = hex[bytes[i] & 15];
  return s;
}

DeviceInfo describe(VkPhysicalDevice pd, int index) {
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  sub.pNext = &ids;
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  p2.pNext = &sub;
  vkGetPhysicalDeviceProperties2(pd, &p2);
  const VkPhysicalDeviceProperties& p = p2.properties;
  DeviceInfo info;
  info.index = index;
  info.name = p.deviceName;
  switch (p.deviceType) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: info.type = "discrete"; break;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: info.type = "integrated"; break;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: info.type = "virtual"; break;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: info.type = "cpu"; break;
    default: info.type = "other";
  }
  info.api_version = std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                     std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + "." +
                     std::to_string(VK_API_VERSION_PATCH(p.apiVersion));
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (std::uint32_t h = 0; h < mem.memoryHeapCount; ++h)
    if (mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      info.memory_bytes = std::max<std::uint64_t>(info.memory_bytes, mem.memoryHeaps[h].size);
  info.max_shared_memory = p.limits.maxComputeSharedMemorySize;
  info.subgroup_size = sub.subgroupSize;
  info.max_storage_buffer_range = p.limits.maxStorageBufferRange;
  info.uuid = uuid_text(ids.deviceUUID);
  return info;
}

}  // namespace fastblur::vk
