#pragma once
// A 2D VkImage with its own memory and views: one view of every mip level (for sampling) and one
// per level (for writing as a storage image). Made for the sampled-image algorithms (fir-linear,
// kawase, dual-kawase, mip-poisson), whose taps are the texture unit's bilinear fetches.
#include "vulkan/loader.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace fastblur::vk {

class Context;

class Image {
 public:
  /// Throws OutOfMemory when the device cannot hold it, Unsupported beyond its dimension limit.
  Image(std::shared_ptr<Context> context, VkFormat format, std::uint32_t width, std::uint32_t height,
        std::uint32_t levels);
  /// For the context's own pool (no shared_ptr: the pool is the context's).
  Image(Context& context, VkFormat format, std::uint32_t width, std::uint32_t height, std::uint32_t levels);
  ~Image();
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const noexcept { return image_; }
  VkFormat format() const noexcept { return format_; }
  std::uint32_t width(std::uint32_t level = 0) const noexcept { return std::max(1u, width_ >> level); }
  std::uint32_t height(std::uint32_t level = 0) const noexcept { return std::max(1u, height_ >> level); }
  std::uint32_t levels() const noexcept { return levels_; }
  /// Every level, for sampling.
  VkImageView view() const noexcept { return view_; }
  /// One level, for storage writes.
  VkImageView level_view(std::uint32_t level) const noexcept { return level_views_[level]; }

 private:
  std::shared_ptr<Context> owner_;
  Context* context_;
  VkFormat format_;
  std::uint32_t width_, height_, levels_;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  std::vector<VkImageView> level_views_;
};

/// The float format of an image of 1, 2 or 4 channels (3 are stored as 4).
VkFormat float_format(int channels) noexcept;
/// Channels an image of float_format(channels) holds: 1, 2 or 4.
int stored_channels(int channels) noexcept;

}  // namespace fastblur::vk
