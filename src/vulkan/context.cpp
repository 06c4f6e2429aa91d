#include "vulkan/context.hpp"

#include <algorithm>
#include <cstring>

#include "fastblur/error.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

// The instance lives for the process: drivers (lavapipe included) dislike instances destroyed
// and re-created while other threads use them.
struct Instance {
  VkInstance handle = VK_NULL_HANDLE;
  VkResult result = VK_SUCCESS;
  Instance() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "fastblur";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    result = vkCreateInstance(&ci, nullptr, &handle);
  }
  ~Instance() {
    if (handle) vkDestroyInstance(handle, nullptr);
  }
};

std::uint32_t timestamp_bits(VkPhysicalDevice pd, std::uint32_t family) {
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
  return family < n ? families[family].timestampValidBits : 0;
}

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
  static Instance inst;
  if (inst.result != VK_SUCCESS)
    throw DeviceError(std::string("no Vulkan: creating an instance failed with ") + result_name(inst.result) +
                      " (is a Vulkan driver installed? e.g. Debian's mesa-vulkan-drivers)");
  return inst.handle;
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

DeviceInfo describe(VkPhysicalDevice pd, int index) {
  VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
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
  return info;
}

Context::Context(int index) {
  const auto devices = physical_devices();
  if (devices.empty()) throw DeviceError("no Vulkan device with a compute queue");
  if (index < 0 || index >= static_cast<int>(devices.size()))
    throw DeviceError("Vulkan device " + std::to_string(index) + " does not exist: there are " +
                      std::to_string(devices.size()) + " (see `fastblur devices`)");
  physical_ = devices[static_cast<std::size_t>(index)];
  info_ = describe(physical_, index);
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
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = &enabled;
  check(vkCreateDevice(physical_, &dci, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
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
  std::uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, families.data());
  if (queue_family >= n || !(families[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    throw InvalidArgument("adopting a Vulkan device: queue family " + std::to_string(queue_family) +
                          " does not support compute");
  info_ = describe(physical_, -1);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  limits_ = props.limits;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  create_own_objects();
}

void Context::create_own_objects() {
  timestamp_period_ = limits_.timestampPeriod;
  timestamp_bits_ = timestamp_bits(physical_, queue_family_);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queue_family_;
  VkPipelineCacheCreateInfo cci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  try {
    check(vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
    check(vkCreatePipelineCache(device_, &cci, nullptr, &cache_), "vkCreatePipelineCache");
  } catch (...) {
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
    throw;
  }
}

Context::~Context() {
  vkDeviceWaitIdle(device_);
  pipelines_.clear();
  if (linear_sampler_) vkDestroySampler(device_, linear_sampler_, nullptr);
  vkDestroyPipelineCache(device_, cache_, nullptr);
  vkDestroyCommandPool(device_, pool_, nullptr);
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

VkCommandBuffer Context::begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device_, &ai, &cb), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  const VkResult r = vkBeginCommandBuffer(cb, &bi);
  if (r != VK_SUCCESS) vkFreeCommandBuffers(device_, pool_, 1, &cb);
  check(r, "vkBeginCommandBuffer");
  return cb;
}

void Context::abandon(VkCommandBuffer cb) {
  std::lock_guard<std::mutex> lock(mutex_);
  vkEndCommandBuffer(cb);
  vkFreeCommandBuffers(device_, pool_, 1, &cb);
}

void Context::submit_and_wait(VkCommandBuffer cb) {
  std::lock_guard<std::mutex> lock(mutex_);
  VkFence fence = VK_NULL_HANDLE;
  VkResult r = vkEndCommandBuffer(cb);
  if (r == VK_SUCCESS) {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    r = vkCreateFence(device_, &fci, nullptr, &fence);
  }
  if (r == VK_SUCCESS) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    r = vkQueueSubmit(queue_, 1, &si, fence);
    if (r == VK_SUCCESS) r = vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
  }
  if (fence) vkDestroyFence(device_, fence, nullptr);
  vkFreeCommandBuffers(device_, pool_, 1, &cb);
  check(r, "running the blur's commands");
}

const ComputePipeline& Context::pipeline(const std::string& name, const std::vector<std::uint32_t>& spirv,
                                         const std::vector<std::uint32_t>& spec,
                                         const std::vector<VkDescriptorType>& bindings, std::uint32_t push_bytes) {
  std::string key = name;
  for (std::uint32_t v : spec) key += ":" + std::to_string(v);
  key += "|";
  for (VkDescriptorType t : bindings) key += std::to_string(static_cast<int>(t)) + ",";
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = pipelines_.find(key);
  if (it == pipelines_.end())
    it = pipelines_.emplace(key, std::make_unique<ComputePipeline>(device_, cache_, spirv, spec, bindings, push_bytes)).first;
  return *it->second;
}

std::shared_ptr<Context> context_for(int index) {
  (void)instance();  // constructed before `contexts`, so destroyed after every device at exit
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<Context>> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = contexts[index];
  if (!slot) slot = std::make_shared<Context>(index);
  return slot;
}

}  // namespace fastblur::vk
