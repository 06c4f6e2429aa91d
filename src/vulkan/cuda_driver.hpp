#pragma once
// The CUDA driver API, opened at run time (libcuda.so.1, or the path in FASTBLUR_CUDA_DRIVER): the
// few entry points fastblur::cuda needs to map exported Vulkan memory and copy a CUDA array in and
// out on the caller's stream. No CUDA header or library is needed to build; the types below are the
// driver's C ABI as cuda.h declares it (CUDA 11 and later), only the members fastblur uses named.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace fastblur::cu {

using Result = int;  // CUresult; 0 is CUDA_SUCCESS
using DeviceOrdinal = int;  // CUdevice
using DevicePtr = std::uint64_t;  // CUdeviceptr
using ContextHandle = void*;  // CUcontext
using Stream = void*;  // CUstream; null is the legacy default stream
using Event = void*;  // CUevent
using ExternalMemory = void*;  // CUexternalMemory
using ExternalSemaphore = void*;  // CUexternalSemaphore

struct Uuid {
  unsigned char bytes[16];
};

// CUDA_EXTERNAL_MEMORY_HANDLE_DESC
struct ExternalMemoryHandleDesc {
  int type = 0;  // CUexternalMemoryHandleType: 1 = opaque file descriptor
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* nv_sci_buf_object;
  } handle{};
  unsigned long long size = 0;
  unsigned int flags = 0;  // 1 = CUDA_EXTERNAL_MEMORY_DEDICATED
  unsigned int reserved[16]{};
};
constexpr int kHandleTypeOpaqueFd = 1;
constexpr unsigned kExternalMemoryDedicated = 1;

// CUDA_EXTERNAL_MEMORY_BUFFER_DESC
struct ExternalMemoryBufferDesc {
  unsigned long long offset = 0;
  unsigned long long size = 0;
  unsigned int flags = 0;
  unsigned int reserved[16]{};
};

// CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC
struct ExternalSemaphoreHandleDesc {
  int type = 0;  // CUexternalSemaphoreHandleType: 9 = a timeline semaphore's opaque file descriptor
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* nv_sci_sync_object;
  } handle{};
  unsigned int flags = 0;
  unsigned int reserved[16]{};
};
constexpr int kSemaphoreTypeTimelineFd = 9;  // CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD

// CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS and _WAIT_PARAMS: a timeline's value in params.fence.value.
struct ExternalSemaphoreSignalParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void* fence;
      unsigned long long reserved;
    } nv_sci_sync;
    struct {
      unsigned long long key;
    } keyed_mutex;
    unsigned int reserved[12];
  } params{};
  unsigned int flags = 0;
  unsigned int reserved[16]{};
};
struct ExternalSemaphoreWaitParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void* fence;
      unsigned long long reserved;
    } nv_sci_sync;
    struct {
      unsigned long long key;
      unsigned int timeout_ms;
    } keyed_mutex;
    unsigned int reserved[10];
  } params{};
  unsigned int flags = 0;
  unsigned int reserved[16]{};
};

// CUDA_MEMCPY2D
struct Memcpy2D {
  std::size_t src_x_bytes = 0, src_y = 0;
  int src_memory_type = 0;  // CUmemorytype: 2 = device
  const void* src_host = nullptr;
  DevicePtr src_device = 0;
  void* src_array = nullptr;
  std::size_t src_pitch = 0;
  std::size_t dst_x_bytes = 0, dst_y = 0;
  int dst_memory_type = 0;
  void* dst_host = nullptr;
  DevicePtr dst_device = 0;
  void* dst_array = nullptr;
  std::size_t dst_pitch = 0;
  std::size_t width_bytes = 0, height = 0;
};
constexpr int kMemoryTypeDevice = 2;
constexpr int kPointerAttributeMemoryType = 2;     // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int kPointerAttributeDeviceOrdinal = 9;  // CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
constexpr unsigned kEventDisableTiming = 2;

