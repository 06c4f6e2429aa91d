#pragma once
// One Vulkan device in use: instance, physical device, logical device, a compute queue, a command
// pool, a pipeline cache and samplers, each owned here and destroyed in reverse order. Shared
// (shared_ptr) by Device handles and by the buffers, images and pipelines made from it. A context
// can also adopt a caller's device and queue: it then creates only its own objects (pool, cache,
// pipelines, samplers) and never destroys the caller's handles.
//
// One class, defined by concern: context.cpp (opening or adopting the device, its capabilities,
// teardown), context_frames.cpp (job frames and queue submission), context_pool.cpp (buffers and
// images kept for reuse), context_pipelines.cpp (pipeline cache in memory and on disk),
// context_registry.cpp (context_for); the instance and device list are context_devices.hpp's.
#include "vulkan/loader.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fastblur/device.hpp"
#include "vulkan/context_devices.hpp"

namespace fastblur::algo {
struct GpuProfile;
}

namespace fastblur::vk {

class ComputePipeline;
class Buffer;
class Image;

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
  /// The bits of a timestamp the queue family says are valid (timestampValidBits); the rest are
  /// undefined and must be masked off before two timestamps are subtracted.
  std::uint64_t timestamp_mask() const noexcept {
    return timestamp_bits_ >= 64 ? ~0ull : (1ull << timestamp_bits_) - 1;
  }
  /// The device's measured profile (algorithms/gpu_profile.hpp; null: the planner's model), found by
  /// its name when the context is made; tests set one of their own.
  std::shared_ptr<const algo::GpuProfile> profile() const { return profile_; }
  void set_profile(std::shared_ptr<const algo::GpuProfile> profile) { profile_ = std::move(profile); }
  /// Whether shaders may use double (shaderFloat64 enabled on the device).
  bool has_float64() const noexcept { return float64_; }
  /// Stops using double in shaders (tests run the float32 variants on devices with float64).
  void set_float64(bool use) noexcept { float64_ = use && float64_supported_; }
  /// vkGetMemoryFdKHR where the device was opened with VK_KHR_external_memory_fd (a device fastblur
  /// opened, on a driver that has it); null otherwise. CUDA arrays travel through such memory
  /// (Buffer::Kind::exported).
  PFN_vkGetMemoryFdKHR get_memory_fd() const noexcept { return get_memory_fd_; }
  /// vkGetSemaphoreFdKHR where the device was opened with timeline semaphores exportable as opaque
  /// file descriptors (VK_KHR_timeline_semaphore, VK_KHR_external_semaphore_fd); null otherwise.
  /// CUDA arrays are then ordered with the caller's stream by a SharedTimeline, not host waits.
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd() const noexcept { return get_semaphore_fd_; }


  /// What a job records into and submits with: a command pool of its own (so jobs on several
  /// threads never share one), its command buffer, a fence, descriptor pools and a timestamp query
  /// pool, each made on first need. Frames are kept by the context and reused, reset, by later jobs.
  struct Frame {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    // A job submitted in parts (Job::submit_part): the parts' command buffers and fences, made on
    // first need and reused.
    std::vector<VkCommandBuffer> part_cbs;
    std::vector<VkFence> part_fences;
    std::size_t parts_used = 0;
    std::vector<VkDescriptorPool> descriptor_pools;
    std::size_t pools_used = 0;
    std::uint32_t sets_left = 0;
    VkQueryPool queries = VK_NULL_HANDLE;
  };
  std::unique_ptr<Frame> take_frame();
  /// Resets the frame (its command buffer must not be pending) and keeps it for the next job.
  void give_back(std::unique_ptr<Frame> frame) noexcept;
  /// Begins the frame's command buffer (making its pool and buffer on first use).
  VkCommandBuffer begin(Frame& frame);
  /// A descriptor set of `layout` from the frame's pools (a new pool only where they are used up).
  VkDescriptorSet descriptor_set(Frame& frame, VkDescriptorSetLayout layout);
  /// The frame's timestamp query pool of `count` queries.
  VkQueryPool query_pool(Frame& frame, std::uint32_t count);
  /// A semaphore operation of a submission: a timeline semaphore and its value.
  struct TimelinePoint {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    std::uint64_t value = 0;
  };
  /// Ends and submits the frame's command buffer without waiting: it starts once `wait` reaches its
  /// value (a null semaphore: at once) and, done, sets `signal` to its value (if not null) and the
  /// frame's fence. finish() waits for it.
  void submit(Frame& frame, TimelinePoint wait, TimelinePoint signal);
  /// Waits for the fence of a submit() and resets it for the frame's next use.
  void finish(Frame& frame);
  /// Ends, submits and waits for the frame's command buffer. Only the submission holds the queue's
  /// lock; the wait holds none, so other threads record, submit and build pipelines meanwhile.
  /// Throws DeviceError (device lost, ...).
  void submit_and_wait(Frame& frame);
  /// Ends `cb` (the frame's current command buffer) and submits it without waiting, signalling a
  /// fence of the frame's; begins and returns the frame's next command buffer. `fence` is that
  /// fence, for wait().
  VkCommandBuffer submit_part(Frame& frame, VkCommandBuffer cb, VkFence& fence);
  /// Waits for a fence submit_part gave (it stays signalled until the frame is given back).
  void wait(VkFence fence);

