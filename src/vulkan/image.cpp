#include "vulkan/image.hpp"

#include <string>

#include "algorithms/gpu_passes.hpp"
#include "fastblur/error.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {

VkFormat float_format(int channels) noexcept {
  return channels == 1 ? VK_FORMAT_R32_SFLOAT : channels == 2 ? VK_FORMAT_R32G32_SFLOAT : VK_FORMAT_R32G32B32A32_SFLOAT;
}

int stored_channels(int channels) noexcept { return algo::image_channels(channels); }  // the plan's rule

Image::Image(std::shared_ptr<Context> context, VkFormat format, std::uint32_t width, std::uint32_t height,
             std::uint32_t levels)
    : Image(*context, format, width, height, levels) {
  owner_ = std::move(context);
}

Image::Image(Context& context, VkFormat format, std::uint32_t width, std::uint32_t height, std::uint32_t levels)
    : context_(&context), format_(format), width_(width), height_(height), levels_(levels) {
  const VkPhysicalDeviceLimits lim = context_->limits();
  if (width == 0 || height == 0 || width > lim.maxImageDimension2D || height > lim.maxImageDimension2D)
    throw Unsupported("an image of " + std::to_string(width) + "x" + std::to_string(height) + " exceeds " +
                      context_->info().name + "'s 2D image limit of " + std::to_string(lim.maxImageDimension2D));
  VkDevice dev = context_->device();
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {width, height, 1};
  ci.mipLevels = levels;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
             VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  check(vkCreateImage(dev, &ci, nullptr, &image_), "vkCreateImage");
  context_->count_object();
  try {
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image_, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    try {
      ai.memoryTypeIndex = context_->memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    } catch (const Unsupported&) {
      ai.memoryTypeIndex = context_->memory_type(req.memoryTypeBits, 0);
    }
    const VkResult r = vkAllocateMemory(dev, &ai, nullptr, &memory_);
    context_->count_allocation();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      throw OutOfMemory("Vulkan device " + context_->info().name + " cannot allocate an image of " +
                        std::to_string(req.size) + " bytes (" + result_name(r) + ")");
    check(r, "vkAllocateMemory");
    check(vkBindImageMemory(dev, image_, memory_, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image_;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    check(vkCreateImageView(dev, &vci, nullptr, &view_), "vkCreateImageView");
    for (std::uint32_t l = 0; l < levels; ++l) {
      vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, l, 1, 0, 1};
      VkImageView v = VK_NULL_HANDLE;
      check(vkCreateImageView(dev, &vci, nullptr, &v), "vkCreateImageView");
      level_views_.push_back(v);
    }
  } catch (...) {
    for (VkImageView v : level_views_) vkDestroyImageView(dev, v, nullptr);
    if (view_) vkDestroyImageView(dev, view_, nullptr);
    if (memory_) vkFreeMemory(dev, memory_, nullptr);
    vkDestroyImage(dev, image_, nullptr);
    throw;
  }
}

Image::~Image() {
  VkDevice dev = context_->device();
  for (VkImageView v : level_views_) vkDestroyImageView(dev, v, nullptr);
  vkDestroyImageView(dev, view_, nullptr);
  vkDestroyImage(dev, image_, nullptr);
  vkFreeMemory(dev, memory_, nullptr);
}

}  // namespace fastblur::vk
