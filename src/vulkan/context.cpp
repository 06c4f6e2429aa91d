#include "vulkan/context.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fastblur/error.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/image.hpp"
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
  interleave_scratch_ = info_.type != "cpu";
  idle_budget_ = idle_budget_for(info_.type, info_.memory_bytes);
  timestamp_period_ = limits_.timestampPeriod;
  timestamp_bits_ = timestamp_bits(physical_, queue_family_);
  load_pipeline_cache();
}

namespace {

// Where compiled pipelines persist between processes: $XDG_CACHE_HOME/fastblur (or
// ~/.cache/fastblur), one file per device and driver build; empty where neither is set.
std::string cache_file(const VkPhysicalDeviceProperties& p) {
  std::string dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::string(x) + "/fastblur";
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.cache/fastblur";
  else return {};
  char name[160];
  std::snprintf(name, sizeof name, "/pipelines-%04x-%04x-%08x-", p.vendorID, p.deviceID, p.driverVersion);
  std::string out = dir + name;
  for (std::uint8_t b : p.pipelineCacheUUID) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    out += hex;
  }
  return out + ".bin";
}

}  // namespace

void Context::load_pipeline_cache() {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  cache_path_ = cache_file(props);
  std::vector<char> data;
  if (!cache_path_.empty()) {
    std::ifstream in(cache_path_, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The header (size, version, vendor, device, cache UUID) is checked here too: a stale or damaged
  // file is ignored rather than handed to a driver that might trust it.
  const std::size_t header = 16 + VK_UUID_SIZE;
  bool usable = data.size() >= header;
  if (usable) {
    std::uint32_t h[4];
    std::memcpy(h, data.data(), sizeof h);
    usable = h[0] >= header && h[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && h[2] == props.vendorID &&
             h[3] == props.deviceID && std::memcmp(data.data() + 16, props.pipelineCacheUUID, VK_UUID_SIZE) == 0;
  }
  VkPipelineCacheCreateInfo cci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  if (usable) {
    cci.initialDataSize = data.size();
    cci.pInitialData = data.data();
  }
  check(vkCreatePipelineCache(device_, &cci, nullptr, &cache_), "vkCreatePipelineCache");
}

void Context::save_pipeline_cache() noexcept {
  if (cache_path_.empty() || pipelines_created_.load() == 0) return;  // nothing new to keep
  std::size_t size = 0;
  if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) != VK_SUCCESS) return;
  std::error_code ec;
  const std::filesystem::path path(cache_path_);
  std::filesystem::create_directories(path.parent_path(), ec);
  // Written beside and renamed: another process reading it sees the old file or the new one.
  const std::filesystem::path temp = path.string() + ".tmp" + std::to_string(reinterpret_cast<std::uintptr_t>(this));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(size));
    if (!out) {
      out.close();
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) std::filesystem::remove(temp, ec);
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

namespace {
constexpr std::uint32_t kSetsPerPool = 64;
}  // namespace

std::uint64_t idle_budget_for(const std::string& device_type, std::uint64_t device_memory_bytes) noexcept {
  constexpr std::uint64_t GiB = 1ull << 30;
  if (device_type == "cpu") return GiB;
  return std::clamp<std::uint64_t>(device_memory_bytes / 8, GiB, 16 * GiB);
}

std::unique_ptr<Context::Frame> Context::take_frame() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_frames_.empty()) {
      auto f = std::move(free_frames_.back());
      free_frames_.pop_back();
      return f;
    }
  }
  return std::make_unique<Frame>();
}

void Context::give_back(std::unique_ptr<Frame> f) noexcept {
  if (!f) return;
  if (f->pool) vkResetCommandPool(device_, f->pool, 0);
  for (std::size_t i = 0; i < f->pools_used && i < f->descriptor_pools.size(); ++i)
    vkResetDescriptorPool(device_, f->descriptor_pools[i], 0);
  f->pools_used = 0;
  f->sets_left = 0;
  if (f->parts_used) vkResetFences(device_, static_cast<std::uint32_t>(f->parts_used), f->part_fences.data());
  f->parts_used = 0;
  std::lock_guard<std::mutex> lock(mutex_);
  free_frames_.push_back(std::move(f));
}

void Context::destroy_frame(Frame& f) noexcept {
  for (VkDescriptorPool p : f.descriptor_pools) vkDestroyDescriptorPool(device_, p, nullptr);
  if (f.queries) vkDestroyQueryPool(device_, f.queries, nullptr);
  if (f.fence) vkDestroyFence(device_, f.fence, nullptr);
  for (VkFence fence : f.part_fences) vkDestroyFence(device_, fence, nullptr);
  if (f.pool) vkDestroyCommandPool(device_, f.pool, nullptr);  // frees its command buffer
}

VkCommandBuffer Context::begin(Frame& f) {
  if (!f.pool) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pci.queueFamilyIndex = queue_family_;
    check(vkCreateCommandPool(device_, &pci, nullptr, &f.pool), "vkCreateCommandPool");
    count_object();
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = f.pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device_, &ai, &f.cb), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device_, &fci, nullptr, &f.fence), "vkCreateFence");
    count_object();
  }
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(f.cb, &bi), "vkBeginCommandBuffer");
  return f.cb;
}