// The entry points, with the versioned names the driver exports for the current ABI.
#define FASTBLUR_CUDA_FUNCTIONS(X)                                                                     \
  X(cuInit, "cuInit", Result(unsigned))                                                            \
  X(cuDriverGetVersion, "cuDriverGetVersion", Result(int*))                                        \
  X(cuDeviceGetCount, "cuDeviceGetCount", Result(int*))                                            \
  X(cuDeviceGet, "cuDeviceGet", Result(DeviceOrdinal*, int))                                       \
  X(cuDeviceGetName, "cuDeviceGetName", Result(char*, int, DeviceOrdinal))                         \
  X(cuDeviceGetUuid, "cuDeviceGetUuid", Result(Uuid*, DeviceOrdinal))                              \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", Result(ContextHandle*, DeviceOrdinal))   \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", Result(DeviceOrdinal))              \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", Result(ContextHandle))                                \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", Result(ContextHandle*))                                 \
  X(cuPointerGetAttribute, "cuPointerGetAttribute", Result(void*, int, DevicePtr))                 \
  X(cuImportExternalMemory, "cuImportExternalMemory",                                                  \
    Result(ExternalMemory*, const ExternalMemoryHandleDesc*))                                      \
  X(cuExternalMemoryGetMappedBuffer, "cuExternalMemoryGetMappedBuffer",                                \
    Result(DevicePtr*, ExternalMemory, const ExternalMemoryBufferDesc*))                           \
  X(cuDestroyExternalMemory, "cuDestroyExternalMemory", Result(ExternalMemory))                    \
  X(cuMemFree, "cuMemFree_v2", Result(DevicePtr))                                                  \
  X(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", Result(const Memcpy2D*, Stream))                        \
  X(cuEventCreate, "cuEventCreate", Result(Event*, unsigned))                                      \
  X(cuEventRecord, "cuEventRecord", Result(Event, Stream))                                         \
  X(cuEventSynchronize, "cuEventSynchronize", Result(Event))                                       \
  X(cuEventDestroy, "cuEventDestroy_v2", Result(Event))                                            \
  X(cuStreamWaitEvent, "cuStreamWaitEvent", Result(Stream, Event, unsigned))                       \
  X(cuImportExternalSemaphore, "cuImportExternalSemaphore",                                            \
    Result(ExternalSemaphore*, const ExternalSemaphoreHandleDesc*))                                \
  X(cuSignalExternalSemaphoresAsync, "cuSignalExternalSemaphoresAsync",                                \
    Result(const ExternalSemaphore*, const ExternalSemaphoreSignalParams*, unsigned, Stream))      \
  X(cuWaitExternalSemaphoresAsync, "cuWaitExternalSemaphoresAsync",                                    \
    Result(const ExternalSemaphore*, const ExternalSemaphoreWaitParams*, unsigned, Stream))        \
  X(cuDestroyExternalSemaphore, "cuDestroyExternalSemaphore", Result(ExternalSemaphore))           \
  X(cuGetErrorName, "cuGetErrorName", Result(Result, const char**))

struct Driver {
#define FASTBLUR_CUDA_MEMBER(member, symbol, type) std::add_pointer_t<type> member = nullptr;
  FASTBLUR_CUDA_FUNCTIONS(FASTBLUR_CUDA_MEMBER)
#undef FASTBLUR_CUDA_MEMBER

  /// Throws DeviceError "<what> failed: CUDA_ERROR_..." unless r is CUDA_SUCCESS.
  void check(Result r, const char* what) const;
};

/// The driver, opened and initialised (cuInit) once per process, thread-safe; every later call
/// returns it or throws the first call's error again: DeviceError "no CUDA driver (libcuda.so.1)
/// was found: ..." where it cannot be opened, naming the entry point where one is missing, or
/// naming cuInit's error (no CUDA device).
const Driver& driver();

/// CUDA device `ordinal`'s primary context (what PyTorch and CuPy use, so pointers and streams of
/// theirs are valid in it), retained for this object's life: a context whose last holder releases it
/// is destroyed with everything made in it (imported memory and semaphores, events), even where its
/// user (a library that has not touched CUDA yet) makes a new one later.
class PrimaryContext {
 public:
  PrimaryContext(const Driver& d, int ordinal);
  ~PrimaryContext();
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  ContextHandle handle() const noexcept { return context_; }

 private:
  const Driver& d_;
  DeviceOrdinal device_ = 0;
  ContextHandle context_ = nullptr;
};

/// A context made current on this thread for a scope.
class CurrentContext {
 public:
  CurrentContext(const Driver& d, ContextHandle context);
  ~CurrentContext();
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;

 private:
  const Driver& d_;
};

}  // namespace fastblur::cu
