#pragma once
// dlerror()'s text, cut to a line: what the run-time loaders (the Vulkan loader, the CUDA driver)
// add to their one-line errors.
#include <dlfcn.h>

#include <string>

namespace fastblur::vk {

inline std::string last_dlerror() {
  const char* e = dlerror();
  std::string text = e ? e : "";
  if (text.size() > 200) text = text.substr(0, 197) + "...";
  return text;
}

}  // namespace fastblur::vk
