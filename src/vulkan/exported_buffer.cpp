#include "vulkan/exported_buffer.hpp"

#include <string>

#include "fastblur/error.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {

ExportedBuffer::ExportedBuffer(std::shared_ptr<Context> context, std::uint64_t bytes)
    : context_(std::move(context)), bytes_(bytes) {
  if (!context_->get_memory_fd())
    throw Unsupported("Vulkan device " + context_->info().name +
                      " was opened without VK_KHR_external_memory_fd, which CUDA arrays need");
  VkDevice dev = context_->device();
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.pNext = &external;
  bci.size = bytes == 0 ? 4 : bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(dev, &bci, nullptr, &buffer_), "vkCreateBuffer");
  context_->count_object();
  try {
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer_, &req);
    // Dedicated: CUDA imports a dedicated allocation with CUDA_EXTERNAL_MEMORY_DEDICATED, as NVIDIA
    // asks for buffers exported to it.
    VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated.buffer = buffer_;
    VkExportMemoryAllocateInfo exported{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exported.pNext = &dedicated;
    exported.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.pNext = &exported;
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = context_->memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    const VkResult r = vkAllocateMemory(dev, &ai, nullptr, &memory_);
    context_->count_allocation();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      throw OutOfMemory("Vulkan device " + context_->info().name + " cannot allocate " + std::to_string(bytes) +
                        " exportable bytes (" + result_name(r) + ")");
    check(r, "vkAllocateMemory (exportable)");
    allocation_ = req.size;
    check(vkBindBufferMemory(dev, buffer_, memory_, 0), "vkBindBufferMemory");
  } catch (...) {
    if (memory_) vkFreeMemory(dev, memory_, nullptr);
    vkDestroyBuffer(dev, buffer_, nullptr);
    throw;
  }
}

ExportedBuffer::~ExportedBuffer() {
  vkDestroyBuffer(context_->device(), buffer_, nullptr);
  vkFreeMemory(context_->device(), memory_, nullptr);
}

int ExportedBuffer::export_fd() const {
  VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = memory_;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(context_->get_memory_fd()(context_->device(), &info, &fd), "vkGetMemoryFdKHR");
  return fd;
}

}  // namespace fastblur::vk
