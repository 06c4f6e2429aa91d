// fastblur/cuda.hpp: a CUDA array copied once into an exported Vulkan buffer that CUDA maps, blurred
// there by fastblur::vulkan::blur with the plan this front door makes and records (the plan of any
// Vulkan buffer of that shape, with its handoff: a shared timeline semaphore or host waits), copied
// once out. A build without Vulkan refuses, naming why.
#include "fastblur/cuda.hpp"

#include "fastblur/error.hpp"

#ifdef FASTBLUR_HAVE_VULKAN

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device_access.hpp"
#include "fastblur/vulkan.hpp"
#include "cuda_arrays_internal.hpp"
#include "front_door.hpp"
#include "missing_rules.hpp"
#include "vulkan/context.hpp"
#include "vulkan/context_devices.hpp"
#include "vulkan/cuda_driver.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/interop_timed.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shared_timeline.hpp"
#include "vulkan/stopwatch.hpp"

namespace fastblur::cuda {
namespace {

std::atomic<std::uint64_t> import_count{0};

// How many calls may be in flight on a device with semaphores: each has a slot (its buffer, its
// timeline, its Vulkan job), reused once the call that last used it is done. Host waits need one.
constexpr std::size_t kRing = 3;

// A call's timing, with the device's part filled in once its job has run.
struct TimingRecord {
  CallTiming timing;
  bool complete = false;
};

// One buffer that both APIs see, and the work of the call that used it last. `done` is recorded on
// the caller's stream after each copy out: the slot's next copy in waits for it (its stream may be
// another one) and a replacement of the buffer waits for it on the host.
struct Slot {
  std::mutex mutex;  // one call at a time
  std::unique_ptr<vk::Buffer> buffer;  // Kind::exported
  cu::ExternalMemory memory = nullptr;
  cu::DevicePtr pointer = 0;
  cu::Event done = nullptr;
  // Semaphores: the slot's timeline (the stream signals odd values after its copy in, the Vulkan
  // job the next even value when it is done), and the job until it is known to be done.
  std::unique_ptr<vk::SharedTimeline> timeline;
  cu::ExternalSemaphore semaphore = nullptr;
  std::uint64_t value = 0;
  std::unique_ptr<vk::Job> job;
  std::shared_ptr<TimingRecord> timing;

  // Waits (on the host) for the last call's Vulkan work, if it is still running, and reads its timing.
  void retire() {
    if (!job) return;
    std::unique_ptr<vk::Job> j = std::move(job);
    j->finish();
    if (timing) {
      vulkan::BufferBlurTiming t;
      vulkan::device_timing(*j, t);
      timing->timing.device_ms = t.device_ms;
      timing->timing.convert_in_ms = t.convert_in_ms;
      timing->timing.algorithm_ms = t.algorithm_ms;
      timing->timing.convert_out_ms = t.convert_out_ms;
      timing->complete = true;
    }
  }

  void release_buffer(const cu::Driver& d) noexcept {
    if (done) d.cuEventSynchronize(done);
    if (pointer) d.cuMemFree(pointer);
    if (memory) d.cuDestroyExternalMemory(memory);
    pointer = 0, memory = nullptr;
    buffer.reset();
  }

  void release(const cu::Driver& d) noexcept {
    try {
      retire();
    } catch (const std::exception&) {  // a lost device: nothing left to wait for
    }
    release_buffer(d);
    if (semaphore) d.cuDestroyExternalSemaphore(semaphore);
    semaphore = nullptr;
    timeline.reset();
    if (done) d.cuEventDestroy(done);
    done = nullptr;
  }
};

// A CUDA device's Vulkan twin and its ring of slots, and its primary context, held while the slots
// hold what was imported and made in it (a caller that has not touched CUDA yet would otherwise see
// it destroyed under them when our scope released it: NVIDIA's driver then fails the next call
// with an unspecified launch failure).
struct DeviceState {
  std::mutex mutex;  // setup and `next`
  std::unique_ptr<cu::PrimaryContext> context;
  Device device;
  CudaHandoff handoff = CudaHandoff::none;
  std::string why_host_waits;
  std::array<Slot, kRing> ring;
  std::size_t next = 0;

