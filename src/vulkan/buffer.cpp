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
  VkDevice dev = context_->device();
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = bytes == 0 ? 4 : bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(dev, &bci, nullptr, &buffer_), "vkCreateBuffer");
  context_->count_object();
  try {
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer_, &req);
    VkMemoryPropertyFlags required = 0, preferred = 0;
    if (kind == Kind::device) {
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
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    const VkResult r = vkAllocateMemory(dev, &ai, nullptr, &memory_);
    context_->count_allocation();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      throw OutOfMemory("Vulkan device " + context_->info().name + " cannot allocate " + std::to_string(bytes) +
                        " bytes (" + result_name(r) + ")");
    check(r, "vkAllocateMemory");
    check(vkBindBufferMemory(dev, buffer_, memory_, 0), "vkBindBufferMemory");
    if (kind != Kind::device) {
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
