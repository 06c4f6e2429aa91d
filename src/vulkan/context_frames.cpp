// Job frames and queue submission: the command pools, command buffers, fences, descriptor pools
// and query pools a job records into, reused across jobs, and the submissions (whole or in parts)
// that share the one queue. Split from context.cpp (issue 26).
#include <chrono>
#include <thread>

#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {
constexpr std::uint32_t kSetsPerPool = 64;

// One primary command buffer from `pool` (a frame's own, and each part's of a job in parts).
VkCommandBuffer primary_command_buffer(VkDevice device, VkCommandPool pool) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  check(vkAllocateCommandBuffers(device, &ai, &cb), "vkAllocateCommandBuffers");
  return cb;
}
}  // namespace

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
    f.cb = primary_command_buffer(device_, f.pool);
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
    f.part_cbs.push_back(primary_command_buffer(device_, f.pool));
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

VkResult Context::wait_fence(VkFence fence) {
  if (fence_spin_.count() > 0) {  // polled first: fence_spin() in context.cpp says why
    const auto until = std::chrono::steady_clock::now() + fence_spin_;
    for (;;) {
      const VkResult r = vkGetFenceStatus(device_, fence);
      if (r != VK_NOT_READY) return r;
      if (std::chrono::steady_clock::now() >= until) break;
      std::this_thread::yield();
    }
  }
  return vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
}

void Context::wait(VkFence fence) { check(wait_fence(fence), "running the blur's commands"); }

void Context::submit(Frame& f, TimelinePoint wait, TimelinePoint signal) {
  check(vkEndCommandBuffer(f.cb), "vkEndCommandBuffer");
  // Timeline values travel in VkTimelineSemaphoreSubmitInfo (VK_KHR_timeline_semaphore).
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  values.waitSemaphoreValueCount = wait.semaphore ? 1 : 0;
  values.pWaitSemaphoreValues = &wait.value;
  values.signalSemaphoreValueCount = signal.semaphore ? 1 : 0;
  values.pSignalSemaphoreValues = &signal.value;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  if (wait.semaphore || signal.semaphore) si.pNext = &values;
  si.waitSemaphoreCount = wait.semaphore ? 1 : 0;
  si.pWaitSemaphores = &wait.semaphore;
  si.pWaitDstStageMask = &wait_stage;
  si.signalSemaphoreCount = signal.semaphore ? 1 : 0;
  si.pSignalSemaphores = &signal.semaphore;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &f.cb;
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    r = vkQueueSubmit(queue_, 1, &si, f.fence);
  }
  check(r, "submitting the blur's commands");
}

void Context::finish(Frame& f) {
  VkResult r = wait_fence(f.fence);
  if (r == VK_SUCCESS) r = vkResetFences(device_, 1, &f.fence);
  check(r, "running the blur's commands");
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
  r = wait_fence(f.fence);
  if (r == VK_SUCCESS) r = vkResetFences(device_, 1, &f.fence);
  check(r, "running the blur's commands");
}

}  // namespace fastblur::vk
