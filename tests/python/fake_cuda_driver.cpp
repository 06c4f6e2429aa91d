// A stand-in for NVIDIA's CUDA driver (libcuda.so.1) for machines without a GPU, so that CI runs
// fastblur's CUDA-array path (src/cuda_arrays.cpp) end to end on lavapipe: "device memory" is host
// memory, and an imported Vulkan allocation (an opaque file descriptor, lavapipe's memfd) is mapped
// with mmap, so the bytes fastblur copies in are the bytes lavapipe's shaders read. An imported
// timeline semaphore is the record of the stand-in export layer
// (tests/vulkan/stand_in_semaphore_export_layer.cpp): signalled and waited on from the host through
// the Vulkan loader.
//
// One device, whose UUID is FASTBLUR_FAKE_CUDA_UUID (32 hex digits; lavapipe's is in
// fastblur.devices()). FASTBLUR_FAKE_CUDA_INIT_ERROR makes cuInit fail with that code (no device).
//
// Streams run their work in order on the calling thread, unless FASTBLUR_FAKE_CUDA_ASYNC_US is set:
// then each stream is a worker thread that runs its queue later, sleeping that many microseconds
// before each operation, as a GPU runs a stream behind the host - so work ordered wrongly (a blur
// that does not wait for the copy in, a copy out that does not wait for the blur) reads stale data
// and a test sees it. fake_cuda_synchronize() waits for every stream.
//
// The primary context lives while it is retained, as the real driver's does: released by its last
// holder it is destroyed, and what was imported or created in it (mappings, semaphores, events) is
// dead - a later use fails with CUDA_ERROR_CONTEXT_IS_DESTROYED, as NVIDIA's driver fails such a use
// (there, an "unspecified launch failure" that poisons the next context too).
//
// fake_cuda_live_imports() counts the mappings alive, fake_cuda_copies() the 2D copies made,
// fake_cuda_semaphore_waits() the stream waits on imported semaphores, fake_cuda_context_holders()
// the primary context's holders.
// Only what fastblur (and its tests) call is here, each with the argument checks the real driver makes.
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <vulkan/vulkan.h>

#include "vulkan/cuda_driver.hpp"
#include "vulkan/stand_in_semaphore.hpp"

namespace {

using CUresult = int;
enum {
  OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, CONTEXT_IS_DESTROYED = 709, INVALID_DEVICE = 101,
  INVALID_HANDLE = 400, NOT_SUPPORTED = 801
};

// The primary context: how many hold it, and which of its lives is the current one (each retain
// from no holder starts a new life; objects of an earlier life are dead).
std::mutex context_mutex;
int primary_holders = 0;
unsigned primary_life = 0;

unsigned current_life() {
  std::lock_guard<std::mutex> lock(context_mutex);
  return primary_holders > 0 ? primary_life : 0;  // 0: no context alive
}

// Something made in a life of the context.
struct InContext {
  unsigned life = current_life();
  bool alive() const { return life != 0 && life == current_life(); }
};

struct Mapping : InContext {
  void* base = nullptr;
  size_t size = 0, offset = 0;  // the whole file mapped; the allocation at base + offset
  Mapping(void* b, size_t s, size_t o) : base(b), size(s), offset(o) {}
};

// An imported timeline semaphore: signalled and waited on from the host, through the loader.
struct Semaphore : InContext {
  VkDevice device;
  VkSemaphore semaphore;
  PFN_vkSignalSemaphoreKHR signal;
  PFN_vkWaitSemaphoresKHR wait;
  Semaphore(VkDevice d, VkSemaphore s, PFN_vkSignalSemaphoreKHR sig, PFN_vkWaitSemaphoresKHR w)
      : device(d), semaphore(s), signal(sig), wait(w) {}
};

// An event: the number of records made and of records the streams have reached.
struct Event : InContext {
  std::mutex m;
  std::condition_variable cv;
  uint64_t recorded = 0, reached = 0;
};

// The mappings, by address: a copy that touches one of a dead context fails.
std::mutex mappings_mutex;
std::map<uintptr_t, Mapping*> mappings;

bool touches_dead_mapping(uint64_t address) {
  std::lock_guard<std::mutex> lock(mappings_mutex);
  for (const auto& [base, m] : mappings)
    if (address >= base && address < base + m->size) return !m->alive();
  return false;
}

// A stream of the asynchronous mode: a worker running a queue of operations in order.
class Stream {
 public:
  Stream() : worker_([this] { run(); }) { worker_.detach(); }
  void push(std::function<void()> op, long delay_us) {
    std::lock_guard<std::mutex> lock(m_);
    queue_.push_back([op = std::move(op), delay_us] {
      std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
      op();
    });
    ++queued_;
    cv_.notify_all();
  }
  void drain() {
    std::unique_lock<std::mutex> lock(m_);
    const uint64_t until = queued_;
    cv_.wait(lock, [&] { return done_ >= until; });
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> op;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return !queue_.empty(); });
        op = std::move(queue_.front());
        queue_.pop_front();
      }
      op();
      std::lock_guard<std::mutex> lock(m_);
      ++done_;
      cv_.notify_all();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  uint64_t queued_ = 0, done_ = 0;
  std::thread worker_;
};