  std::size_t slots() const { return handoff == CudaHandoff::host_waits ? 1 : kRing; }
};

thread_local std::shared_ptr<TimingRecord> last_call;
thread_local Slot* last_slot = nullptr;

std::mutex states_mutex;
// Never destroyed itself (a slot may be in use by a thread at exit); its buffers are released by
// release_devices, at exit before the Vulkan contexts and CUDA's state go.
std::map<int, std::unique_ptr<DeviceState>>& states() {
  static auto* all = new std::map<int, std::unique_ptr<DeviceState>>();
  return *all;
}

DeviceState& state_for(int ordinal) {
  std::lock_guard<std::mutex> lock(states_mutex);
  auto& s = states()[ordinal];
  if (!s) s = std::make_unique<DeviceState>();
  return *s;
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
    std::call_once(once, [] { std::atexit(release_devices); });
    if (!DeviceAccess::context(device)->get_memory_fd())
      throw DeviceError("Vulkan device " + info.name + " (the CUDA device " + std::to_string(ordinal) +
                        ") lacks VK_KHR_external_memory_fd, which CUDA arrays need");
    return device;
  }
  throw DeviceError("no Vulkan device has the UUID of CUDA device " + std::to_string(ordinal) + " (" + name + ", " +
                    want + "): install its Vulkan driver (NVIDIA's ICD)");
}

// The slot's timeline, made and imported into CUDA on its first use (the caller's context current).
void share_timeline(const cu::Driver& d, const Device& device, Slot& s) {
  if (s.semaphore) return;
  auto timeline = std::make_unique<vk::SharedTimeline>(DeviceAccess::context(device));
  cu::ExternalSemaphoreHandleDesc desc;
  desc.type = cu::kSemaphoreTypeTimelineFd;
  desc.handle.fd = timeline->export_fd();
  cu::ExternalSemaphore semaphore = nullptr;
  if (const cu::Result r = d.cuImportExternalSemaphore(&semaphore, &desc); r != 0) {
    ::close(desc.handle.fd);  // CUDA owns the descriptor only once the import succeeds
    d.check(r, "cuImportExternalSemaphore (a Vulkan timeline semaphore)");
  }
  s.timeline = std::move(timeline);
  s.semaphore = semaphore;
  s.value = 0;
}

// How this device's calls are ordered with the caller's stream: semaphores where the first slot's
// timeline can be exported and imported, else host waits, with the reason.
void choose_handoff(const cu::Driver& d, DeviceState& st) {
  const char* env = std::getenv("FASTBLUR_CUDA_HOST_WAITS");
  if (env && *env && std::string(env) != "0") {
    st.handoff = CudaHandoff::host_waits;
    st.why_host_waits = "FASTBLUR_CUDA_HOST_WAITS is set";
    return;
  }
  if (!DeviceAccess::context(st.device)->get_semaphore_fd()) {
    st.handoff = CudaHandoff::host_waits;
    st.why_host_waits = "Vulkan device " + DeviceAccess::context(st.device)->info().name +
                        " cannot export timeline semaphores (VK_KHR_timeline_semaphore, VK_KHR_external_semaphore_fd)";
    return;
  }
  try {
    cu::CurrentContext current(d, st.context->handle());
    Slot& first = st.ring[0];
    std::lock_guard<std::mutex> lock(first.mutex);
    share_timeline(d, st.device, first);
    // A half-and-half variant for measurements (bench/gpu_cuda_handoff.py), else both halves.
    const char* variant = std::getenv("FASTBLUR_CUDA_HANDOFF");
    const std::string v = variant ? variant : "";
    st.handoff = v == "host-then-semaphore"   ? CudaHandoff::host_then_semaphore
                 : v == "semaphore-then-host" ? CudaHandoff::semaphore_then_host
                                              : CudaHandoff::semaphores;
  } catch (const Error& e) {
    st.handoff = CudaHandoff::host_waits;
    st.why_host_waits = e.what();
  }
}

// The device's state, set up on first use.
DeviceState& ready_state(int ordinal) {
  DeviceState& st = state_for(ordinal);
  std::lock_guard<std::mutex> lock(st.mutex);
  if (st.device.is_cpu()) {
    st.device = find_vulkan_device(ordinal);
    st.context = std::make_unique<cu::PrimaryContext>(cu::driver(), ordinal);
    choose_handoff(cu::driver(), st);
  }
  return st;
}

// The next slot of the ring, locked for the caller.
std::unique_lock<std::mutex> take_slot(DeviceState& st, Slot*& slot) {
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    slot = &st.ring[st.next];
    st.next = (st.next + 1) % st.slots();
  }
  return std::unique_lock<std::mutex>(slot->mutex);
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

std::uint64_t packed_bytes(const DeviceView& v, ElementType type) {
  return static_cast<std::uint64_t>(v.extent[0] * v.extent[1] * v.extent[2] * v.channels) * element_size(type);
}

// Where a call's images lie in a slot's buffer: the source's packed image at 0 and the
// destination's after it, on a 256-byte boundary (every device's storage-buffer alignment). Apart,
// in place or not, so that float32 passes read and write them where they lie (GpuIo::direct).
// A mask (data with holes) goes after them, on such a boundary too.
struct Layout {
  std::uint64_t out_offset = 0, mask_offset = 0, bytes = 0;
};
Layout layout_of(const DeviceView& src, ElementType destination, const DeviceView* mask = nullptr) {
  const auto boundary = [](std::uint64_t b) { return (b + 255) / 256 * 256; };
  Layout l;
  l.out_offset = boundary(packed_bytes(src, src.type));
  l.bytes = l.out_offset + packed_bytes(src, destination);
  if (mask) {
    l.mask_offset = boundary(l.bytes);
    l.bytes = l.mask_offset + packed_bytes(*mask, mask->type);
  }
  return l;
}

// The packed images the Vulkan backend sees, in `buffer` (null to plan). Acquired from and
// released to the external (CUDA) side: Vulkan's ownership transfer for memory another API writes
// and reads.
std::pair<vulkan::BufferImage, vulkan::BufferImage> buffer_images(VkBuffer buffer, const DeviceView& src, ElementType destination) {
  const Layout l = layout_of(src, destination);
  const auto image = [&](std::uint64_t offset, ElementType type) {
    return vulkan::BufferImage{buffer, offset, src.extent[0], src.extent[1], src.extent[2], src.channels, type, VK_QUEUE_FAMILY_EXTERNAL};
  };
  return {image(0, src.type), image(l.out_offset, destination)};
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

// A call's inputs into the slot's buffer at `base`: the source, and a mask after the images (layout_of).
void copy_in(const cu::Driver& d, const DeviceView& src, const DeviceView* mask, ElementType destination,
             cu::DevicePtr base, cu::Stream stream) {
  copy(d, src, base, true, stream);
  if (mask) copy(d, *mask, base + layout_of(src, destination, mask).mask_offset, true, stream);
}

// The slot's buffer at least `bytes` long, replaced (after its last call's work) when smaller.
void ensure(const cu::Driver& d, const Device& device, Slot& s, std::uint64_t bytes) {
  if (!s.done) d.check(d.cuEventCreate(&s.done, cu::kEventDisableTiming), "cuEventCreate");
  if (s.buffer && s.buffer->size() >= bytes) return;
  s.retire();
  s.release_buffer(d);
  auto buffer = std::make_unique<vk::Buffer>(DeviceAccess::context(device), bytes + bytes / 4, vk::Buffer::Kind::exported);
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
  s.buffer = std::move(buffer);
  s.memory = memory;
  s.pointer = pointer;
  ++import_count;
}

// The stream signals `value` on the slot's timeline / waits until the timeline reaches it.
void signal_on_stream(const cu::Driver& d, const Slot& s, std::uint64_t value, cu::Stream stream) {
  cu::ExternalSemaphoreSignalParams p;
  p.params.fence.value = value;
  d.check(d.cuSignalExternalSemaphoresAsync(&s.semaphore, &p, 1, stream), "cuSignalExternalSemaphoresAsync");
}
void wait_on_stream(const cu::Driver& d, const Slot& s, std::uint64_t value, cu::Stream stream) {
  cu::ExternalSemaphoreWaitParams p;
  p.params.fence.value = value;
  d.check(d.cuWaitExternalSemaphoresAsync(&s.semaphore, &p, 1, stream), "cuWaitExternalSemaphoresAsync");
}

// What a call records into its Vulkan job: the blur of the packed images at `in` and `out`.
using Recorder = std::function<void(vk::Job& job, const vulkan::BufferImage& in, const vulkan::BufferImage& out)>;

// copy in -> signal -> (Vulkan: wait, blur, signal) -> wait -> copy out, all queued; nothing waited for
// unless the slot's last call is still running on the device.
void blur_with_semaphores(const cu::Driver& d, const Device& device, Slot& s, const DeviceView& src, const DeviceView& dst,
                          const DeviceView* mask, const Recorder& record_blur, cu::Stream stream, TimingRecord& record,
                          CudaHandoff handoff) {
  share_timeline(d, device, s);
  auto [in, out] = buffer_images(s.buffer->handle(), src, dst.type);
  const cu::DevicePtr base = s.pointer;
  const bool signal_in = handoff != CudaHandoff::host_then_semaphore, wait_out = handoff != CudaHandoff::semaphore_then_host;
  d.check(d.cuStreamWaitEvent(stream, s.done, 0), "cuStreamWaitEvent");
  copy_in(d, src, mask, dst.type, base, stream);
  const std::uint64_t copied = s.value + 1, blurred = s.value + 2;
  auto t = vk::Clock::now();
  if (signal_in) {
    signal_on_stream(d, s, copied, stream);
  } else {  // the host waits for the copy in instead
    d.check(d.cuEventRecord(s.done, stream), "cuEventRecord");
    d.check(d.cuEventSynchronize(s.done), "cuEventSynchronize");
    record.timing.copy_in_wait_ms = vk::ms_since(t);
  }
  s.value = copied;  // signalled (or not needed), whatever happens next
  t = vk::Clock::now();
  auto job = std::make_unique<vk::Job>(DeviceAccess::context(device));
  record_blur(*job, in, out);
  record.timing.record_ms = vk::ms_since(t);
  t = vk::Clock::now();
  job->submit(signal_in ? vk::Context::TimelinePoint{s.timeline->handle(), copied} : vk::Context::TimelinePoint{},
              {s.timeline->handle(), blurred});
  s.value = blurred;
  s.job = std::move(job);
  if (wait_out) {
    record.timing.run_ms = vk::ms_since(t);
    wait_on_stream(d, s, blurred, stream);
  } else {  // the host waits for the blur instead
    s.retire();
    record.timing.run_ms = vk::ms_since(t);
  }
  copy(d, dst, base + out.offset, false, stream);
  d.check(d.cuEventRecord(s.done, stream), "cuEventRecord");
}

// The host waits for the copy in, runs the blur and waits for it, then queues the copy out.
void blur_with_host_waits(const cu::Driver& d, const Device& device, Slot& s, const DeviceView& src, const DeviceView& dst,
                          const DeviceView* mask, const Recorder& record_blur, cu::Stream stream, TimingRecord& record) {
  auto [in, out] = buffer_images(s.buffer->handle(), src, dst.type);
  const cu::DevicePtr base = s.pointer;
  d.check(d.cuStreamWaitEvent(stream, s.done, 0), "cuStreamWaitEvent");
  auto t = vk::Clock::now();
  copy_in(d, src, mask, dst.type, base, stream);
  d.check(d.cuEventRecord(s.done, stream), "cuEventRecord");
  d.check(d.cuEventSynchronize(s.done), "cuEventSynchronize");
  record.timing.copy_in_wait_ms = vk::ms_since(t);
  t = vk::Clock::now();
  vk::Job job(DeviceAccess::context(device));
  record_blur(job, in, out);
  record.timing.record_ms = vk::ms_since(t);
  t = vk::Clock::now();
  job.run();
  record.timing.run_ms = vk::ms_since(t);
  copy(d, dst, base + out.offset, false, stream);
  d.check(d.cuEventRecord(s.done, stream), "cuEventRecord");
  vulkan::BufferBlurTiming run;
  vulkan::device_timing(job, run);
  record.timing.device_ms = run.device_ms;
  record.timing.convert_in_ms = run.convert_in_ms;
  record.timing.algorithm_ms = run.algorithm_ms;
  record.timing.convert_out_ms = run.convert_out_ms;
  record.complete = true;
}

// A call on a slot of the ring, ordered with `stream` as `handoff` says; the job's blur is record_blur's.
// A mask, where given, is copied in after the source (layout_of's mask_offset).
void run_call(DeviceState& st, const DeviceView& src, const DeviceView& dst, CudaHandoff handoff, const Recorder& record_blur,
              std::uintptr_t stream, std::chrono::steady_clock::time_point start, const DeviceView* mask = nullptr) {
  auto record = std::make_shared<TimingRecord>();
  record->timing.handoff = handoff;
  const cu::Driver& d = cu::driver();
  Slot* slot = nullptr;
  const std::unique_lock<std::mutex> lock = take_slot(st, slot);
  cu::CurrentContext current(d, st.context->handle());
  const auto cu_stream = reinterpret_cast<cu::Stream>(stream);
  slot->retire();  // the host waits here only when the ring's calls are all still running
  ensure(d, st.device, *slot, layout_of(src, dst.type, mask).bytes);
  if (handoff != CudaHandoff::host_waits) {
    slot->timing = record;
    blur_with_semaphores(d, st.device, *slot, src, dst, mask, record_blur, cu_stream, *record, handoff);
  } else {
    blur_with_host_waits(d, st.device, *slot, src, dst, mask, record_blur, cu_stream, *record);
  }
  record->timing.total_ms = vk::ms_since(start);
  last_call = record;
  last_slot = slot;
}

}  // namespace

void release_devices() noexcept {
  std::lock_guard<std::mutex> lock(states_mutex);
  for (auto& [ordinal, st] : states()) {
    for (Slot& s : st->ring) {
      std::lock_guard<std::mutex> slot_lock(s.mutex);
      try {
        if (st->context && (s.buffer || s.semaphore || s.done)) {
          cu::CurrentContext current(cu::driver(), st->context->handle());
          s.release(cu::driver());
        }
      } catch (const std::exception&) {
        s.job.reset();  // CUDA is gone already: its mappings went with it
        s.buffer.reset();
        s.timeline.reset();
      }
    }
    std::lock_guard<std::mutex> state_lock(st->mutex);
    try {
      st->context.reset();  // the last of what was made in it is gone
    } catch (const std::exception&) {
    }
    st->device = Device();
    st->handoff = CudaHandoff::none;
    st->next = 0;
  }
  // The calling thread's last_call is left alone: at exit its thread_local is gone already.
}

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

Device vulkan_device_for(int ordinal) { return ready_state(ordinal).device; }

CudaHandoff handoff(int ordinal, std::string* why) {
  DeviceState& st = ready_state(ordinal);
  if (why) *why = st.handoff == CudaHandoff::host_waits ? st.why_host_waits : std::string();
  return st.handoff;
}

int ring_size(int ordinal) { return static_cast<int>(ready_state(ordinal).slots()); }

Plan plan(const DeviceView& src, ElementType destination, const BlurSpec& spec, int ordinal) {
  check_view(src, "source");
  DeviceState& st = ready_state(ordinal);
  // The buffers blur() hands the Vulkan backend, as it lays them out (no memory is touched).
  const auto [in, out] = buffer_images(VK_NULL_HANDLE, src, destination);
  return vulkan::plan(st.device, in, out, spec, st.handoff);
}

Plan plan(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, int ordinal) {
  check_view(dst, "destination");
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  return plan(src, dst.type, spec, ordinal);
}

void blur(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, int ordinal, std::uintptr_t stream) {
  const auto start = vk::Clock::now();
  // Planned before anything is queued: a request the plan refuses leaves the stream as it was.
  const Plan p = plan(src, dst, spec, ordinal);
  const double plan_ms = vk::ms_since(start);
  blur(src, dst, p, ordinal, stream);
  last_call->timing.plan_ms = plan_ms;
  last_call->timing.total_ms = vk::ms_since(start);
}

void blur(const DeviceView& src, const DeviceView& dst, const Plan& given, int ordinal, std::uintptr_t stream) {
  check_view(src, "source");
  check_view(dst, "destination");
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  if (given.extent != src.extent || given.channels != src.channels || given.source != src.type || given.destination != dst.type)
    throw InvalidArgument("the plan was made for another shape or element type");
  const auto start = vk::Clock::now();
  DeviceState& st = ready_state(ordinal);
  const Plan plan = given.schedule.cuda_handoff == st.handoff ? given : cuda::plan(src, dst.type, given.spec, ordinal);
  front_door::record_run(plan);
  run_call(st, src, dst, plan.schedule.cuda_handoff,
           [&](vk::Job& job, const vulkan::BufferImage& in, const vulkan::BufferImage& out) {
             vulkan::record_timed(job, in, out, plan);
           },
           stream, start);
}

namespace {
bool floating(ElementType t) { return t == ElementType::f16 || t == ElementType::f32; }

// What the device's normalized convolution takes: the rules every request keeps (missing_rules.hpp),
// a mask in CUDA memory of the data's shape, and what only the host computes (cuda.hpp says why).
void check_missing(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& m,
                   const DeviceView& mask) {
  if (m.mask.data) throw InvalidArgument("a mask in host memory with CUDA arrays: give it as a CUDA array of the data's device");
  if (mask.data) {
    check_view(mask, "mask");
    if (mask.extent != src.extent || (mask.channels != 1 && mask.channels != src.channels))
      throw InvalidArgument("the mask's shape differs from the data's");
    if (mask.type != ElementType::u8 && !floating(mask.type))
      throw InvalidArgument("a mask is bool or uint8 (nonzero = missing) or float16/float32 weights in [0, 1], not " +
                            std::string(to_string(mask.type)));
  }
  missing::check_weights(src.type, src.channels, mask.data != 0, spec, m);
  if (m.alpha) return;  // its constant border is transparent (cval 0, checked above): the pairs' outside
  for (std::size_t a = 0; a < 3; ++a)
    if (spec.border[a] == Border::constant && spec.sigma[a] > kSigmaCutoff && std::isfinite(spec.cval))
      throw Unsupported("missing data with a constant border of a finite cval is not supported on CUDA arrays (cval=NaN: the outside is missing)");
  if (!floating(dst.type) && std::isnan(m.empty_value) && std::isnan(spec.cval))
    throw InvalidArgument("an integer output needs a value where no valid sample lies under the kernel: not a NaN cval "
                          "(use another border, or set the empty value)");
}

// The device's weights for a request (the host's rules: alpha over the type's maximum, empty
// pixels NaN for float outputs, else the empty value or cval); the mask's image where the call's
// buffer will hold it (layout_of), in `buffer` (null to plan).
vulkan::BufferWeights buffer_weights(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& m,
                                     const DeviceView& mask, VkBuffer buffer) {
  vulkan::BufferWeights w;
  if (mask.data)
    w.mask = vulkan::BufferImage{buffer, layout_of(src, dst.type, &mask).mask_offset, src.extent[0], src.extent[1],
                                 src.extent[2], mask.channels, mask.type, VK_QUEUE_FAMILY_EXTERNAL};
  w.omit_nan = m.omit_nan;
  w.alpha = m.alpha;
  w.alpha_scale = static_cast<float>(alpha_scale(src.type));
  w.preserve_nan = m.preserve_nan && floating(dst.type);
  w.empty = static_cast<float>(floating(dst.type) || !std::isnan(m.empty_value) ? m.empty_value : spec.cval);
  return w;
}
}  // namespace

Plan plan(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& missing, int ordinal,
          const DeviceView& mask) {
  if (!missing.any() && !mask.data) return plan(src, dst, spec, ordinal);
  check_view(src, "source");
  check_view(dst, "destination");
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  check_missing(src, dst, spec, missing, mask);
  DeviceState& st = ready_state(ordinal);
  const auto [in, out] = buffer_images(VK_NULL_HANDLE, src, dst.type);
  return vulkan::plan_missing(st.device, in, spec, st.handoff, buffer_weights(src, dst, spec, missing, mask, VK_NULL_HANDLE));
}

void blur(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& missing, int ordinal,
          std::uintptr_t stream, const DeviceView& mask) {
  if (!missing.any() && !mask.data) return blur(src, dst, spec, ordinal, stream);
  const auto start = vk::Clock::now();
  const Plan pairs = plan(src, dst, spec, missing, ordinal, mask);  // refused here, before anything is queued
  const double plan_ms = vk::ms_since(start);
  DeviceState& st = ready_state(ordinal);
  front_door::record_run(pairs);
  run_call(st, src, dst, pairs.schedule.cuda_handoff,
           [&](vk::Job& job, const vulkan::BufferImage& in, const vulkan::BufferImage& out) {
             // The mask in the slot's buffer after the images (layout_of).
             vulkan::record_missing_timed(job, in, out, pairs, buffer_weights(src, dst, spec, missing, mask, in.buffer));
           },
           stream, start, mask.data ? &mask : nullptr);
  last_call->timing.plan_ms = plan_ms;
  last_call->timing.total_ms = vk::ms_since(start);
}

SlicedPlan plan_slices(const DeviceView& src, const DeviceView& dst, const std::vector<BlurSpec>& specs, int ordinal) {
  check_view(src, "source");
  check_view(dst, "destination");
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  DeviceState& st = ready_state(ordinal);
  const auto [in, out] = buffer_images(VK_NULL_HANDLE, src, dst.type);
  return vulkan::plan_slices(st.device, in, out, specs, st.handoff);
}

void blur_slices(const DeviceView& src, const DeviceView& dst, const std::vector<BlurSpec>& specs, int ordinal,
                 std::uintptr_t stream) {
  const auto start = vk::Clock::now();
  const SlicedPlan plan = plan_slices(src, dst, specs, ordinal);
  DeviceState& st = ready_state(ordinal);
  // What ran, as last_run() tells it: slice 0's plan with the stack's passes and reading.
  Plan ran = plan.slices.front();
  if (plan.stacked) ran.schedule.gpu = plan.stacked_passes;
  ran.schedule.gpu_io = plan.gpu_io;
  ran.schedule.cuda_handoff = plan.cuda_handoff;
  front_door::record_run(ran);
  run_call(st, src, dst, plan.cuda_handoff,
           [&](vk::Job& job, const vulkan::BufferImage& in, const vulkan::BufferImage& out) {
             vulkan::record_slices_timed(job, in, out, plan);
           },
           stream, start);
}

CallTiming last_timing() {
  if (!last_call) return {};
  if (!last_call->complete && last_slot) {
    std::lock_guard<std::mutex> lock(last_slot->mutex);
    if (last_slot->timing == last_call) last_slot->retire();
  }
  return last_call->timing;
}

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
Plan plan(const DeviceView&, const DeviceView&, const BlurSpec&, int) { no_backend(); }
void blur(const DeviceView&, const DeviceView&, const BlurSpec&, int, std::uintptr_t) { no_backend(); }
void blur(const DeviceView&, const DeviceView&, const Plan&, int, std::uintptr_t) { no_backend(); }
Plan plan(const DeviceView&, const DeviceView&, const BlurSpec&, const MissingData&, int, const DeviceView&) { no_backend(); }
void blur(const DeviceView&, const DeviceView&, const BlurSpec&, const MissingData&, int, std::uintptr_t, const DeviceView&) {
  no_backend();
}
SlicedPlan plan_slices(const DeviceView&, const DeviceView&, const std::vector<BlurSpec>&, int) { no_backend(); }
void blur_slices(const DeviceView&, const DeviceView&, const std::vector<BlurSpec>&, int, std::uintptr_t) { no_backend(); }
std::uint64_t imports() { return 0; }
CallTiming last_timing() { return {}; }
CudaHandoff handoff(int, std::string*) { no_backend(); }
int ring_size(int) { no_backend(); }
void release_devices() noexcept {}
}  // namespace fastblur::cuda

#endif
