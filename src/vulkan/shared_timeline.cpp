#include "vulkan/shared_timeline.hpp"

#include <string>

#include "fastblur/error.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {

SharedTimeline::SharedTimeline(std::shared_ptr<Context> context) : context_(std::move(context)) {
  if (!context_->get_semaphore_fd())
    throw Unsupported("Vulkan device " + context_->info().name + " cannot export timeline semaphores");
  VkExportSemaphoreCreateInfo exported{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  exported.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.pNext = &exported;
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = 0;
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  ci.pNext = &type;
  check(vkCreateSemaphore(context_->device(), &ci, nullptr, &semaphore_), "vkCreateSemaphore (timeline, exportable)");
  context_->count_object();
}

SharedTimeline::~SharedTimeline() { vkDestroySemaphore(context_->device(), semaphore_, nullptr); }

int SharedTimeline::export_fd() const {
  VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  info.semaphore = semaphore_;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(context_->get_semaphore_fd()(context_->device(), &info, &fd), "vkGetSemaphoreFdKHR");
  return fd;
}

}  // namespace fastblur::vk