int initialised = 0;
thread_local int current = 0;  // contexts pushed on this thread: the calls below need one, as the real driver's do
std::mutex allocations_mutex;
std::map<uint64_t, void*> allocations;  // the tests' cuMemAlloc memory
std::atomic<long> live_imports{0}, copies{0}, semaphore_waits{0};

// Read at each operation, so a test may switch modes (after fake_cuda_synchronize()).
long async_delay_us() {
  const char* e = getenv("FASTBLUR_FAKE_CUDA_ASYNC_US");
  return e && *e ? atol(e) : -1L;
}

std::mutex streams_mutex;
// Never destroyed: workers may run at exit.
std::map<void*, Stream*>& streams() {
  static auto* all = new std::map<void*, Stream*>();
  return *all;
}

// Runs `op` on `stream`: now (synchronous mode), or queued on the stream's worker.
void on_stream(void* stream, std::function<void()> op) {
  const long delay = async_delay_us();
  if (delay < 0) return op();
  Stream* s;
  {
    std::lock_guard<std::mutex> lock(streams_mutex);
    Stream*& slot = streams()[stream];
    if (!slot) slot = new Stream();
    s = slot;
  }
  s->push(std::move(op), delay);
}

PFN_vkGetDeviceProcAddr loader_device_proc_addr() {
  void* loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  return loader ? reinterpret_cast<PFN_vkGetDeviceProcAddr>(dlsym(loader, "vkGetDeviceProcAddr")) : nullptr;
}

}  // namespace

