// A Vulkan layer for machines whose driver cannot export timeline semaphores (lavapipe), so that CI
// runs the CUDA-array path's semaphore handoff (CudaHandoff::semaphores, src/cuda_arrays.cpp) end to
// end with the stand-in CUDA driver (tests/python/fake_cuda_driver.cpp), as NVIDIA's driver runs it
// with CUDA. Where the driver has VK_KHR_external_semaphore_fd itself, every call passes through.
//
// Otherwise the layer offers VK_KHR_external_semaphore_fd: it reports opaque file descriptors as
// exportable, creates semaphores without the export request the driver would refuse, and answers
// vkGetSemaphoreFdKHR with a memory file holding the device and semaphore handles (StandInSemaphore).
// The stand-in CUDA driver reads them and signals and waits on the semaphore from the host with
// vkSignalSemaphoreKHR / vkWaitSemaphoresKHR through the loader, so the validation layer (which the
// loader places below this one: VK_INSTANCE_LAYERS come before the application's layers) sees
// every operation.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "vulkan/stand_in_semaphore.hpp"

namespace {

constexpr const char* kLayerName = "VK_LAYER_FASTBLUR_stand_in_semaphore_export";

void* key(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

// The next layer's entry points, resolved once the instance exists.
struct InstanceData {
  PFN_vkGetInstanceProcAddr next = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkEnumerateDeviceExtensionProperties enumerate = nullptr;
  PFN_vkGetPhysicalDeviceExternalSemaphoreProperties semaphore_properties = nullptr;
  PFN_vkCreateDevice create_device = nullptr;
  PFN_vkDestroyInstance destroy = nullptr;
};

struct DeviceData {
  PFN_vkGetDeviceProcAddr next = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  bool stand_in = false;  // the driver lacks the extension: this layer provides it
  PFN_vkCreateSemaphore create_semaphore = nullptr;
  PFN_vkDestroyDevice destroy_device = nullptr;
};

std::mutex mutex;
std::unordered_map<void*, InstanceData> instances;
std::unordered_map<void*, DeviceData> devices;

InstanceData instance_of(const void* handle) {
  std::lock_guard<std::mutex> lock(mutex);
  return instances.at(key(handle));
}

DeviceData device_of(const void* handle) {
  std::lock_guard<std::mutex> lock(mutex);
  return devices.at(key(handle));
}

// Whether the driver below exports timeline semaphores as opaque file descriptors itself.
bool driver_exports(VkPhysicalDevice pd) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
  info.pNext = &type;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkExternalSemaphoreProperties props{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  instance_of(pd).semaphore_properties(pd, &info, &props);
  return (props.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT) != 0;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* chain = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(info->pNext));
  while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
    chain = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(chain->pNext));
  if (!chain) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next = chain->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  const VkResult r = create(info, allocator, instance);
  if (r != VK_SUCCESS) return r;
  InstanceData d{next, *instance};
  d.enumerate = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(next(*instance, "vkEnumerateDeviceExtensionProperties"));
  d.semaphore_properties = reinterpret_cast<PFN_vkGetPhysicalDeviceExternalSemaphoreProperties>(
      next(*instance, "vkGetPhysicalDeviceExternalSemaphoreProperties"));
  d.create_device = reinterpret_cast<PFN_vkCreateDevice>(next(*instance, "vkCreateDevice"));
  d.destroy = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
  std::lock_guard<std::mutex> lock(mutex);
  instances[key(*instance)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  void* const k = key(instance);  // read before the handle's memory goes
  instance_of(instance).destroy(instance, allocator);
  std::lock_guard<std::mutex> lock(mutex);
  instances.erase(k);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char* layer, std::uint32_t* count,
                                                                  VkExtensionProperties* properties) {
  static const VkExtensionProperties ours{VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_SPEC_VERSION};
  if (layer && std::strcmp(layer, kLayerName) == 0) {
    if (!properties) return *count = 1, VK_SUCCESS;
    if (*count < 1) return VK_INCOMPLETE;
    properties[0] = ours, *count = 1;
    return VK_SUCCESS;
  }
  const PFN_vkEnumerateDeviceExtensionProperties enumerate = instance_of(pd).enumerate;
  if (layer || driver_exports(pd)) return enumerate(pd, layer, count, properties);
  std::uint32_t n = 0;
  VkResult r = enumerate(pd, nullptr, &n, nullptr);
  if (r != VK_SUCCESS) return r;
  std::vector<VkExtensionProperties> all(n);
  r = enumerate(pd, nullptr, &n, all.data());
  if (r != VK_SUCCESS) return r;
  all.resize(n);
  all.push_back(ours);
  if (!properties) return *count = static_cast<std::uint32_t>(all.size()), VK_SUCCESS;
  const std::uint32_t copied = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(all.size()));
  std::memcpy(properties, all.data(), copied * sizeof(VkExtensionProperties));
  *count = copied;
  return copied < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(VkPhysicalDevice pd,
                                                                        const VkPhysicalDeviceExternalSemaphoreInfo* info,
                                                                        VkExternalSemaphoreProperties* properties) {
  if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT || driver_exports(pd))
    return instance_of(pd).semaphore_properties(pd, info, properties);
  properties->exportFromImportedHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  properties->compatibleHandleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  properties->externalSemaphoreFeatures =
      VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* chain = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(info->pNext));
  while (chain && !(chain->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && chain->function == VK_LAYER_LINK_INFO))
    chain = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(chain->pNext));
  if (!chain) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetDeviceProcAddr next_device = chain->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  chain->u.pLayerInfo = chain->u.pLayerInfo->pNext;
  const bool stand_in = !driver_exports(pd);
  // The driver is not asked for the extension this layer provides.
  std::vector<const char*> extensions;
  for (std::uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    if (!stand_in || std::strcmp(info->ppEnabledExtensionNames[i], VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) != 0)
      extensions.push_back(info->ppEnabledExtensionNames[i]);
  VkDeviceCreateInfo below = *info;
  below.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  below.ppEnabledExtensionNames = extensions.data();
  const VkResult r = instance_of(pd).create_device(pd, &below, allocator, device);
  if (r != VK_SUCCESS) return r;
  DeviceData d;
  d.next = next_device;
  d.device = *device;
  d.stand_in = stand_in;
  d.create_semaphore = reinterpret_cast<PFN_vkCreateSemaphore>(next_device(*device, "vkCreateSemaphore"));
  d.destroy_device = reinterpret_cast<PFN_vkDestroyDevice>(next_device(*device, "vkDestroyDevice"));
  std::lock_guard<std::mutex> lock(mutex);
  devices[key(*device)] = d;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  void* const k = key(device);  // read before the handle's memory goes
  device_of(device).destroy_device(device, allocator);
  std::lock_guard<std::mutex> lock(mutex);
  devices.erase(k);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* info,
                                               const VkAllocationCallbacks* allocator, VkSemaphore* semaphore) {
  const DeviceData d = device_of(device);
  if (!d.stand_in) return d.create_semaphore(device, info, allocator, semaphore);
  // Without the export request (which the driver would refuse): only VkSemaphoreTypeCreateInfo
  // travels on, the one other structure fastblur chains.
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) type = *reinterpret_cast<const VkSemaphoreTypeCreateInfo*>(s);
  type.pNext = nullptr;
  VkSemaphoreCreateInfo below = *info;
  below.pNext = type.semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE ? &type : nullptr;
  return d.create_semaphore(device, &below, allocator, semaphore);
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR* info, int* fd) {
  const DeviceData d = device_of(device);
  if (!d.stand_in)
    return reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(d.next(device, "vkGetSemaphoreFdKHR"))(device, info, fd);
  if (info->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  const fastblur::test::StandInSemaphore record{fastblur::test::kStandInSemaphoreMagic, reinterpret_cast<std::uint64_t>(device),
                                                reinterpret_cast<std::uint64_t>(info->semaphore)};
  const int file = memfd_create("fastblur-stand-in-semaphore", MFD_CLOEXEC);
  if (file < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  if (write(file, &record, sizeof record) != static_cast<ssize_t>(sizeof record)) {
    close(file);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *fd = file;
  return VK_SUCCESS;
}

PFN_vkVoidFunction ours(const char* name) {
  struct Entry {
    const char* name;
    PFN_vkVoidFunction f;
  };
  static const Entry table[] = {
      {"vkCreateInstance", reinterpret_cast<PFN_vkVoidFunction>(CreateInstance)},
      {"vkDestroyInstance", reinterpret_cast<PFN_vkVoidFunction>(DestroyInstance)},
      {"vkEnumerateDeviceExtensionProperties", reinterpret_cast<PFN_vkVoidFunction>(EnumerateDeviceExtensionProperties)},
      {"vkGetPhysicalDeviceExternalSemaphoreProperties",
       reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceExternalSemaphoreProperties)},
      {"vkGetPhysicalDeviceExternalSemaphorePropertiesKHR",
       reinterpret_cast<PFN_vkVoidFunction>(GetPhysicalDeviceExternalSemaphoreProperties)},
      {"vkCreateDevice", reinterpret_cast<PFN_vkVoidFunction>(CreateDevice)},
      {"vkDestroyDevice", reinterpret_cast<PFN_vkVoidFunction>(DestroyDevice)},
      {"vkCreateSemaphore", reinterpret_cast<PFN_vkVoidFunction>(CreateSemaphore)},
      {"vkGetSemaphoreFdKHR", reinterpret_cast<PFN_vkVoidFunction>(GetSemaphoreFdKHR)},
  };
  for (const Entry& e : table)
    if (std::strcmp(e.name, name) == 0) return e.f;
  return nullptr;
}

bool device_level(const char* name) {
  return std::strcmp(name, "vkDestroyDevice") == 0 || std::strcmp(name, "vkCreateSemaphore") == 0 ||
         std::strcmp(name, "vkGetSemaphoreFdKHR") == 0;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetInstanceProcAddr);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  if (PFN_vkVoidFunction f = ours(name)) return f;
  if (!instance) return nullptr;
  return instance_of(instance).next(instance, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(GetDeviceProcAddr);
  if (device_level(name)) return ours(name);
  return device_of(device).next(device, name);
}

}  // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
