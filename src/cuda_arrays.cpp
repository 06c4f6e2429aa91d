// fastblur/cuda.hpp: a CUDA array copied once into an exported Vulkan buffer that CUDA maps, blurred
// there by fastblur::vulkan::blur with the plan this front door makes and records (the plan of any
// Vulkan buffer of that shape), copied once out. A build without Vulkan refuses, naming why.
#include "fastblur/cuda.hpp"

#include "fastblur/error.hpp"

#ifdef FASTBLUR_HAVE_VULKAN

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device_access.hpp"
#include "fastblur/vulkan.hpp"
#include "front_door.hpp"
#include "vulkan/context.hpp"
#include "vulkan/context_devices.hpp"
#include "vulkan/cuda_driver.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/interop_timed.hpp"
#include "vulkan/stopwatch.hpp"

namespace fastblur::cuda {
namespace {

std::atomic<std::uint64_t> import_count{0};
thread_local CallTiming last_call;

// One device's buffer that both APIs see, kept between calls. `done` is recorded on the caller's
// stream after each copy out: the next call's copy in waits for it (its stream may be another one)
// and a replacement of the buffer waits for it on the host.
struct Mapped {
  std::unique_ptr<vk::Buffer> buffer;  // Kind::exported
  cu::ExternalMemory memory = nullptr;
  cu::DevicePtr pointer = 0;
  cu::Event done = nullptr;