extern "C" {

// The entry points take fastblur's declarations of the driver's types (src/vulkan/cuda_driver.hpp),
// so that a call through the loaded pointers has the very function type UBSan checks it against.
using fastblur::cu::ExternalMemoryBufferDesc;
using fastblur::cu::ExternalMemoryHandleDesc;
using fastblur::cu::ExternalSemaphoreHandleDesc;
using fastblur::cu::ExternalSemaphoreSignalParams;
using fastblur::cu::ExternalSemaphoreWaitParams;
using fastblur::cu::Memcpy2D;
using fastblur::cu::Uuid;

long fake_cuda_live_imports(void) { return live_imports; }
long fake_cuda_copies(void) { return copies; }
long fake_cuda_semaphore_waits(void) { return semaphore_waits; }
long fake_cuda_context_holders(void) {
  std::lock_guard<std::mutex> lock(context_mutex);
  return primary_holders;
}

void fake_cuda_synchronize(void) {
  std::lock_guard<std::mutex> lock(streams_mutex);
  for (auto& [handle, s] : streams()) s->drain();
}

CUresult cuInit(unsigned flags) {
  const char* e = getenv("FASTBLUR_FAKE_CUDA_INIT_ERROR");
  if (flags != 0) return INVALID_VALUE;
  if (e && *e) return atoi(e);
  initialised = 1;
  return OK;
}

CUresult cuDriverGetVersion(int* v) {
  *v = 12000;
  return OK;
}

CUresult cuDeviceGetCount(int* n) {
  if (!initialised) return NOT_INITIALIZED;
  *n = 1;
  return OK;
}

CUresult cuDeviceGet(int* d, int ordinal) {
  if (!initialised) return NOT_INITIALIZED;
  if (ordinal != 0) return INVALID_DEVICE;
  *d = 0;
  return OK;
}

CUresult cuDeviceGetName(char* name, int len, int d) {
  if (d != 0) return INVALID_DEVICE;
  strncpy(name, "fake CUDA device", (size_t)len);
  if (len > 0) name[len - 1] = 0;
  return OK;
}

CUresult cuDeviceGetUuid(Uuid* id, int d) {
  unsigned char* uuid = id->bytes;
  const char* hex = getenv("FASTBLUR_FAKE_CUDA_UUID");
  if (d != 0) return INVALID_DEVICE;
  memset(uuid, 0, 16);
  for (int i = 0; hex && i < 16 && hex[2 * i] && hex[2 * i + 1]; ++i) {
    char byte[3] = {hex[2 * i], hex[2 * i + 1], 0};
    uuid[i] = (unsigned char)strtoul(byte, NULL, 16);
  }
  return OK;
}

CUresult cuDevicePrimaryCtxRetain(void** ctx, int d) {
  if (d != 0) return INVALID_DEVICE;
  std::lock_guard<std::mutex> lock(context_mutex);
  if (primary_holders++ == 0) ++primary_life;  // a new context
  *ctx = (void*)0x1;
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int d) {
  if (d != 0) return INVALID_DEVICE;
  std::lock_guard<std::mutex> lock(context_mutex);
  if (primary_holders == 0) return INVALID_VALUE;
  --primary_holders;  // at 0 the context is destroyed with what was made in it
  return OK;
}
CUresult cuCtxPushCurrent_v2(void* ctx) {
  if (!ctx) return INVALID_HANDLE;
  ++current;
  return OK;
}
CUresult cuCtxPopCurrent_v2(void** ctx) {
  if (current == 0) return INVALID_VALUE;
  --current;
  if (ctx) *ctx = (void*)0x1;
  return OK;
}

CUresult cuPointerGetAttribute(void* out, int attribute, uint64_t ptr) {
  if (!ptr) return INVALID_VALUE;
  if (attribute == 2) *(unsigned*)out = 2; /* CU_MEMORYTYPE_DEVICE */
  else if (attribute == 9) *(int*)out = 0;
  else return INVALID_VALUE;
  return OK;
}

CUresult cuImportExternalMemory(void** mem, const ExternalMemoryHandleDesc* desc) {
  if (current == 0) return NOT_INITIALIZED;
  if (desc->type != 1 || desc->handle.fd < 0 || desc->size == 0) return INVALID_VALUE;
  // Mesa's memory files (lavapipe's exports) start with a header - the file's size and the
  // allocation's alignment as 64-bit words, then an identifier - and hold the allocation at the
  // first multiple of that alignment; a plain file of the allocation's size holds it at 0.
  struct stat st;
  if (fstat(desc->handle.fd, &st) != 0 || (unsigned long long)st.st_size < desc->size) return INVALID_VALUE;
  const size_t file_size = (size_t)st.st_size;
  void* whole = mmap(NULL, file_size, PROT_READ | PROT_WRITE, MAP_SHARED, desc->handle.fd, 0);
  if (whole == MAP_FAILED) return INVALID_VALUE;
  size_t offset = 0;
  if (file_size > desc->size && file_size >= 16) {
    const uint64_t* header = static_cast<const uint64_t*>(whole);
    const uint64_t align = header[1];
    if (header[0] == file_size && align && (align & (align - 1)) == 0 && align + desc->size <= file_size) offset = align;
  }
  close(desc->handle.fd); /* the driver owns the descriptor once the import succeeds */
  auto* m = new Mapping(whole, file_size, offset);
  {
    std::lock_guard<std::mutex> lock(mappings_mutex);
    mappings[(uintptr_t)whole] = m;
  }
  *mem = m;
  ++live_imports;
  return OK;
}

CUresult cuExternalMemoryGetMappedBuffer(uint64_t* ptr, void* mem, const ExternalMemoryBufferDesc* desc) {
  Mapping* m = static_cast<Mapping*>(mem);
  if (current == 0) return NOT_INITIALIZED;
  if (!m || m->offset + desc->offset + desc->size > m->size) return INVALID_VALUE;
  if (!m->alive()) return CONTEXT_IS_DESTROYED;
  *ptr = (uint64_t)(uintptr_t)m->base + m->offset + desc->offset;
  return OK;
}

CUresult cuDestroyExternalMemory(void* mem) {
  Mapping* m = static_cast<Mapping*>(mem);
  if (!m) return INVALID_HANDLE;
  fake_cuda_synchronize();  // nothing queued may touch it afterwards
  {
    std::lock_guard<std::mutex> lock(mappings_mutex);
    mappings.erase((uintptr_t)m->base);
  }
  munmap(m->base, m->size);
  delete m;
  --live_imports;
  return OK;
}

// Device memory of the tests' own (the stand-in's is host memory).
CUresult cuMemAlloc_v2(uint64_t* ptr, size_t bytes) {
  if (current == 0) return NOT_INITIALIZED;
  void* p = malloc(bytes ? bytes : 1);
  if (!p) return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
  *ptr = (uint64_t)(uintptr_t)p;
  std::lock_guard<std::mutex> lock(allocations_mutex);
  allocations[*ptr] = p;
  return OK;
}
// An allocation of cuMemAlloc is freed; a mapped buffer's pointer (fastblur frees those) has nothing to free.
CUresult cuMemFree_v2(uint64_t ptr) {
  if (!ptr) return INVALID_VALUE;
  fake_cuda_synchronize();
  std::lock_guard<std::mutex> lock(allocations_mutex);
  if (auto it = allocations.find(ptr); it != allocations.end()) {
    free(it->second);
    allocations.erase(it);
  }
  return OK;
}
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t bytes) {
  fake_cuda_synchronize();
  memcpy((void*)(uintptr_t)dst, src, bytes);
  return OK;
}
CUresult cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t bytes) {
  fake_cuda_synchronize();
  memcpy(dst, (const void*)(uintptr_t)src, bytes);
  return OK;
}
CUresult cuCtxSynchronize(void) {
  fake_cuda_synchronize();
  return OK;
}

