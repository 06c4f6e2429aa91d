#pragma once
// One Vulkan device in use: instance, physical device, logical device, a compute queue, a command
// pool, a pipeline cache and samplers, each owned here and destroyed in reverse order. Shared
// (shared_ptr) by Device handles and by the buffers, images and pipelines made from it. A context
// can also adopt a caller's device and queue: it then creates only its own objects (pool, cache,
// pipelines, samplers) and never destroys the caller's handles.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fastblur/device.hpp"

namespace fastblur::vk {

class ComputePipeline;

/// The Vulkan instance of the process (created on first use, kept for the process's life).
VkInstance instance();
/// The physical devices with a compute queue, in the loader's order.
std::vector<VkPhysicalDevice> physical_devices();
DeviceInfo describe(VkPhysicalDevice device, int index);

class Context {
 public:
  /// Opens the physical device `index` (of physical_devices()).
  explicit Context(int index);
  /// Adopts the caller's device and a queue of `queue_family` (which must support compute). The
  /// caller keeps ownership and must keep them alive longer than this context, and must not use
  /// the queue from another thread while a blur runs on it (Vulkan's rule for queues).
  /// `float64_enabled`: whether the caller enabled shaderFloat64 on the device.
  Context(VkPhysicalDevice physical, VkDevice device, VkQueue queue, std::uint32_t queue_family,
          bool float64_enabled);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkDevice device() const noexcept { return device_; }
  VkPhysicalDevice physical() const noexcept { return physical_; }
  const DeviceInfo& info() const noexcept { return info_; }
  VkPhysicalDeviceLimits limits() const noexcept { return limits_; }
  std::uint32_t queue_family() const noexcept { return queue_family_; }
  bool adopted() const noexcept { return !owns_device_; }

  /// Whether images of `format` can be sampled with linear filtering / written as storage images.
  bool can_filter_linear(VkFormat format) const;
  bool can_store(VkFormat format) const;
  /// A sampler with linear filtering (and linear mip blending), clamp-to-edge addressing and
  /// unnormalised = false, made once.
  VkSampler linear_sampler();

  /// The largest buffer one piece of an image may use: the storage-buffer range, or less when set
  /// by set_piece_limit (tests use it to exercise tiling on small images).
  std::uint64_t piece_limit() const noexcept;
  void set_piece_limit(std::uint64_t bytes) noexcept { piece_limit_override_ = bytes; }

  /// Nanoseconds per timestamp tick, and whether the compute queue writes timestamps at all.
  double timestamp_period_ns() const noexcept { return timestamp_period_; }
  bool has_timestamps() const noexcept { return timestamp_bits_ != 0; }
  /// Whether shaders may use double (shaderFloat64 enabled on the device).
  bool has_float64() const noexcept { return float64_; }
  /// Stops using double in shaders (tests run the float32 variants on devices with float64).
  void set_float64(bool use) noexcept { float64_ = use && float64_supported_; }

  /// Primary command buffers from this context's pool: begin one, then submit it and wait (or
  /// abandon it). Serialised on the queue; submit_and_wait throws DeviceError (device lost, ...).
  VkCommandBuffer begin();
  void abandon(VkCommandBuffer cb);
  void submit_and_wait(VkCommandBuffer cb);

  /// A memory type index with `required` properties among `type_bits` (preferring `preferred`
  /// too), or throws Unsupported.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;

  /// Records with `record` into a fresh primary command buffer, submits it and waits. Serialised
  /// on the queue; throws DeviceError (device lost, ...) on failure.
  template <class F>
  void run(F&& record) {
    VkCommandBuffer cb = begin();
    try {
      record(cb);
    } catch (...) {
      abandon(cb);
      throw;
    }
    submit_and_wait(cb);
  }

  /// The compute pipeline for a shader, its specialization constants and descriptor types,
  /// built once and kept.
  const ComputePipeline& pipeline(const std::string& name, const std::vector<std::uint32_t>& spirv,
                                  const std::vector<std::uint32_t>& specialization,
                                  const std::vector<VkDescriptorType>& bindings, std::uint32_t push_bytes);

 private:
  void create_own_objects();

  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkPhysicalDeviceLimits limits_{};
  DeviceInfo info_;
  bool owns_device_ = true;
  VkSampler linear_sampler_ = VK_NULL_HANDLE;
  std::uint64_t piece_limit_override_ = 0;
  double timestamp_period_ = 1.0;
  std::uint32_t timestamp_bits_ = 0;
  bool float64_ = false, float64_supported_ = false;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<ComputePipeline>> pipelines_;
};

/// The shared context of device `index`, opened once per process.
std::shared_ptr<Context> context_for(int index);

/// The queue family of `device` that supports compute, or UINT32_MAX.
std::uint32_t compute_family(VkPhysicalDevice device);

}  // namespace fastblur::vk