  void release(const cu::Driver& d) noexcept {
    if (done) d.cuEventSynchronize(done);
    if (pointer) d.cuMemFree(pointer);
    if (memory) d.cuDestroyExternalMemory(memory);
    pointer = 0, memory = nullptr;
    buffer.reset();
  }
};

struct Slot {
  std::mutex mutex;  // one call at a time per device: the buffer is shared
  Device device;
  Mapped mapped;
};

std::mutex slots_mutex;
// Never destroyed itself (a slot may be in use by a thread at exit); its buffers are released by
// release_at_exit, before the Vulkan contexts and CUDA's state go.
std::map<int, std::unique_ptr<Slot>>& slots() {
  static auto* all = new std::map<int, std::unique_ptr<Slot>>();
  return *all;
}

Slot& slot_for(int ordinal) {
  std::lock_guard<std::mutex> lock(slots_mutex);
  auto& s = slots()[ordinal];
  if (!s) s = std::make_unique<Slot>();
  return *s;
}

void release_at_exit() {
  std::lock_guard<std::mutex> lock(slots_mutex);
  for (auto& [ordinal, s] : slots()) {
    std::lock_guard<std::mutex> slot_lock(s->mutex);
    try {
      if (s->mapped.buffer) {
        cu::ScopedContext context(cu::driver(), ordinal);
        s->mapped.release(cu::driver());
      }
    } catch (const std::exception&) {
      s->mapped.buffer.reset();  // CUDA is gone already: its mappings went with it
    }
    s->device = Device();
  }
}

Device find_vulkan_device(int ordinal) {
  const cu::Driver& d = cu::driver();
  int count = 0;
  d.check(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= count)
    throw DeviceError("CUDA device " + std::to_string(ordinal) + " does not exist (there are " + std::to_string(count) + ")");
  cu::DeviceOrdinal dev = 0;
  d.check(d.cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  cu::Uuid uuid{};
  d.check(d.cuDeviceGetUuid(&uuid, dev), "cuDeviceGetUuid");
  char name[256] = {};
  d.cuDeviceGetName(name, sizeof name, dev);
  const std::string want = vk::uuid_text(uuid.bytes);
  std::vector<DeviceInfo> devices;
  try {
    devices = vulkan_devices();
  } catch (const Error& e) {
    throw DeviceError("CUDA device " + std::to_string(ordinal) + " (" + name + ") has no Vulkan device: " + e.what());
  }
  for (const DeviceInfo& info : devices) {
    if (info.uuid != want) continue;
    Device device = Device::vulkan(info.index);
    // Registered after the Vulkan contexts' registry and CUDA's own exit handlers exist, so it runs
    // before either is torn down.
    static std::once_flag once;
    std::call_once(once, [] { std::atexit(release_at_exit); });
    if (!DeviceAccess::context(device)->get_memory_fd())
      throw DeviceError("Vulkan device " + info.name + " (the CUDA device " + std::to_string(ordinal) +
                        ") lacks VK_KHR_external_memory_fd, which CUDA arrays need");
    return device;
  }
  throw DeviceError("no Vulkan device has the UUID of CUDA device " + std::to_string(ordinal) + " (" + name + ", " +
                    want + "): install its Vulkan driver (NVIDIA's ICD)");
}

// The name Python's and CUDA's users know a type by.
std::string numpy_name(ElementType t) {
  const std::string s(to_string(t));  // b8, u8 ... i64, f16 ... f64
  if (s == "b8") return "bool";
  const std::string bits = s.substr(1);
  switch (s[0]) {
    case 'u': return "uint" + bits;
    case 'i': return "int" + bits;
    default: return "float" + bits;
  }
}

void check_view(const DeviceView& v, const char* what) {
  const std::string w(what);
  if (!v.data) throw InvalidArgument(w + ": the pointer is null");
  if (v.extent[0] < 1 || v.extent[1] < 1 || v.extent[2] < 1 || v.channels < 1 || v.channels > 4)
    throw InvalidArgument(w + ": extents must be >= 1 and channels 1 to 4");
  if (v.type != ElementType::u8 && v.type != ElementType::u16 && v.type != ElementType::f16 && v.type != ElementType::f32)
    throw Unsupported(w + ": " + numpy_name(v.type) +
                      " CUDA arrays are not supported (the GPU path takes uint8, uint16, float16 and float32)");
  // Each layout refusal ends in the same words, which Python's front end answers with C-ordered copies.
  const auto refuse = [&](const std::string& why) { throw InvalidArgument(w + ": " + why + ": a layout the copies cannot take"); };
  const std::int64_t pixel = v.channels * static_cast<std::int64_t>(element_size(v.type));
  if (v.stride[0] != pixel)
    refuse("pixels must be packed along the last axis (stride " + std::to_string(v.stride[0]) + " bytes, not " +
           std::to_string(pixel) + ")");
  if (v.extent[1] > 1 && v.stride[1] < v.extent[0] * pixel)
    refuse("rows overlap or run backwards (row pitch " + std::to_string(v.stride[1]) + " bytes)");
  if (v.extent[2] > 1 && v.stride[2] < v.stride[1] * (v.extent[1] - 1) + v.extent[0] * pixel)
    refuse("planes overlap or run backwards (plane pitch " + std::to_string(v.stride[2]) + " bytes)");
}

std::uint64_t packed_bytes(const DeviceView& v) {
  return static_cast<std::uint64_t>(v.extent[0] * v.extent[1] * v.extent[2] * v.channels) * element_size(v.type);
}

// Between the caller's view and the packed image at `packed`: one 2D copy where the planes follow
// the rows at the row pitch, else one a plane.
void copy(const cu::Driver& d, const DeviceView& v, cu::DevicePtr packed, bool into_packed, cu::Stream stream) {
  const std::size_t row = static_cast<std::size_t>(v.extent[0] * v.stride[0]);
  const bool one = v.extent[2] == 1 || v.stride[2] == v.stride[1] * v.extent[1];
  const std::int64_t planes = one ? 1 : v.extent[2];
  const std::size_t rows = static_cast<std::size_t>(one ? v.extent[1] * v.extent[2] : v.extent[1]);
  for (std::int64_t z = 0; z < planes; ++z) {
    cu::Memcpy2D c;
    const cu::DevicePtr view_at = v.data + static_cast<std::uint64_t>(z * v.stride[2]);
    const cu::DevicePtr packed_at = packed + static_cast<std::uint64_t>(z) * rows * row;
    const std::size_t pitch = rows == 1 ? row : static_cast<std::size_t>(v.stride[1]);
    c.src_memory_type = c.dst_memory_type = cu::kMemoryTypeDevice;
    c.src_device = into_packed ? view_at : packed_at;
    c.src_pitch = into_packed ? pitch : row;
    c.dst_device = into_packed ? packed_at : view_at;
    c.dst_pitch = into_packed ? row : pitch;
    c.width_bytes = row;
    c.height = rows;
    d.check(d.cuMemcpy2DAsync(&c, stream), into_packed ? "cuMemcpy2DAsync (in)" : "cuMemcpy2DAsync (out)");
  }
}

// The slot's buffer at least `bytes` long, replaced (after its last copy out) when smaller.
void ensure(const cu::Driver& d, Slot& s, std::uint64_t bytes) {
  if (s.mapped.buffer && s.mapped.buffer->size() >= bytes) return;
  s.mapped.release(d);
  auto buffer = std::make_unique<vk::Buffer>(DeviceAccess::context(s.device), bytes + bytes / 4, vk::Buffer::Kind::exported);
  cu::ExternalMemoryHandleDesc desc;
  desc.type = cu::kHandleTypeOpaqueFd;
  desc.handle.fd = buffer->export_fd();
  desc.size = buffer->allocation_size();
  desc.flags = cu::kExternalMemoryDedicated;
  cu::ExternalMemory memory = nullptr;
  if (const cu::Result r = d.cuImportExternalMemory(&memory, &desc); r != 0) {
    ::close(desc.handle.fd);  // CUDA owns the descriptor only once the import succeeds
    d.check(r, "cuImportExternalMemory");
  }
  cu::ExternalMemoryBufferDesc range;
  range.size = buffer->size();
  cu::DevicePtr pointer = 0;
  if (const cu::Result r = d.cuExternalMemoryGetMappedBuffer(&pointer, memory, &range); r != 0) {
    d.cuDestroyExternalMemory(memory);
    d.check(r, "cuExternalMemoryGetMappedBuffer");
  }
  if (!s.mapped.done) d.check(d.cuEventCreate(&s.mapped.done, cu::kEventDisableTiming), "cuEventCreate");
  s.mapped.buffer = std::move(buffer);
  s.mapped.memory = memory;
  s.mapped.pointer = pointer;
  ++import_count;
}

// The packed image at `offset` of the shared buffer. It is acquired from and released to the
// external (CUDA) side: Vulkan's ownership transfer for memory another API writes and reads.
vulkan::BufferImage buffer_image(VkBuffer buffer, const DeviceView& v, std::uint64_t offset, ElementType type) {
  return vulkan::BufferImage{buffer, offset, v.extent[0], v.extent[1], v.extent[2], v.channels, type, VK_QUEUE_FAMILY_EXTERNAL};
}

}  // namespace

int device_of(std::uint64_t pointer) {
  const cu::Driver& d = cu::driver();
  int memory_type = 0;
  d.check(d.cuPointerGetAttribute(&memory_type, cu::kPointerAttributeMemoryType, pointer),
          "cuPointerGetAttribute (is the array in CUDA memory?)");
  if (memory_type != cu::kMemoryTypeDevice)
    throw InvalidArgument("the array is not in CUDA device memory (CUmemorytype " + std::to_string(memory_type) + ")");
  int ordinal = 0;
  d.check(d.cuPointerGetAttribute(&ordinal, cu::kPointerAttributeDeviceOrdinal, pointer), "cuPointerGetAttribute");
  return ordinal;
}

Device vulkan_device_for(int ordinal) {
  Slot& s = slot_for(ordinal);
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.device.is_cpu()) s.device = find_vulkan_device(ordinal);
  return s.device;
}

Plan plan(const DeviceView& src, ElementType destination, const BlurSpec& spec, int ordinal) {
  check_view(src, "source");
  // The buffers blur() hands the Vulkan backend, as it lays them out (no memory is touched).
  const vulkan::BufferImage in = buffer_image(VK_NULL_HANDLE, src, 0, src.type);
  return vulkan::plan(vulkan_device_for(ordinal), in, buffer_image(VK_NULL_HANDLE, src, 0, destination), spec);
}

void blur(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, int ordinal, std::uintptr_t stream) {
  check_view(src, "source");
  check_view(dst, "destination");
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  const auto start = vk::Clock::now();
  CallTiming timing;
  const Device device = vulkan_device_for(ordinal);
  const cu::Driver& d = cu::driver();
  Slot& s = slot_for(ordinal);
  std::lock_guard<std::mutex> lock(s.mutex);
  cu::ScopedContext context(d, ordinal);
  const auto cu_stream = reinterpret_cast<cu::Stream>(stream);
  // One region in place where the types agree, else the destination's after the source's.
  const std::uint64_t in_bytes = packed_bytes(src), out_bytes = packed_bytes(dst);
  const bool same = src.type == dst.type;
  const std::uint64_t out_offset = same ? 0 : (in_bytes + 255) / 256 * 256;
  ensure(d, s, out_offset + out_bytes);
  const cu::DevicePtr base = s.mapped.pointer;
  d.check(d.cuStreamWaitEvent(cu_stream, s.mapped.done, 0), "cuStreamWaitEvent");
  auto t = vk::Clock::now();
  copy(d, src, base, true, cu_stream);
  d.check(d.cuEventRecord(s.mapped.done, cu_stream), "cuEventRecord");
  d.check(d.cuEventSynchronize(s.mapped.done), "cuEventSynchronize");
  timing.copy_in_wait_ms = vk::ms_since(t);
  t = vk::Clock::now();
  const vulkan::BufferImage in = buffer_image(s.mapped.buffer->handle(), src, 0, src.type);
  const vulkan::BufferImage out = buffer_image(s.mapped.buffer->handle(), src, out_offset, dst.type);
  const Plan plan = vulkan::plan(device, in, out, spec);
  front_door::record_run(plan);
  timing.plan_ms = vk::ms_since(t);
  vulkan::BufferBlurTiming run;
  vulkan::run_buffers(device, in, out, plan, &run);
  copy(d, dst, base + out_offset, false, cu_stream);
  d.check(d.cuEventRecord(s.mapped.done, cu_stream), "cuEventRecord");
  timing.record_ms = run.record_ms;
  timing.run_ms = run.run_ms;
  timing.device_ms = run.device_ms;
  timing.convert_in_ms = run.convert_in_ms;
  timing.algorithm_ms = run.algorithm_ms;
  timing.convert_out_ms = run.convert_out_ms;
  timing.total_ms = vk::ms_since(start);
  last_call = timing;
}

CallTiming last_timing() { return last_call; }

std::uint64_t imports() { return import_count.load(); }

}  // namespace fastblur::cuda

#else  // a build without Vulkan: CUDA arrays travel through the Vulkan backend

namespace fastblur::cuda {
namespace {
[[noreturn]] void no_backend() { throw Unsupported("this build of fastblur has no Vulkan backend, which CUDA arrays need"); }
}  // namespace
int device_of(std::uint64_t) { no_backend(); }
Device vulkan_device_for(int) { no_backend(); }
Plan plan(const DeviceView&, ElementType, const BlurSpec&, int) { no_backend(); }
void blur(const DeviceView&, const DeviceView&, const BlurSpec&, int, std::uintptr_t) { no_backend(); }
std::uint64_t imports() { return 0; }
CallTiming last_timing() { return {}; }
}  // namespace fastblur::cuda

#endif
