#pragma once
/// @file
/// CUDA arrays blurred where they are (issue 30): data that PyTorch, CuPy or a CUDA program keeps on
/// an NVIDIA GPU is blurred by fastblur's Vulkan backend on the same GPU, never through host memory.
/// fastblur copies the array once into a Vulkan buffer that CUDA maps (exported as an opaque file
/// descriptor, imported with cuImportExternalMemory), blurs it there as any Vulkan buffer
/// (fastblur::vulkan::blur, the same plan: float32 is read and written where it lies, other types
/// through conversion passes), and copies it once out, both copies on the caller's CUDA stream. The
/// CUDA driver (libcuda.so.1, or the path in FASTBLUR_CUDA_DRIVER) is opened at run time: building
/// needs no CUDA, and without it these calls throw DeviceError.
///
/// Ordering: the copy in follows the caller's earlier work on `stream`, and the caller's later work
/// on that stream sees the result. Where the Vulkan driver exports timeline semaphores (the plan's
/// CudaHandoff::semaphores), the stream signals a semaphore shared by both APIs after the copy in,
/// the Vulkan work waits for it and signals the next value, and the stream waits for that before
/// the copy out: blur() queues all of it and returns, like a library operation, without waiting.
/// Elsewhere (CudaHandoff::host_waits) the host waits for the copy in and for the blur. Calls use a
/// ring of buffers per device, each reused once its last call's work is done (so back-to-back
/// calls, on one stream or several, from one thread or several, overlap safely); the buffers are
/// kept for the next call and grown as needed.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/device.hpp"
#include "fastblur/missing_data.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/view.hpp"

