#pragma once
// A timeline semaphore that another API on the same GPU shares: exported as an opaque file
// descriptor, which CUDA imports (cuImportExternalSemaphore, TIMELINE_SEMAPHORE_FD). A CUDA-array
// call orders the caller's stream and the Vulkan queue with it, value after value, so that neither
// side's host waits (CudaHandoff::semaphores, src/cuda_arrays.cpp).
#include "vulkan/loader.hpp"

#include <memory>

namespace fastblur::vk {

class Context;

class SharedTimeline {
 public:
  /// Throws Unsupported where the context cannot export timeline semaphores (get_semaphore_fd()).
  explicit SharedTimeline(std::shared_ptr<Context> context);
  ~SharedTimeline();
  SharedTimeline(const SharedTimeline&) = delete;
  SharedTimeline& operator=(const SharedTimeline&) = delete;

  VkSemaphore handle() const noexcept { return semaphore_; }
  /// A new file descriptor for the semaphore, which the caller owns (an importer that succeeds takes it).
  int export_fd() const;

 private:
  std::shared_ptr<Context> context_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
};

}  // namespace fastblur::vk
