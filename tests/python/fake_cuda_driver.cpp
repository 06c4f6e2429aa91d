// A stand-in for NVIDIA's CUDA driver (libcuda.so.1) for machines without a GPU, so that CI runs
// fastblur's CUDA-array path (src/vulkan/cuda_interop.cpp) end to end on lavapipe: "device memory"
// is host memory, and an imported Vulkan allocation (an opaque file descriptor, lavapipe's memfd) is
// mapped with mmap, so the bytes fastblur copies in are the bytes lavapipe's shaders read.
//
// One device, whose UUID is FASTBLUR_FAKE_CUDA_UUID (32 hex digits; lavapipe's is in
// fastblur.devices()). FASTBLUR_FAKE_CUDA_INIT_ERROR makes cuInit fail with that code (no device).
// fake_cuda_live_imports() counts the mappings alive, fake_cuda_copies() the 2D copies made.
// Only what fastblur calls is here, each with the argument checks the real driver makes.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/stat.h>

#include "vulkan/cuda_driver.hpp"

extern "C" {

using CUresult = int;
enum { OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_DEVICE = 101, INVALID_HANDLE = 400 };
// The entry points take fastblur's declarations of the driver's types (src/vulkan/cuda_driver.hpp),
// so that a call through the loaded pointers has the very function type UBSan checks it against.
using fastblur::cu::ExternalMemoryHandleDesc;
using fastblur::cu::ExternalMemoryBufferDesc;
using fastblur::cu::Memcpy2D;
using fastblur::cu::Uuid;

typedef struct {
  void* base;
  size_t size, offset;  // the whole file mapped; the allocation at base + offset
} Mapping;

static int initialised = 0;
static long live_imports = 0, copies = 0;

long fake_cuda_live_imports(void) { return live_imports; }
long fake_cuda_copies(void) { return copies; }

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

static int current = 0; /* contexts pushed: the calls below need one, as the real driver's do */

CUresult cuDevicePrimaryCtxRetain(void** ctx, int d) {
  if (d != 0) return INVALID_DEVICE;
  *ctx = (void*)0x1;
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int d) { return d == 0 ? OK : INVALID_DEVICE; }
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
  Mapping* m = static_cast<Mapping*>(malloc(sizeof *m));
  m->base = whole;
  m->size = file_size;
  m->offset = offset;
  *mem = m;
  ++live_imports;
  return OK;
}

CUresult cuExternalMemoryGetMappedBuffer(uint64_t* ptr, void* mem, const ExternalMemoryBufferDesc* desc) {
  Mapping* m = static_cast<Mapping*>(mem);
  if (current == 0) return NOT_INITIALIZED;
  if (!m || m->offset + desc->offset + desc->size > m->size) return INVALID_VALUE;
  *ptr = (uint64_t)(uintptr_t)m->base + m->offset + desc->offset;
  return OK;
}

CUresult cuDestroyExternalMemory(void* mem) {
  Mapping* m = static_cast<Mapping*>(mem);
  if (!m) return INVALID_HANDLE;
  munmap(m->base, m->size);
  free(m);
  --live_imports;
  return OK;
}

CUresult cuMemFree_v2(uint64_t ptr) { return ptr ? OK : INVALID_VALUE; }

CUresult cuMemcpy2DAsync_v2(const Memcpy2D* c, void* stream) {
  (void)stream;
  if (current == 0) return NOT_INITIALIZED;
  if (c->src_memory_type != 2 || c->dst_memory_type != 2 || c->src_pitch < c->width_bytes || c->dst_pitch < c->width_bytes) return INVALID_VALUE;
  const char* src = (const char*)(uintptr_t)c->src_device + c->src_y * c->src_pitch + c->src_x_bytes;
  char* dst = (char*)(uintptr_t)c->dst_device + c->dst_y * c->dst_pitch + c->dst_x_bytes;
  for (size_t r = 0; r < c->height; ++r) memmove(dst + r * c->dst_pitch, src + r * c->src_pitch, c->width_bytes);
  ++copies;
  return OK;
}

CUresult cuEventCreate(void** ev, unsigned flags) {
  (void)flags;
  *ev = malloc(1);
  return OK;
}
CUresult cuEventRecord(void* ev, void* stream) {
  (void)stream;
  return ev ? OK : INVALID_HANDLE;
}
CUresult cuEventSynchronize(void* ev) { return ev ? OK : INVALID_HANDLE; }
CUresult cuEventDestroy_v2(void* ev) {
  free(ev);
  return OK;
}
CUresult cuStreamWaitEvent(void* stream, void* ev, unsigned flags) {
  (void)stream;
  return ev && flags == 0 ? OK : INVALID_HANDLE;
}

CUresult cuGetErrorName(CUresult r, const char** name) {
  switch (r) {
    case INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; return OK;
    case NOT_INITIALIZED: *name = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return OK;
    case INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; return OK;
    case INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; return OK;
    default: *name = NULL; return INVALID_VALUE;
  }
}

}  // extern "C"
