#include "vulkan/job.hpp"

#include <algorithm>

#include "fastblur/error.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

constexpr std::uint32_t kTimestamps = 64;

}  // namespace

std::array<std::uint32_t, 3> spread_groups(std::uint64_t count) {
  if (count == 0) return {0, 1, 1};
  const std::uint64_t x = std::min<std::uint64_t>(count, 65535);
  const std::uint64_t y = (count + x - 1) / x;
  if (y > 65535) throw Unsupported("a dispatch of " + std::to_string(count) + " workgroups");
  return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 1};
}

Job::Job(std::shared_ptr<Context> context) : context_(std::move(context)), frame_(context_->take_frame()) {
  // The first command waits for earlier jobs' work on the queue (pooled buffers, device images):
  // a barrier's scopes reach across command buffers in submission order.
  pending_stage_ = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  pending_access_ = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  try {
    cb_ = context_->begin(*frame_);
  } catch (...) {
    context_->give_back(std::move(frame_));
    throw;
  }
}

Job::Job(std::shared_ptr<Context> context, VkCommandBuffer external)
    : context_(std::move(context)), cb_(external), own_cb_(false) {
  if (!external) throw InvalidArgument("recording a blur: the command buffer is null");
  frame_ = context_->take_frame();
}

Job::~Job() {
  // Everything goes back to the context for the next job: the frame (its command pool reset, which
  // also discards a recording abandoned half way), the buffers and the images - once the parts
  // already submitted are done with them (a job abandoned between parts still waits for those).
  if (!parts_.empty())
    vkWaitForFences(context_->device(), static_cast<std::uint32_t>(parts_.size()), parts_.data(), VK_TRUE, UINT64_MAX);
  if (pending_) {
    try {
      context_->finish(*frame_);
    } catch (const std::exception&) {  // a lost device: nothing left to wait for
    }
  }
  for (VkImageView v : views_) vkDestroyImageView(context_->device(), v, nullptr);
  for (auto& b : buffers_) context_->give_back(std::move(b));
  for (auto& im : images_) context_->give_back(std::move(im));
  context_->give_back(std::move(frame_));
}

Buffer& Job::buffer(std::uint64_t bytes, Buffer::Kind kind) {
  buffers_.push_back(context_->take_buffer(bytes, static_cast<int>(kind)));
  return *buffers_.back();
}

Image& Job::image(VkFormat format, std::uint32_t width, std::uint32_t height, std::uint32_t levels) {
  images_.push_back(context_->take_image(format, width, height, levels));
  Image& im = *images_.back();
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = 0;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = im.handle();
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                       1, &b);
  return im;
}

void Job::wait_for_previous(VkPipelineStageFlags stage, VkAccessFlags access) {
  if (!pending_stage_) return;
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = pending_access_;
  mb.dstAccessMask = access;
  vkCmdPipelineBarrier(cb_, pending_stage_, stage, 0, 1, &mb, 0, nullptr, 0, nullptr);
  pending_stage_ = 0;
  ++recorded_.barriers;
}

void Job::dispatch(const ComputePipeline& pipeline, const std::vector<Binding>& bindings, const void* push,
                   std::uint32_t push_bytes, std::array<std::uint32_t, 3> groups) {
  if (bindings.size() != pipeline.bindings().size())
    throw InvalidArgument("internal: a dispatch's bindings do not match its pipeline");
  if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return;
  VkDescriptorSet set = context_->descriptor_set(*frame_, pipeline.set_layout());
  std::vector<VkDescriptorBufferInfo> buffers(bindings.size());
  std::vector<VkDescriptorImageInfo> images(bindings.size());
  std::vector<VkWriteDescriptorSet> writes(bindings.size());
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const Binding& b = bindings[i];
    if (b.type != pipeline.bindings()[i]) throw InvalidArgument("internal: a binding's type does not match its pipeline");
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = static_cast<std::uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = b.type;
    if (b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) {
      buffers[i] = {b.buffer, b.offset, b.range};
      writes[i].pBufferInfo = &buffers[i];
    } else {
      images[i] = {b.sampler, b.view, VK_IMAGE_LAYOUT_GENERAL};
      writes[i].pImageInfo = &images[i];
    }
  }
  vkUpdateDescriptorSets(context_->device(), static_cast<std::uint32_t>(writes.size()), writes.data(), 0, nullptr);
  wait_for_previous(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline());
  vkCmdBindDescriptorSets(cb_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1, &set, 0, nullptr);
  if (push_bytes) vkCmdPushConstants(cb_, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cb_, groups[0], groups[1], groups[2]);
  ++recorded_.dispatches;
  pending_stage_ = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  pending_access_ = VK_ACCESS_SHADER_WRITE_BIT;
}

