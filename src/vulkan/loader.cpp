// The Vulkan loader, opened at run time (issue 27): libfastblur and the Python module carry no
// NEEDED entry for libvulkan.so.1, so `import fastblur` and CPU blurs work where it is not
// installed; asking for a Vulkan device there fails with one line that says what to install.
#include "vulkan/loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "fastblur/error.hpp"
#include "vulkan/dl_error.hpp"

namespace fastblur::vk {

#define FASTBLUR_VULKAN_DEFINE(name) PFN_##name name = nullptr;
FASTBLUR_VULKAN_FUNCTIONS(FASTBLUR_VULKAN_DEFINE)
#undef FASTBLUR_VULKAN_DEFINE

namespace {

// Empty on success, else the error's message. Never closed: the instance and the devices outlive
// every caller, to the process's end.
std::string open_loader() {
  std::string detail;
  void* handle = nullptr;
  if (const char* path = std::getenv("FASTBLUR_VULKAN_LOADER"); path && *path) {
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) detail = "FASTBLUR_VULKAN_LOADER: " + last_dlerror();
  } else {
    for (const char* name : {"libvulkan.so.1", "libvulkan.so"}) {
      handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle) break;
      if (detail.empty()) detail = last_dlerror();  // the first name's reason
    }
  }
  if (!handle)
    return "no Vulkan loader (libvulkan.so.1) was found: install the Vulkan loader (Debian: libvulkan1) and a "
           "driver to use device='vulkan'" +
           (detail.empty() ? std::string() : " (" + detail + ")");
  std::string missing;
#define FASTBLUR_VULKAN_LOAD(name)                                                     \
  name = reinterpret_cast<PFN_##name>(dlsym(handle, #name));                           \
  if (!name && missing.empty()) missing = #name;
  FASTBLUR_VULKAN_FUNCTIONS(FASTBLUR_VULKAN_LOAD)
#undef FASTBLUR_VULKAN_LOAD
  if (!missing.empty())
    return "the Vulkan loader lacks " + missing + " (fastblur needs a Vulkan 1.1 loader or newer: update the "
           "Vulkan loader, Debian's libvulkan1)";
  return {};
}

}  // namespace

void load_vulkan() {
  static const std::string error = open_loader();  // once: C++ makes a static's initialisation thread-safe
  if (!error.empty()) throw DeviceError(error);
}

}  // namespace fastblur::vk