CUresult cuStreamCreate(void** stream, unsigned flags) {
  (void)flags;
  *stream = new char;  // a handle: its work runs on a worker of its own in the asynchronous mode
  return OK;
}
CUresult cuStreamDestroy_v2(void* stream) {
  if (!stream) return INVALID_HANDLE;
  fake_cuda_synchronize();
  return OK;  // the handle stays a key of its (idle) worker: a later stream gets another address
}
CUresult cuStreamSynchronize(void* stream) {
  (void)stream;
  fake_cuda_synchronize();
  return OK;
}

CUresult cuMemcpy2DAsync_v2(const Memcpy2D* c, void* stream) {
  if (current == 0) return NOT_INITIALIZED;
  if (c->src_memory_type != 2 || c->dst_memory_type != 2 || c->src_pitch < c->width_bytes || c->dst_pitch < c->width_bytes) return INVALID_VALUE;
  if (touches_dead_mapping(c->src_device) || touches_dead_mapping(c->dst_device)) return CONTEXT_IS_DESTROYED;
  const Memcpy2D copy = *c;
  ++copies;
  on_stream(stream, [copy] {
    const char* src = (const char*)(uintptr_t)copy.src_device + copy.src_y * copy.src_pitch + copy.src_x_bytes;
    char* dst = (char*)(uintptr_t)copy.dst_device + copy.dst_y * copy.dst_pitch + copy.dst_x_bytes;
    for (size_t r = 0; r < copy.height; ++r) memmove(dst + r * copy.dst_pitch, src + r * copy.src_pitch, copy.width_bytes);
  });
  return OK;
}

CUresult cuEventCreate(void** ev, unsigned flags) {
  (void)flags;
  *ev = new Event();
  return OK;
}
CUresult cuEventRecord(void* handle, void* stream) {
  Event* ev = static_cast<Event*>(handle);
  if (!ev) return INVALID_HANDLE;
  if (!ev->alive()) return CONTEXT_IS_DESTROYED;
  uint64_t n;
  {
    std::lock_guard<std::mutex> lock(ev->m);
    n = ++ev->recorded;
  }
  on_stream(stream, [ev, n] {
    std::lock_guard<std::mutex> lock(ev->m);
    ev->reached = std::max(ev->reached, n);
    ev->cv.notify_all();
  });
  return OK;
}
CUresult cuEventSynchronize(void* handle) {
  Event* ev = static_cast<Event*>(handle);
  if (!ev) return INVALID_HANDLE;
  if (!ev->alive()) return CONTEXT_IS_DESTROYED;
  std::unique_lock<std::mutex> lock(ev->m);
  const uint64_t until = ev->recorded;
  ev->cv.wait(lock, [&] { return ev->reached >= until; });
  return OK;
}
CUresult cuEventDestroy_v2(void* handle) {
  delete static_cast<Event*>(handle);
  return OK;
}
CUresult cuStreamWaitEvent(void* stream, void* handle, unsigned flags) {
  Event* ev = static_cast<Event*>(handle);
  if (!ev || flags != 0) return INVALID_HANDLE;
  if (!ev->alive()) return CONTEXT_IS_DESTROYED;
  uint64_t until;
  {
    std::lock_guard<std::mutex> lock(ev->m);
    until = ev->recorded;  // the record made before this call, as CUDA's
  }
  on_stream(stream, [ev, until] {
    std::unique_lock<std::mutex> lock(ev->m);
    ev->cv.wait(lock, [&] { return ev->reached >= until; });
  });
  return OK;
}

