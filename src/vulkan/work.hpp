#pragma once
// A packed float32 image on the device - element ((z H + y) W + x) C + c of a buffer - the form
// every pass reads and writes; and the recorders of the algorithms, one file each, that turn one
// work image into another inside a Job. Each throws Unsupported for what it cannot run (say a 3D
// volume for an image-based algorithm) before recording anything.
#include "vulkan/loader.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::vk {

class Job;
class Buffer;
class Context;

struct Work {
  VkBuffer buffer = VK_NULL_HANDLE;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  int channels = 1;
  /// Where the image starts in `buffer` (a multiple of the device's storage-buffer alignment): 0 for
  /// the job's own work buffers, the caller's offset where a plan binds the caller's float32 buffer
  /// directly (Schedule::gpu_io).
  VkDeviceSize offset = 0;

  std::int64_t pixels() const noexcept { return extent[0] * extent[1] * extent[2]; }
  std::uint64_t bytes() const noexcept { return static_cast<std::uint64_t>(pixels() * channels) * sizeof(float); }
  /// Lines along `axis`: the pixels divided by that axis's extent.
  std::int64_t lines(int axis) const noexcept { return pixels() / extent[static_cast<std::size_t>(axis)]; }
};

/// The type a host view travels as (u8, u16, f16 and f32 as they are, every other type as f32: the
/// device computes in float) and its bytes packed in 32-bit words: the plan's (algorithms/gpu_passes.hpp).
using algo::wire_bytes;
using algo::wire_type;
/// Records convert.comp: `count` values of `type` (u8, u16, f16 or f32) from element `first` of
/// `words` (bound at byte `offset`, which must meet the device's storage-buffer alignment) to the
/// packed floats of `floats` (pack = false), or back (pack = true; the words around them are kept).
void record_convert(Job& job, VkBuffer words, VkDeviceSize offset, VkBuffer floats, std::uint64_t count,
                    std::uint64_t first, ElementType type, bool pack);

/// A work image of `like`'s shape in a new device buffer of the job.
Work work_like(Job& job, const Work& like);
/// A device-local buffer of the job holding `bytes` bytes copied from `data` (inside the command
/// buffer up to 64 KiB, else through staging), for the parameters a pass reads.
Buffer& upload(Job& job, const void* data, std::uint64_t bytes);

/// The axes a separable algorithm filters on this work image (a piece may be thinner than the
/// image): sigma > 0, and more than one sample unless the border is constant (a line of one sample
/// is otherwise left as it is, as on the CPU).
std::vector<int> active_axes(const Plan& plan, const Work& w);

/// The plan's batch of a pass (GpuPass::batch: lanes, or lines, one dispatch covers) with
/// `per_unit` bytes of scratch each; Unsupported where this device's scratch budget does not hold it
/// (the plan was made for another device).
std::int64_t planned_batch(const Context& ctx, const GpuPass& pass, std::uint64_t per_unit);

/// The shader variant the plan names for an image-based algorithm's pass (GpuPass::shader of axis x,
/// algo::schedule_image_gpu), checked against the image's channels; InvalidArgument where it names none.
const std::string& planned_image_shader(const Plan& plan, const Work& image);

/// Records a copy of src's image into dst's (same shape).
void copy_work(Job& job, const Work& src, const Work& dst);

/// One pass per axis in `axes`, src -> dst, through one temporary work image; the last pass writes
/// dst. No axes: src is copied to dst. src and dst must not overlap.
void run_separable(Job& job, const Work& src, const Work& dst, const std::vector<int>& axes,
                   const std::function<void(int axis, const Work& in, const Work& out)>& pass);

class Image;
/// Records pad_image.comp: `image` (level `level`) receives the 2D work image placed at `origin`,
/// extended by spec's borders along x and y (cval for constant).
void record_pad(Job& job, const Work& src, const Image& image, std::array<std::int64_t, 2> origin,
                const Plan& plan, std::uint32_t level = 0);
/// An image of the job for a work image's channels (float, 1, 2 or 4 channels; `real` f16: float16,
/// 4 channels; u8: 8-bit unsigned normalized, 4 channels, holding value / 255), after checking that
/// the device can sample it linearly and store to it.
Image& float_image(Job& job, int channels, std::int64_t width, std::int64_t height, std::uint32_t levels,
                   const char* algorithm, ElementType real = ElementType::f32);

/// Records a plan's algorithm from one work image into another (the plan resolved for the Vulkan
/// backend; a piece of the image may be smaller than the plan's). `noise_origin` is the work image's
/// first pixel in the whole image (mip-poisson's rotation noise belongs to absolute pixel positions).
using Recorder = void (*)(Job& job, const Work& src, const Work& dst, const Plan& plan,
                          std::array<std::int64_t, 2> noise_origin);

/// The Vulkan backend's recorder of `algorithm`, or nullptr where it has none.
Recorder recorder(Algorithm algorithm) noexcept;

/// Records `plan`'s algorithm (a copy where no axis has a sigma).
void record_algorithm(Job& job, const Work& src, const Work& dst, const Plan& plan,
                      std::array<std::int64_t, 2> noise_origin = {0, 0});

// The recorders (one file each), named by algorithm_list.def: record_VULKAN for each line's Vulkan
// entry; record_none stands for "the Vulkan backend does not run it" (recorder() returns nullptr).
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) \
  void record_##vulkan(Job&, const Work&, const Work&, const Plan&, std::array<std::int64_t, 2>);
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM

/// Records a stacked SlicedPlan (every slice fir on the same axes): one fir_line_slices pass along
/// x and one fir_across_slices pass along y over the whole stack, each slice with its own kernel.
void record_fir_slices(Job& job, const Work& src, const Work& dst, const SlicedPlan& sliced);

/// The planner's view of a data shape on this device: its traits (software device, float64, the
/// most a piece may hold, the largest 2D image).
algo::Shape shape_on(const Context& context, std::array<std::int64_t, 3> extent, int channels, ElementType source,
                           ElementType destination);

}  // namespace fastblur::vk
