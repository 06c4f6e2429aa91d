#pragma once
// Puts the stand-in semaphore-export layer (stand_in_semaphore_export_layer.cpp, built beside the
// tests) first in every instance's layer chain, before the first Vulkan instance: where the driver
// cannot export timeline semaphores (lavapipe), CUDA arrays' semaphore handoff then runs with the
// stand-in CUDA driver; where it can, the layer passes every call through. Where the layer was not
// built (a packed test binary on another machine), nothing changes. FASTBLUR_STAND_IN_SEMAPHORES=0
// leaves it out.
#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace fastblur::test {

inline bool enable_stand_in_semaphore_layer() {
#ifdef FASTBLUR_STAND_IN_LAYER_DIR
  const char* off = std::getenv("FASTBLUR_STAND_IN_SEMAPHORES");
  if (off && std::string(off) == "0") return false;
  struct stat st;
  if (stat(FASTBLUR_STAND_IN_LAYER_DIR, &st) != 0) return false;
  const auto prepend = [](const char* name, const std::string& value, const char* separator) {
    const char* old = std::getenv(name);
    setenv(name, (old && *old ? value + separator + old : value).c_str(), 1);
  };
  prepend("VK_ADD_LAYER_PATH", FASTBLUR_STAND_IN_LAYER_DIR, ":");
  prepend("VK_INSTANCE_LAYERS", "VK_LAYER_FASTBLUR_stand_in_semaphore_export", ":");
  return true;
#else
  return false;
#endif
}

}  // namespace fastblur::test