VkDescriptorSet Context::descriptor_set(Frame& f, VkDescriptorSetLayout layout) {
  if (f.sets_left == 0) {
    if (f.pools_used == f.descriptor_pools.size()) {
      const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool * 6},
                                            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kSetsPerPool * 2},
                                            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSetsPerPool * 2}};
      VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      ci.maxSets = kSetsPerPool;
      ci.poolSizeCount = 3;
      ci.pPoolSizes = sizes;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      check(vkCreateDescriptorPool(device_, &ci, nullptr, &pool), "vkCreateDescriptorPool");
      count_object();
      f.descriptor_pools.push_back(pool);
    }
    ++f.pools_used;
    f.sets_left = kSetsPerPool;
  }
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = f.descriptor_pools[f.pools_used - 1];
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(vkAllocateDescriptorSets(device_, &ai, &set), "vkAllocateDescriptorSets");
  --f.sets_left;
  return set;
}

VkQueryPool Context::query_pool(Frame& f, std::uint32_t count) {
  if (!f.queries) {
    VkQueryPoolCreateInfo ci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    ci.queryCount = count;
    check(vkCreateQueryPool(device_, &ci, nullptr, &f.queries), "vkCreateQueryPool");
    count_object();
  }
  return f.queries;
}

VkCommandBuffer Context::submit_part(Frame& f, VkCommandBuffer cb, VkFence& fence) {
  check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  if (f.parts_used == f.part_fences.size()) {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence made = VK_NULL_HANDLE;
    check(vkCreateFence(device_, &fci, nullptr, &made), "vkCreateFence");
    count_object();
    f.part_fences.push_back(made);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = f.pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer next = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device_, &ai, &next), "vkAllocateCommandBuffers");
    f.part_cbs.push_back(next);
  }
  fence = f.part_fences[f.parts_used];
  VkCommandBuffer next = f.part_cbs[f.parts_used];
  ++f.parts_used;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    r = vkQueueSubmit(queue_, 1, &si, fence);
  }
  check(r, "submitting the blur's commands");
  // The buffers rotate: the one submitted takes the spare's slot, the spare becomes the frame's
  // current one (the one submit_and_wait submits last).
  f.part_cbs[f.parts_used - 1] = cb;
  f.cb = next;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(f.cb, &bi), "vkBeginCommandBuffer");
  return f.cb;
}

void Context::wait(VkFence fence) {
  check(vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX), "running the blur's commands");
}

void Context::submit_and_wait(Frame& f) {
  check(vkEndCommandBuffer(f.cb), "vkEndCommandBuffer");
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &f.cb;
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    r = vkQueueSubmit(queue_, 1, &si, f.fence);
  }
  check(r, "submitting the blur's commands");
  r = vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX);
  if (r == VK_SUCCESS) r = vkResetFences(device_, 1, &f.fence);
  check(r, "running the blur's commands");
}

std::unique_ptr<Buffer> Context::take_buffer(std::uint64_t bytes, int kind) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t best = free_buffers_.size();
    for (std::size_t i = 0; i < free_buffers_.size(); ++i) {
      const Buffer& b = *free_buffers_[i];
      if (static_cast<int>(b.kind()) != kind || b.size() < bytes || b.size() > 2 * bytes + 4096) continue;
      if (best == free_buffers_.size() || b.size() < free_buffers_[best]->size()) best = i;
    }
    if (best != free_buffers_.size()) {
      auto b = std::move(free_buffers_[best]);
      free_buffers_.erase(free_buffers_.begin() + static_cast<std::ptrdiff_t>(best));
      idle_bytes_ -= b->size();
      return b;
    }
  }
  return std::make_unique<Buffer>(*this, bytes, static_cast<Buffer::Kind>(kind));
}

void Context::give_back(std::unique_ptr<Buffer> b) noexcept {
  if (!b) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (b->size() > idle_budget_) return;  // freed here, as it goes out of scope
  free_buffers_.push_back(std::move(b));
  idle_bytes_ += free_buffers_.back()->size();
  while (idle_bytes_ > idle_budget_) {  // the oldest go first
    idle_bytes_ -= free_buffers_.front()->size();
    free_buffers_.erase(free_buffers_.begin());
  }
}

std::unique_ptr<Image> Context::take_image(VkFormat format, std::uint32_t width, std::uint32_t height,
                                           std::uint32_t levels) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < free_images_.size(); ++i) {
      const Image& im = *free_images_[i];
      if (im.format() == format && im.width() == width && im.height() == height && im.levels() == levels) {
        auto out = std::move(free_images_[i]);
        free_images_.erase(free_images_.begin() + static_cast<std::ptrdiff_t>(i));
        return out;
      }
    }
  }
  return std::make_unique<Image>(*this, format, width, height, levels);
}

void Context::give_back(std::unique_ptr<Image> im) noexcept {
  if (!im) return;
  std::lock_guard<std::mutex> lock(mutex_);
  free_images_.push_back(std::move(im));
  if (free_images_.size() > 32) free_images_.erase(free_images_.begin());
}

const ComputePipeline& Context::pipeline(const std::string& name, const std::vector<std::uint32_t>& spirv,
                                         const std::vector<std::uint32_t>& spec,
                                         const std::vector<VkDescriptorType>& bindings, std::uint32_t push_bytes) {
  std::string key = name;
  for (std::uint32_t v : spec) key += ":" + std::to_string(v);
  key += "|";
  for (VkDescriptorType t : bindings) key += std::to_string(static_cast<int>(t)) + ",";
  std::lock_guard<std::mutex> lock(pipelines_mutex_);  // not the free lists': a compile stalls no other job
  auto it = pipelines_.find(key);
  if (it == pipelines_.end()) {
    it = pipelines_.emplace(key, std::make_unique<ComputePipeline>(device_, cache_, spirv, spec, bindings, push_bytes)).first;
    ++pipelines_created_;
  }
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
