#pragma once
// The CUDA side of the CUDA-array tests: device memory, streams and copies through the same driver
// fastblur opens. On a CPU Vulkan device (lavapipe) that is the stand-in driver
// (tests/python/fake_cuda_driver.cpp, whose device memory is host memory), with the UUID of the
// fixture's device; on a GPU it is NVIDIA's libcuda.so.1, so the same tests run on real CUDA memory
// and streams (bench/gpu_machine.sh's test step).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fastblur/cuda.hpp"
#include "fastblur/view.hpp"
#include "support/test_support.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur::test {

class CudaMemory {
 public:
  /// Points fastblur at the stand-in driver on a CPU device (read at the process's first CUDA call),
  /// and opens the driver fastblur will use.
  explicit CudaMemory(const Device& device) {
    stand_in_ = context_of(device).info().type == "cpu";
    if (stand_in_) {
      setenv("FASTBLUR_CUDA_DRIVER", FASTBLUR_FAKE_CUDA_DRIVER, 1);
      setenv("FASTBLUR_FAKE_CUDA_UUID", context_of(device).info().uuid.c_str(), 1);
    }
    const char* path = std::getenv("FASTBLUR_CUDA_DRIVER");
    lib_ = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib_) {
      ADD_FAILURE() << "no CUDA driver for " << context_of(device).info().name << ": " << dlerror();
      return;
    }
    load(init_, "cuInit");
    load(get_, "cuDeviceGet");
    load(retain_, "cuDevicePrimaryCtxRetain");
    load(push_, "cuCtxPushCurrent_v2");
    load(pop_, "cuCtxPopCurrent_v2");
    load(alloc_, "cuMemAlloc_v2");
    load(free_, "cuMemFree_v2");
    load(upload_, "cuMemcpyHtoD_v2");
    load(download_, "cuMemcpyDtoH_v2");
    load(sync_, "cuCtxSynchronize");
    load(stream_create_, "cuStreamCreate");
    load(stream_destroy_, "cuStreamDestroy_v2");
    EXPECT_EQ(init_(0), 0);
    int dev = 0;
    void* ctx = nullptr;
    EXPECT_EQ(get_(&dev, 0), 0);
    EXPECT_EQ(retain_(&ctx, dev), 0);
    EXPECT_EQ(push_(ctx), 0);  // this thread's, for the test's allocations and copies
  }
  ~CudaMemory() {
    for (void* s : streams_) stream_destroy_(s);
    for (std::uint64_t p : allocations_) free_(p);
    void* ctx = nullptr;
    if (pop_) pop_(&ctx);
  }
  bool stand_in() const { return stand_in_; }

  /// A device copy of `b`'s bytes; its view as CUDA sees it, with b's strides.
  cuda::DeviceView upload(const Buffer& b) {
    std::uint64_t p = 0;
    EXPECT_EQ(alloc_(&p, b.bytes.size()), 0);
    allocations_.push_back(p);
    EXPECT_EQ(upload_(p, b.bytes.data(), b.bytes.size()), 0);
    cuda::DeviceView d;
    d.data = p + static_cast<std::uint64_t>(static_cast<const std::byte*>(b.view.data) - b.bytes.data());
    d.extent = b.view.extent;
    d.stride = {b.view.stride[0], b.view.stride[1], b.view.stride[2]};
    d.channels = b.view.channels;
    d.type = b.view.type;
    return d;
  }
  /// The device bytes of `d` (uploaded from `b`) back into b, after the work queued so far.
  void download(const cuda::DeviceView& d, Buffer& b) {
    EXPECT_EQ(sync_(), 0);
    const std::uint64_t base = d.data - static_cast<std::uint64_t>(static_cast<const std::byte*>(b.view.data) - b.bytes.data());
    EXPECT_EQ(download_(b.bytes.data(), base, b.bytes.size()), 0);
  }
  void synchronize() { EXPECT_EQ(sync_(), 0); }
  /// A new stream (a CUstream), destroyed with this object.
  std::uintptr_t stream() {
    void* s = nullptr;
    EXPECT_EQ(stream_create_(&s, 0), 0);
    streams_.push_back(s);
    return reinterpret_cast<std::uintptr_t>(s);
  }

 private:
  template <class F>
  void load(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib_, name));
    if (!f) ADD_FAILURE() << "the CUDA driver lacks " << name;
  }
  bool stand_in_ = false;
  void* lib_ = nullptr;
  int (*init_)(unsigned) = nullptr;
  int (*get_)(int*, int) = nullptr;
  int (*retain_)(void**, int) = nullptr;
  int (*push_)(void*) = nullptr;
  int (*pop_)(void**) = nullptr;
  int (*alloc_)(std::uint64_t*, std::size_t) = nullptr;
  int (*free_)(std::uint64_t) = nullptr;
  int (*upload_)(std::uint64_t, const void*, std::size_t) = nullptr;
  int (*download_)(void*, std::uint64_t, std::size_t) = nullptr;
  int (*sync_)() = nullptr;
  int (*stream_create_)(void**, unsigned) = nullptr;
  int (*stream_destroy_)(void*) = nullptr;
  std::vector<std::uint64_t> allocations_;
  std::vector<void*> streams_;
};

}  // namespace fastblur::test
