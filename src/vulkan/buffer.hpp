#pragma once
// A VkBuffer with its own memory: device-local for the work, host-visible for transfers.
#include "vulkan/loader.hpp"

#include <cstdint>
#include <memory>

namespace fastblur::vk {

class Context;

class Buffer {
 public:
  enum class Kind { device, upload, download };
  /// Throws OutOfMemory when the device cannot hold it. This form keeps the context alive.
  Buffer(std::shared_ptr<Context> context, std::uint64_t bytes, Kind kind);
  /// For the context's own pool (which the context outlives; a shared_ptr would be a cycle).
  Buffer(Context& context, std::uint64_t bytes, Kind kind);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const noexcept { return buffer_; }
  std::uint64_t size() const noexcept { return bytes_; }
  Kind kind() const noexcept { return kind_; }
  /// The host address of an upload/download buffer (mapped for its life).
  void* data() const noexcept { return mapped_; }
  /// Makes host writes visible to the device / device writes visible to the host (for memory
  /// that is not coherent).
  void flush() const;
  void invalidate() const;

 private:
  std::shared_ptr<Context> owner_;
  Context* context_;
  Kind kind_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint64_t bytes_;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

}  // namespace fastblur::vk
