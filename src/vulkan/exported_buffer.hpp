#pragma once
// A device-local VkBuffer whose memory (a dedicated allocation) can be exported as an opaque file
// descriptor, for another API on the same GPU to map (CUDA, fastblur/cuda.hpp).
#include "vulkan/loader.hpp"

#include <cstdint>
#include <memory>

namespace fastblur::vk {

class Context;

class ExportedBuffer {
 public:
  /// Throws Unsupported where the context was opened without VK_KHR_external_memory_fd (an adopted
  /// device, a driver without it), OutOfMemory where the device cannot hold it.
  ExportedBuffer(std::shared_ptr<Context> context, std::uint64_t bytes);
  ~ExportedBuffer();
  ExportedBuffer(const ExportedBuffer&) = delete;
  ExportedBuffer& operator=(const ExportedBuffer&) = delete;

  VkBuffer handle() const noexcept { return buffer_; }
  std::uint64_t size() const noexcept { return bytes_; }
  /// The allocation's size, which the importer must be told (at least size()).
  std::uint64_t allocation_size() const noexcept { return allocation_; }
  /// A new file descriptor for the memory; the caller owns it (an importer that succeeds takes it).
  int export_fd() const;

 private:
  std::shared_ptr<Context> context_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint64_t bytes_ = 0, allocation_ = 0;
};

}  // namespace fastblur::vk
