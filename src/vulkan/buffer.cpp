#include "vulkan/buffer.hpp"

#include <string>

#include "fastblur/error.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {

Buffer::Buffer(std::shared_ptr<Context> context, std::uint64_t bytes, Kind kind) : Buffer(*context, bytes, kind) {
  owner_ = std::move(context);
}

Buffer::Buffer(Context& context, std::uint64_t bytes, Kind kind) : context_(&context), kind_(kind), bytes_(bytes) {
  const bool exported = kind == Kind::exported;
  if (exported && !context_->get_memory_fd())
    throw Unsupported("Vulkan device " + context_->info().name +
                      " was opened without VK_KHR_external_memory_fd, which CUDA arrays need");
  VkDevice dev = context_->device();
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  if (exported) bci.pNext = &external;
  bci.size = bytes == 0 ? 4 : bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(dev, &bci, nullptr, &buffer_), "vkCreateBuffer");
  context_->count_object();
  try {
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer_, &req);
    VkMemoryPropertyFlags required = 0, preferred = 0;
    if (kind == Kind::device || exported) {
      required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    } else {
      required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
      preferred = kind == Kind::download ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    }
    std::uint32_t type = 0;
    try {
      type = context_->memory_type(req.memoryTypeBits, required, preferred);
    } catch (const Unsupported&) {
      if (kind != Kind::device) throw;
      type = context_->memory_type(req.memoryTypeBits, 0);  // any memory will do for the work
    }
    // Exported: a dedicated allocation, as CUDA imports one (CUDA_EXTERNAL_MEMORY_DEDICATED).
    VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated.buffer = buffer_;
    VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    export_info.pNext = &dedicated;
    export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    if (exported) ai.pNext = &export_info;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    allocation_ = req.size;
    const VkResult r = vkAllocateMemory(dev, &ai, nullptr, &memory_);
    context_->count_allocation();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      throw OutOfMemory("Vulkan device " + context_->info().name + " cannot allocate " + std::to_string(bytes) +
                        " bytes (" + result_name(r) + ")");
    check(r, "vkAllocateMemory");
    check(vkBindBufferMemory(dev, buffer_, memory_, 0), "vkBindBufferMemory");
    if (kind == Kind::upload || kind == Kind::download) {
      check(vkMapMemory(dev, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
      VkPhysicalDeviceMemoryProperties mp;
      vkGetPhysicalDeviceMemoryProperties(context_->physical(), &mp);
      coherent_ = (mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    }
  } catch (...) {
    if (memory_) vkFreeMemory(dev, memory_, nullptr);
    vkDestroyBuffer(dev, buffer_, nullptr);
    throw;
  }
}

Buffer::~Buffer() {
  VkDevice dev = context_->device();
  if (mapped_) vkUnmapMemory(dev, memory_);
  vkDestroyBuffer(dev, buffer_, nullptr);
  vkFreeMemory(dev, memory_, nullptr);
}

int Buffer::export_fd() const {
  if (kind_ != Kind::exported) throw InvalidArgument("only an exported buffer's memory has a file descriptor");
  VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = memory_;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(context_->get_memory_fd()(context_->device(), &info, &fd), "vkGetMemoryFdKHR");
  return fd;
}

void Buffer::flush() const {
  if (coherent_ || !mapped_) return;
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory_, 0, VK_WHOLE_SIZE};
  check(vkFlushMappedMemoryRanges(context_->device(), 1, &r), "vkFlushMappedMemoryRanges");
}

void Buffer::invalidate() const {
  if (coherent_ || !mapped_) return;
  VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory_, 0, VK_WHOLE_SIZE};
  check(vkInvalidateMappedMemoryRanges(context_->device(), 1, &r), "vkInvalidateMappedMemoryRanges");
}

}  // namespace fastblur::vk
