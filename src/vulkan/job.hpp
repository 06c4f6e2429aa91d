#pragma once
// One blur's worth of GPU work: a command buffer being recorded (this context's, or a caller's),
// the descriptor sets, buffers and images it uses (kept alive until the job is done), and
// timestamps. Every dispatch is followed by a full compute/transfer barrier: the passes of a blur
// depend on each other.
#include "vulkan/loader.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"

namespace fastblur::vk {

class Context;
class ComputePipeline;
struct Work;

/// One descriptor of a dispatch, in binding order.
struct Binding {
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  VkBuffer buffer = VK_NULL_HANDLE;  ///< storage buffers
  VkDeviceSize offset = 0, range = VK_WHOLE_SIZE;
  VkImageView view = VK_NULL_HANDLE;  ///< sampled (combined with `sampler`) and storage images
  VkSampler sampler = VK_NULL_HANDLE;

  static Binding storage(const Buffer& b) { return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b.handle()}; }
  static Binding storage(VkBuffer b, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE) {
    return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b, offset, range};
  }
  /// A work image's floats, from its offset in its buffer.
  static Binding storage(const Work& w);
  static Binding sampled(VkImageView v, VkSampler s) {
    return {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_NULL_HANDLE, 0, VK_WHOLE_SIZE, v, s};
  }
  static Binding image(VkImageView v) { return {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE, 0, VK_WHOLE_SIZE, v}; }
};

/// Splits `count` workgroups over x and y (each at most 65535, the smallest limit Vulkan allows).
std::array<std::uint32_t, 3> spread_groups(std::uint64_t count);

class Job {
 public:
  /// Records into a fresh command buffer of the context; run() submits it and waits.
  explicit Job(std::shared_ptr<Context> context);
  /// Records into the caller's command buffer (already begun); the caller submits it and keeps
  /// the job alive until the GPU has finished with it.
  Job(std::shared_ptr<Context> context, VkCommandBuffer external);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  Context& context() const noexcept { return *context_; }
  VkCommandBuffer command_buffer() const noexcept { return cb_; }

  /// A buffer for the job (from the context's pool, given back when the job ends; it may be larger
  /// than asked).
  Buffer& buffer(std::uint64_t bytes, Buffer::Kind kind);
  /// An image for the job (pooled likewise), in VK_IMAGE_LAYOUT_GENERAL (the layout every pass uses).
  Image& image(VkFormat format, std::uint32_t width, std::uint32_t height, std::uint32_t levels = 1);

  /// Records a dispatch of `pipeline` with these bindings and push constants. Each dispatch or copy
  /// depends on the one before (a blur's passes form a chain): the barrier between them is recorded
  /// when the next command comes, from the previous command's stage and writes to exactly the next
  /// one's stage and accesses (compute -> compute, compute -> transfer, ...), and is left out where
  /// a host, outside or layout barrier already orders them.
  void dispatch(const ComputePipeline& pipeline, const std::vector<Binding>& bindings, const void* push,
                std::uint32_t push_bytes, std::array<std::uint32_t, 3> groups);
  template <class P>
  void dispatch(const ComputePipeline& pipeline, const std::vector<Binding>& bindings, const P& push,
                std::array<std::uint32_t, 3> groups) {
    dispatch(pipeline, bindings, &push, sizeof(P), groups);
  }
  /// Records a buffer copy (ordered after the previous command as dispatch() says).
  void copy(VkBuffer src, VkBuffer dst, VkDeviceSize bytes, VkDeviceSize src_offset = 0, VkDeviceSize dst_offset = 0);
  /// Records vkCmdUpdateBuffer: `bytes` (a multiple of 4, at most 65536) of `data`, kept in the
  /// command buffer, written to the start of `dst` (ordered as copy() is).
  void update(VkBuffer dst, const void* data, VkDeviceSize bytes);
  /// A barrier making the device's writes visible to the host (after the last download copy).
  void host_barrier();
  /// Barriers with the caller's work around a recording into its command buffer: earlier writes
  /// (compute, transfer, colour, host) visible to this job; this job's writes visible to what follows.
  void barrier_from_outside();
  void barrier_to_outside();
  /// A view of a caller's 2D image (owned by the job), for sampling or storage.
  VkImageView view_of(VkImage image, VkFormat format);
  /// Moves a caller's image between layouts (after all earlier work on it).
  void transition(VkImage image, VkImageLayout from, VkImageLayout to);

  /// Queue-family ownership of a caller's EXCLUSIVE resource (Vulkan's release/acquire pair; the
  /// caller records the other half on its queue of `owner`): acquire() takes it from `owner` to
  /// this context's family before the job's first use, release() gives it back after the last.
  /// Nothing is recorded where `owner` is VK_QUEUE_FAMILY_IGNORED or already this family.
  void acquire(VkBuffer buffer, std::uint32_t owner);
  void release(VkBuffer buffer, std::uint32_t owner);
  void acquire(VkImage image, VkImageLayout layout, std::uint32_t owner);
  void release(VkImage image, VkImageLayout layout, std::uint32_t owner);

  /// Writes a timestamp named `label` (no-op where the queue has no timestamps).
  void timestamp(const std::string& label);
  /// Submits what is recorded so far without waiting and goes on recording into a fresh command
  /// buffer, so the host can work (pack the next rows, read the rows downloaded) while the device
  /// runs the part (jobs of this context's own command buffer only). Returns the part's number for
  /// wait_part. Barriers reach across parts as across jobs (submission order).
  std::size_t submit_part();
  /// Waits until part `part` has run on the device.
  void wait_part(std::size_t part);
  /// Submits and waits (jobs of this context's own command buffer only).
  void run();
  /// Submits without waiting (jobs of this context's own command buffer only): the commands start
  /// once `wait` reaches its value and, done, set `signal` (null semaphores: none). finish() waits
  /// for them, as the destructor does where nobody did; the job's buffers stay the job's until then.
  void submit(Context::TimelinePoint wait, Context::TimelinePoint signal);
  /// After submit(): waits until the commands have run and reads the timestamps (as run() does).
  void finish();
  /// After run(): the labels and times in milliseconds since the first timestamp.
  std::vector<std::pair<std::string, double>> timestamps() const;

  /// What has been recorded so far, for the cost model (a pass costs at least one dispatch and the
  /// barrier before the next): dispatches, buffer copies and updates, and the barriers between
  /// consecutive commands that wait_for_previous recorded.
  struct Recorded {
    std::uint64_t dispatches = 0, copies = 0, barriers = 0;
  };
  const Recorded& recorded() const noexcept { return recorded_; }

 private:
  /// The barrier from the previous command to a command of `stage` and `access`, if one is due.
  void wait_for_previous(VkPipelineStageFlags stage, VkAccessFlags access);

  std::shared_ptr<Context> context_;
  std::unique_ptr<Context::Frame> frame_;
  VkPipelineStageFlags pending_stage_ = 0;  // the previous command's stage, until a barrier follows it
  VkAccessFlags pending_access_ = 0;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  bool own_cb_ = true, ran_ = false, pending_ = false;  // pending_: submitted, not yet finished
  void read_timestamps();
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::vector<std::unique_ptr<Image>> images_;
  std::vector<VkImageView> views_;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  std::vector<std::string> labels_;
  std::vector<std::uint64_t> ticks_;
  std::vector<VkFence> parts_;
  Recorded recorded_;
};

}  // namespace fastblur::vk
