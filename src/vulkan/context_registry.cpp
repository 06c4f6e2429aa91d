// The context registry: one shared Context per device index, opened on first use and kept for the
// process. Split from context.cpp (issue 26).
#include <map>
#include <mutex>

#include "vulkan/context.hpp"

namespace fastblur::vk {

std::shared_ptr<Context> context_for(int index) {
  (void)instance();  // constructed before `contexts`, so destroyed after every device at exit
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<Context>> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = contexts[index];
  if (!slot) slot = std::make_shared<Context>(index);
  return slot;
}

}  // namespace fastblur::vk