  /// A memory type index with `required` properties among `type_bits` (preferring `preferred`
  /// too), or throws Unsupported.
  std::uint32_t memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags required,
                            VkMemoryPropertyFlags preferred = 0) const;

  /// Device memory and buffers for one job, reused across calls: a free buffer of the same kind at
  /// least `bytes` and at most twice that large, or a new one. give_back keeps it for later jobs
  /// (up to a budget of idle bytes; beyond it the buffer is freed).
  std::unique_ptr<Buffer> take_buffer(std::uint64_t bytes, int kind);
  void give_back(std::unique_ptr<Buffer> buffer) noexcept;
  /// The same for the texture algorithms' images (same format, size and levels).
  std::unique_ptr<Image> take_image(VkFormat format, std::uint32_t width, std::uint32_t height, std::uint32_t levels);
  void give_back(std::unique_ptr<Image> image) noexcept;

  /// The backend's own counts of Vulkan work that costs per call when not pooled: device memory
  /// allocations, objects created (buffers, images, pools, fences, query pools, views) and pipelines
  /// created. After warm-up a repeated blur adds nothing to any of them.
  struct Counters {
    std::uint64_t memory_allocations = 0, objects_created = 0, pipelines_created = 0;
  };
  Counters counters() const noexcept {
    return {allocations_.load(), objects_.load(), pipelines_created_.load()};
  }
  void count_allocation() noexcept { ++allocations_; }
  void count_object() noexcept { ++objects_; }

  /// The compute pipeline for a shader, its specialization constants and descriptor types,
  /// built once and kept.
  const ComputePipeline& pipeline(const std::string& name, const std::vector<std::uint32_t>& spirv,
                                  const std::vector<std::uint32_t>& specialization,
                                  const std::vector<VkDescriptorType>& bindings, std::uint32_t push_bytes);
  /// Tests: while `into` is set, the name of every pipeline asked for (built or found) is appended
  /// there - what a recorder runs, to hold against what its plan names.
  void log_pipelines(std::vector<std::string>* into) {
    std::lock_guard<std::mutex> lock(pipelines_mutex_);
    pipeline_log_ = into;
  }

 private:
  void create_own_objects();

  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkPhysicalDeviceLimits limits_{};
  DeviceInfo info_;
  std::shared_ptr<const algo::GpuProfile> profile_;
  /// How long a fence wait polls before it sleeps in vkWaitForFences (set with info_).
  std::chrono::microseconds fence_spin_{0};
  /// The fence signalled (VK_SUCCESS) or the error: polled for fence_spin_, then slept on.
  VkResult wait_fence(VkFence fence);
  bool owns_device_ = true;
  VkSampler linear_sampler_ = VK_NULL_HANDLE;
  std::uint64_t piece_limit_override_ = 0;
  double timestamp_period_ = 1.0;
  std::uint32_t timestamp_bits_ = 0;
  bool float64_ = false, float64_supported_ = false;
  PFN_vkGetMemoryFdKHR get_memory_fd_ = nullptr;
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd_ = nullptr;
  std::mutex mutex_;            // the sampler and the free lists
  std::mutex pipelines_mutex_;  // pipelines_ (held while one compiles)
  std::vector<std::string>* pipeline_log_ = nullptr;  // log_pipelines
  std::mutex queue_mutex_;  // vkQueueSubmit (Vulkan's rule: a queue is used by one thread at a time)
  std::map<std::string, std::unique_ptr<ComputePipeline>> pipelines_;
  std::vector<std::unique_ptr<Frame>> free_frames_;
  std::vector<std::unique_ptr<Buffer>> free_buffers_;
  std::vector<std::unique_ptr<Image>> free_images_;
  std::uint64_t idle_bytes_ = 0, idle_budget_ = 1ull << 30;
  std::atomic<std::uint64_t> allocations_{0}, objects_{0}, pipelines_created_{0};
  void destroy_frame(Frame& frame) noexcept;
  void load_pipeline_cache();
  void save_pipeline_cache() noexcept;
  std::string cache_path_;
};

/// How many idle pooled bytes a context keeps for later calls: an eighth of a GPU's device-local
/// memory, from 1 GiB to 16 GiB, so that a call of a few GiB (512^3 float32 holds 2.5 GiB of
/// buffers) reuses its memory on the next call instead of allocating and pinning it again; 1 GiB on a
/// CPU device, whose "device" memory is the process's own.
std::uint64_t idle_budget_for(const std::string& device_type, std::uint64_t device_memory_bytes) noexcept;

/// The shared context of device `index`, opened once per process.
std::shared_ptr<Context> context_for(int index);

}  // namespace fastblur::vk
