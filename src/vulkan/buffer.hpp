#pragma once
// A VkBuffer with its own memory: device-local for the work, host-visible for transfers, or
// device-local in a dedicated allocation another API on the same GPU maps through an opaque file
// descriptor (CUDA: fastblur/cuda.hpp).
#include "vulkan/loader.hpp"

#include <cstdint>
#include <memory>

namespace fastblur::vk {

class Context;

class Buffer {
 public:
  enum class Kind { device, upload, download, exported };
  /// Throws OutOfMemory when the device cannot hold it; Unsupported for Kind::exported on a context
  /// opened without VK_KHR_external_memory_fd. This form keeps the context alive.
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
  /// Kind::exported: a new file descriptor for the memory, which the caller owns (an importer that
  /// succeeds takes it), and the allocation's size the importer must be told (at least size()).
  int export_fd() const;
  std::uint64_t allocation_size() const noexcept { return allocation_; }

 private:
  std::shared_ptr<Context> owner_;
  Context* context_;
  Kind kind_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint64_t bytes_, allocation_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

}  // namespace fastblur::vk