CUresult cuImportExternalSemaphore(void** out, const ExternalSemaphoreHandleDesc* desc) {
  if (current == 0) return NOT_INITIALIZED;
  if (desc->type != fastblur::cu::kSemaphoreTypeTimelineFd || desc->handle.fd < 0) return INVALID_VALUE;
  fastblur::test::StandInSemaphore record{};
  if (pread(desc->handle.fd, &record, sizeof record, 0) != static_cast<ssize_t>(sizeof record) ||
      record.magic != fastblur::test::kStandInSemaphoreMagic)
    return NOT_SUPPORTED;  // not the stand-in layer's: a real driver's semaphore this stand-in cannot use
  const PFN_vkGetDeviceProcAddr proc = loader_device_proc_addr();
  if (!proc) return NOT_SUPPORTED;
  const VkDevice device = reinterpret_cast<VkDevice>(record.device);
  auto* s = new Semaphore(device, reinterpret_cast<VkSemaphore>(record.semaphore),
                          reinterpret_cast<PFN_vkSignalSemaphoreKHR>(proc(device, "vkSignalSemaphoreKHR")),
                          reinterpret_cast<PFN_vkWaitSemaphoresKHR>(proc(device, "vkWaitSemaphoresKHR")));
  if (!s->signal || !s->wait) {
    delete s;
    return NOT_SUPPORTED;
  }
  close(desc->handle.fd);
  *out = s;
  return OK;
}

CUresult cuSignalExternalSemaphoresAsync(void* const* semaphores, const ExternalSemaphoreSignalParams* params, unsigned n,
                                         void* stream) {
  if (current == 0) return NOT_INITIALIZED;
  for (unsigned i = 0; i < n; ++i) {
    Semaphore* s = static_cast<Semaphore*>(semaphores[i]);
    if (!s) return INVALID_HANDLE;
    if (!s->alive()) return CONTEXT_IS_DESTROYED;
    const uint64_t value = params[i].params.fence.value;
    on_stream(stream, [s, value] {
      VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
      info.semaphore = s->semaphore;
      info.value = value;
      s->signal(s->device, &info);
    });
  }
  return OK;
}

CUresult cuWaitExternalSemaphoresAsync(void* const* semaphores, const ExternalSemaphoreWaitParams* params, unsigned n,
                                       void* stream) {
  if (current == 0) return NOT_INITIALIZED;
  for (unsigned i = 0; i < n; ++i) {
    Semaphore* s = static_cast<Semaphore*>(semaphores[i]);
    if (!s) return INVALID_HANDLE;
    if (!s->alive()) return CONTEXT_IS_DESTROYED;
    const uint64_t value = params[i].params.fence.value;
    ++semaphore_waits;
    on_stream(stream, [s, value] {
      VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
      info.semaphoreCount = 1;
      info.pSemaphores = &s->semaphore;
      info.pValues = &value;
      s->wait(s->device, &info, UINT64_MAX);
    });
  }
  return OK;
}

CUresult cuDestroyExternalSemaphore(void* handle) {
  if (!handle) return INVALID_HANDLE;
  fake_cuda_synchronize();
  delete static_cast<Semaphore*>(handle);
  return OK;
}

CUresult cuGetErrorName(CUresult r, const char** name) {
  switch (r) {
    case INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; return OK;
    case NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
    case 2: *name = "CUDA_ERROR_OUT_OF_MEMORY"; return OK;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return OK;
    case INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; return OK;
    case INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; return OK;
    case NOT_SUPPORTED: *name = "CUDA_ERROR_NOT_SUPPORTED"; return OK;
    case CONTEXT_IS_DESTROYED: *name = "CUDA_ERROR_CONTEXT_IS_DESTROYED"; return OK;
    default: *name = NULL; return INVALID_VALUE;
  }
}

}  // extern "C"
