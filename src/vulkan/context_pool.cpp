// The memory pool: buffers and images a job gives back are kept on free lists for later jobs,
// within an idle budget that follows the device's memory. Split from context.cpp (issue 26).
#include <algorithm>

#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"

namespace fastblur::vk {

std::uint64_t idle_budget_for(const std::string& device_type, std::uint64_t device_memory_bytes) noexcept {
  constexpr std::uint64_t GiB = 1ull << 30;
  if (device_type == "cpu") return GiB;
  return std::clamp<std::uint64_t>(device_memory_bytes / 8, GiB, 16 * GiB);
}

std::unique_ptr<Buffer> Context::take_buffer(std::uint64_t bytes, int kind) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t best = free_buffers_.size();
    for (std::size_t i = 0; i < free_buffers_.size(); ++i) {
      const Buffer& b = *free_buffers_[i];
      if (static_cast<int>(b.kind()) != kind || b.size() < bytes || b.size() > 2 * bytes + 4096) continue;
      if (best == free_buffers_.size() || b.size() < free_buffers_[best]->size()) best = i;
    }
    if (best != free_buffers_.size()) {
      auto b = std::move(free_buffers_[best]);
      free_buffers_.erase(free_buffers_.begin() + static_cast<std::ptrdiff_t>(best));
      idle_bytes_ -= b->size();
      return b;
    }
  }
  return std::make_unique<Buffer>(*this, bytes, static_cast<Buffer::Kind>(kind));
}

void Context::give_back(std::unique_ptr<Buffer> b) noexcept {
  if (!b) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (b->size() > idle_budget_) return;  // freed here, as it goes out of scope
  free_buffers_.push_back(std::move(b));
  idle_bytes_ += free_buffers_.back()->size();
  while (idle_bytes_ > idle_budget_) {  // the oldest go first
    idle_bytes_ -= free_buffers_.front()->size();
    free_buffers_.erase(free_buffers_.begin());
  }
}

std::unique_ptr<Image> Context::take_image(VkFormat format, std::uint32_t width, std::uint32_t height,
                                           std::uint32_t levels) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = 0; i < free_images_.size(); ++i) {
      const Image& im = *free_images_[i];
      if (im.format() == format && im.width() == width && im.height() == height && im.levels() == levels) {
        auto out = std::move(free_images_[i]);
        free_images_.erase(free_images_.begin() + static_cast<std::ptrdiff_t>(i));
        return out;
      }
    }
  }
  return std::make_unique<Image>(*this, format, width, height, levels);
}

void Context::give_back(std::unique_ptr<Image> im) noexcept {
  if (!im) return;
  std::lock_guard<std::mutex> lock(mutex_);
  free_images_.push_back(std::move(im));
  if (free_images_.size() > 32) free_images_.erase(free_images_.begin());
}

}  // namespace fastblur::vk
