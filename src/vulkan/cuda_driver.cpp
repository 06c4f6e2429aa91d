// The CUDA driver opened at run time (issue 30): fastblur builds and runs without CUDA, and only a
// CUDA array handed to fastblur::cuda opens it.
#include "vulkan/cuda_driver.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "fastblur/error.hpp"
#include "vulkan/dl_error.hpp"

namespace fastblur::cu {
namespace {

using vk::last_dlerror;

// Empty on success, else the error's message. Never closed: CUDA's state lives to the process's end.
std::string open_driver(Driver& d) {
  const char* env = std::getenv("FASTBLUR_CUDA_DRIVER");
  const std::string path = env && *env ? env : "libcuda.so.1";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return "no CUDA driver (" + path + ") was found: CUDA arrays need NVIDIA's driver (" + last_dlerror() + ")";
  std::string missing;
#define FASTBLUR_CUDA_LOAD(member, symbol, type)          \
  d.member = reinterpret_cast<std::add_pointer_t<type>>(dlsym(handle, symbol)); \
  if (!d.member && missing.empty()) missing = symbol;
  FASTBLUR_CUDA_FUNCTIONS(FASTBLUR_CUDA_LOAD)
#undef FASTBLUR_CUDA_LOAD
  if (!missing.empty()) return "the CUDA driver " + path + " lacks " + missing + " (fastblur needs CUDA 11 or newer)";
  if (const Result r = d.cuInit(0); r != 0) {
    const char* name = nullptr;
    d.cuGetErrorName(r, &name);
    return "the CUDA driver did not initialise (cuInit: " + std::string(name ? name : std::to_string(r)) + ")";
  }
  return {};
}

}  // namespace

void Driver::check(Result r, const char* what) const {
  if (r == 0) return;
  const char* name = nullptr;
  if (cuGetErrorName) cuGetErrorName(r, &name);
  throw DeviceError(std::string(what) + " failed: " + (name ? name : "CUDA error " + std::to_string(r)));
}

const Driver& driver() {
  static Driver d;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] { error = open_driver(d); });
  if (!error.empty()) throw DeviceError(error);
  return d;
}

PrimaryContext::PrimaryContext(const Driver& d, int ordinal) : d_(d) {
  d.check(d.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
  d.check(d.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
}

PrimaryContext::~PrimaryContext() { d_.cuDevicePrimaryCtxRelease(device_); }

CurrentContext::CurrentContext(const Driver& d, ContextHandle context) : d_(d) {
  d.check(d.cuCtxPushCurrent(context), "cuCtxPushCurrent");
}

CurrentContext::~CurrentContext() {
  ContextHandle popped = nullptr;
  d_.cuCtxPopCurrent(&popped);
}

}  // namespace fastblur::cu