namespace fastblur::cuda {

/// An image or volume in CUDA device memory: element c of pixel (x, y, z) at byte
/// data + x stride[0] + y stride[1] + z stride[2] + c element_size(type). Pixels must be packed
/// along x (stride[0] == channels x element size); rows and planes may have any positive pitch.
struct DeviceView {
  std::uint64_t data = 0;  ///< a CUdeviceptr
  std::array<std::int64_t, 3> extent{1, 1, 1};
  std::array<std::int64_t, 3> stride{0, 0, 0};  ///< bytes
  int channels = 1;
  ElementType type = ElementType::f32;  ///< u8, u16, f16 or f32 (the Vulkan backend's buffer types)
};

/// The CUDA device (ordinal) that holds `pointer`; throws DeviceError where the driver is missing
/// or the pointer is not CUDA device memory.
int device_of(std::uint64_t pointer);

/// The fastblur Vulkan device that is CUDA device `ordinal` (VkPhysicalDeviceIDProperties'
/// deviceUUID equal to cuDeviceGetUuid's). Throws DeviceError naming what is missing: the CUDA
/// driver, the ordinal, a Vulkan device with that UUID, or exportable memory on it.
Device vulkan_device_for(int ordinal);

/// The plan blur() runs for these views (made for vulkan_device_for(ordinal), the same as
/// fastblur::vulkan::blur's).
Plan plan(const DeviceView& src, ElementType destination, const BlurSpec& spec, int ordinal);
/// The same for both views, each checked as blur() checks it (a layout the copies cannot take is
/// refused here, before anything runs).
Plan plan(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, int ordinal);

/// Blurs src into dst (same extents and channels; src may be dst) on CUDA device `ordinal`, with
/// both copies on `stream` (a CUstream; 0 is the legacy default stream). Throws InvalidArgument for
/// a layout it cannot copy (pixels not packed along x, a negative or overlapping pitch),
/// Unsupported for an element type the device lacks, DeviceError as vulkan_device_for.
void blur(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, int ordinal, std::uintptr_t stream);
/// The same with the plan plan() made for these views' shape and types (a caller that repeats a
/// call keeps it: no planning per call). A plan made before the device was set up afresh with
/// another handoff is planned again from its spec.
void blur(const DeviceView& src, const DeviceView& dst, const Plan& plan, int ordinal, std::uintptr_t stream);

/// Data with holes in CUDA memory: fastblur/missing_data.hpp's normalized convolution run on the
/// device as the CPU runs it in float32 (each channel - each colour channel in an alpha blur -
/// packed with its weight, the pairs blurred, divided back), ordered with `stream` as blur() is.
/// The weights: missing.omit_nan (NaN samples are missing; float data), `mask` (in CUDA memory on
/// the same device, the data's extents, one channel for every channel or one per channel; u8:
/// nonzero = missing, as a bool array's bytes; float16 / float32: certainty weights in [0, 1], taken
/// as given - the device does not check them), or missing.alpha (the last channel weights the others
/// over its type's maximum and is blurred plainly; 0 where no alpha lies under the kernel).
/// missing.mask (host memory) is refused; the host's rules hold (missing_data.hpp: InvalidArgument,
/// one line, before anything is queued). Where no valid sample lies under the kernel the output is
/// NaN for float outputs (preserve_nan: also where the source was NaN), else missing.empty_value
/// or cval. Refused too: a constant border with a finite cval but in an alpha blur (Unsupported: the
/// CPU computes that case in float64; cval NaN, the outside missing, is taken), and an integer
/// output with no empty value but a NaN cval. With no weights requested, the plain blur. The plan is
/// that of the pairs' blur (2 channels, float32).
Plan plan(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& missing, int ordinal,
          const DeviceView& mask = {});
void blur(const DeviceView& src, const DeviceView& dst, const BlurSpec& spec, const MissingData& missing, int ordinal,
          std::uintptr_t stream, const DeviceView& mask = {});

/// A stack of 2D images in CUDA memory (slice k at z = k: a batch, each sample's channels
/// interleaved, or each channel a slice of its own) blurred slice by slice, slice k with specs[k] - a
/// batch with a sigma per sample - in one copy in, one Vulkan submission and one copy out on
/// `stream`, ordered as blur() orders its work. Slice k's result is that of blurring it alone on
/// this device. The plan is plan_slices'.
void blur_slices(const DeviceView& src, const DeviceView& dst, const std::vector<BlurSpec>& specs, int ordinal,
                 std::uintptr_t stream);
SlicedPlan plan_slices(const DeviceView& src, const DeviceView& dst, const std::vector<BlurSpec>& specs, int ordinal);

/// Where the time of this thread's last blur() went, on the host and on the device (ms): the
/// fixed cost of a call taken apart (bench/gpu_cuda_arrays.py prints it).
struct CallTiming {
  CudaHandoff handoff = CudaHandoff::none;  ///< how the call was ordered with the stream (its plan's)
  double total_ms = 0.0;          ///< host: the whole blur() call
  double copy_in_wait_ms = 0.0;   ///< host: the copy in queued, then waited for (host_waits; 0 with semaphores)
  double plan_ms = 0.0;           ///< host: vulkan::plan
  double record_ms = 0.0;         ///< host: the Vulkan commands recorded
  double run_ms = 0.0;            ///< host: their submission (host_waits: until the fence woke us)
  double device_ms = 0.0;         ///< device: the commands from first to last (acquire and release included)
  double convert_in_ms = 0.0;     ///< device: the packed image into float work
  double algorithm_ms = 0.0;      ///< device: the plan's passes
  double convert_out_ms = 0.0;    ///< device: float work back into the packed image
};
/// The device's spans are read once its work has run: with semaphores, this waits for the call's
/// work (a synchronisation point, for measurements).
CallTiming last_timing();

/// How calls on CUDA device `ordinal` are ordered with the caller's stream: semaphores where the
/// Vulkan device exports timeline semaphores and the CUDA driver imports them, else host_waits
/// (`why`, if given, says why not semaphores). Decided once per device and process; the environment
/// variable FASTBLUR_CUDA_HOST_WAITS (not "0") asks for host_waits.
CudaHandoff handoff(int ordinal, std::string* why = nullptr);

/// How many calls may be in flight on CUDA device `ordinal`: the buffers its calls rotate through
/// (each mapped by CUDA once, kept while it fits). One with host waits.
int ring_size(int ordinal);

/// How many times this process has allocated and imported a CUDA-mapped buffer (tests: the
/// hundredth call of a size imports nothing).
std::uint64_t imports();

}  // namespace fastblur::cuda