void Job::copy(VkBuffer src, VkBuffer dst, VkDeviceSize bytes, VkDeviceSize src_offset, VkDeviceSize dst_offset) {
  if (bytes == 0) return;
  VkBufferCopy region{src_offset, dst_offset, bytes};
  wait_for_previous(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdCopyBuffer(cb_, src, dst, 1, &region);
  ++recorded_.copies;
  pending_stage_ = VK_PIPELINE_STAGE_TRANSFER_BIT;
  pending_access_ = VK_ACCESS_TRANSFER_WRITE_BIT;
}

void Job::update(VkBuffer dst, const void* data, VkDeviceSize bytes) {
  if (bytes == 0) return;
  if (bytes % 4 != 0 || bytes > 65536) throw InvalidArgument("internal: vkCmdUpdateBuffer takes 4 to 65536 bytes in words");
  wait_for_previous(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdUpdateBuffer(cb_, dst, 0, bytes, data);
  ++recorded_.copies;
  pending_stage_ = VK_PIPELINE_STAGE_TRANSFER_BIT;
  pending_access_ = VK_ACCESS_TRANSFER_WRITE_BIT;
}

void Job::host_barrier() {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  pending_stage_ = 0;
}

void Job::barrier_from_outside() {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0,
                       nullptr);
}

void Job::barrier_to_outside() {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  pending_stage_ = 0;
}

VkImageView Job::view_of(VkImage image, VkFormat format) {
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView v = VK_NULL_HANDLE;
  check(vkCreateImageView(context_->device(), &vci, nullptr, &v), "vkCreateImageView (the caller's image)");
  context_->count_object();
  views_.push_back(v);
  return v;
}

void Job::transition(VkImage image, VkImageLayout from, VkImageLayout to) {
  if (from == to) return;
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  // An image barrier orders only that image's memory: a pending buffer barrier stays pending
  // (synchronization validation caught image_to_work's buffer write read without one).
}

namespace {
bool transfers(const Context& ctx, std::uint32_t owner) {
  return owner != VK_QUEUE_FAMILY_IGNORED && owner != ctx.queue_family();
}
}  // namespace

void Job::acquire(VkBuffer buffer, std::uint32_t owner) {
  if (!transfers(*context_, owner)) return;
  VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                    VK_ACCESS_TRANSFER_WRITE_BIT;
  b.srcQueueFamilyIndex = owner;
  b.dstQueueFamilyIndex = context_->queue_family();
  b.buffer = buffer;
  b.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 1, &b, 0,
                       nullptr);
}

void Job::release(VkBuffer buffer, std::uint32_t owner) {
  if (!transfers(*context_, owner)) return;
  VkBufferMemoryBarrier b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.srcQueueFamilyIndex = context_->queue_family();
  b.dstQueueFamilyIndex = owner;
  b.buffer = buffer;
  b.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 1, &b, 0, nullptr);
}

void Job::acquire(VkImage image, VkImageLayout layout, std::uint32_t owner) {
  if (!transfers(*context_, owner)) return;
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  b.oldLayout = b.newLayout = layout;
  b.srcQueueFamilyIndex = owner;
  b.dstQueueFamilyIndex = context_->queue_family();
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr,
                       0, nullptr, 1, &b);
}

void Job::release(VkImage image, VkImageLayout layout, std::uint32_t owner) {
  if (!transfers(*context_, owner)) return;
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.oldLayout = b.newLayout = layout;
  b.srcQueueFamilyIndex = context_->queue_family();
  b.dstQueueFamilyIndex = owner;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &b);
}

void Job::timestamp(const std::string& label) {
  if (!context_->has_timestamps() || labels_.size() >= kTimestamps) return;
  if (!queries_) {
    queries_ = context_->query_pool(*frame_, kTimestamps);
    vkCmdResetQueryPool(cb_, queries_, 0, kTimestamps);
  }
  vkCmdWriteTimestamp(cb_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, static_cast<std::uint32_t>(labels_.size()));
  labels_.push_back(label);
}

std::size_t Job::submit_part() {
  if (!own_cb_) throw InvalidArgument("internal: a job recorded into the caller's command buffer is submitted by the caller");
  if (ran_) throw InvalidArgument("internal: a job runs once");
  VkFence fence = VK_NULL_HANDLE;
  cb_ = context_->submit_part(*frame_, cb_, fence);
  parts_.push_back(fence);
  return parts_.size() - 1;
}

void Job::wait_part(std::size_t part) { context_->wait(parts_.at(part)); }

void Job::run() {
  if (!own_cb_) throw InvalidArgument("internal: a job recorded into the caller's command buffer is submitted by the caller");
  if (ran_) throw InvalidArgument("internal: a job runs once");
  ran_ = true;
  context_->submit_and_wait(*frame_);
  cb_ = VK_NULL_HANDLE;
  read_timestamps();
}

void Job::submit(Context::TimelinePoint wait, Context::TimelinePoint signal) {
  if (!own_cb_) throw InvalidArgument("internal: a job recorded into the caller's command buffer is submitted by the caller");
  if (ran_) throw InvalidArgument("internal: a job runs once");
  ran_ = true;
  context_->submit(*frame_, wait, signal);
  cb_ = VK_NULL_HANDLE;
  pending_ = true;
}

void Job::finish() {
  if (!pending_) return;
  pending_ = false;
  context_->finish(*frame_);
  read_timestamps();
}

void Job::read_timestamps() {
  if (queries_ && !labels_.empty()) {
    ticks_.resize(labels_.size());
    check(vkGetQueryPoolResults(context_->device(), queries_, 0, static_cast<std::uint32_t>(labels_.size()),
                                ticks_.size() * sizeof(std::uint64_t), ticks_.data(), sizeof(std::uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
  }
}

std::vector<std::pair<std::string, double>> Job::timestamps() const {
  std::vector<std::pair<std::string, double>> out;
  // Differences of the valid bits only (modulo their range, so a counter that wrapped between the
  // two still gives the time between them).
  const std::uint64_t mask = context_->timestamp_mask();
  for (std::size_t i = 0; i < ticks_.size(); ++i)
    out.emplace_back(labels_[i], static_cast<double>(((ticks_[i] & mask) - (ticks_[0] & mask)) & mask) *
                                     context_->timestamp_period_ns() * 1e-6);
  return out;
}

}  // namespace fastblur::vk
