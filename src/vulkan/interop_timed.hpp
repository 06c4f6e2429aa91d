#pragma once
// fastblur::vulkan::blur of buffers (interop.cpp) as the CUDA-array front door (cuda_arrays.cpp)
// needs it: planned with the handoff the call runs with, recorded into a job it submits itself
// (ordered by a shared timeline semaphore) or run at once, and where the device time went.
#include <limits>
#include <optional>
#include <vector>

#include "fastblur/plan.hpp"
#include "fastblur/vulkan.hpp"

namespace fastblur::vk {
class Job;
}

namespace fastblur::vulkan {

/// Milliseconds; the device's spans from timestamps (0 where the queue has none).
struct BufferBlurTiming {
  double record_ms = 0.0;       ///< host: the job's command buffer recorded (descriptors, barriers)
  double run_ms = 0.0;          ///< host: submission until the fence woke us
  double device_ms = 0.0;       ///< device: the commands from first to last (acquire and release included)
  double convert_in_ms = 0.0;   ///< device: the caller's packed image into float work
  double algorithm_ms = 0.0;    ///< device: the plan's passes
  double convert_out_ms = 0.0;  ///< device: float work back into the caller's image
};

/// vulkan::plan(device, src, dst, spec) for a CUDA array's buffers, which run with `handoff`.
Plan plan(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec, CudaHandoff handoff);

/// vulkan::blur(device, src, dst, plan); with `timing`, also where its time went.
void run_buffers(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan,
                 BufferBlurTiming* timing);

/// Records vulkan::blur(device, src, dst, plan) into `job` (of the device's context), with the
/// timestamps device_timing reads.
void record_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& plan);
/// The plan of a stack of slices in buffers (slice k at z = k, each blurred with specs[k]): the
/// caller's float32 buffers read where they lie only where every slice starts on the device's
/// storage-buffer alignment.
SlicedPlan plan_slices(const Device& device, const BufferImage& src, const BufferImage& dst,
                       const std::vector<BlurSpec>& specs, CudaHandoff handoff);
/// Records a sliced plan into `job` with record_timed's timestamps: the stack's passes where it is
/// stacked, else each slice's plan in turn, every slice converted where the plan says so.
void record_slices_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const SlicedPlan& plan);

/// The weights of a buffer call's normalized convolution (fastblur/missing_data.hpp's, on a CUDA
/// array's buffers), their product.
struct BufferWeights {
  bool omit_nan = false;             ///< NaN samples are missing
  bool alpha = false;                ///< the last channel weights the others (over alpha_scale) and is blurred plainly
  float alpha_scale = 1.0f;          ///< alpha's maximum in the source's type (fastblur::alpha_scale)
  std::optional<BufferImage> mask;   ///< the source's extents, 1 channel or its own; u8: flags (nonzero = missing),
                                     ///< f16 / f32: certainty weights
  bool preserve_nan = false;         ///< NaN where the source was NaN
  float empty = std::numeric_limits<float>::quiet_NaN();  ///< where no valid sample lies under the kernel (alpha: 0)
};
/// Missing data on a CUDA array's buffers: the plan of its blur, `spec` rounded to nearest with
/// cval 0 (outside is missing where the border is constant), for a float32 work image of src's
/// extents: the colours and their weight where they share it (alpha, a mask of one channel) and fit
/// 4 channels, else pairs of a channel and its weight (its channels say which; the mask's buffer
/// is not read).
Plan plan_missing(const Device& device, const BufferImage& src, const BlurSpec& spec, CudaHandoff handoff,
                  const BufferWeights& weights);
/// Records it into `job` with record_timed's timestamps: the colours of `src` (each channel, or all
/// but alpha) packed with their weight as the plan groups them, blurred with `pairs_plan`, divided
/// back into `dst`.
void record_missing_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& pairs_plan,
                          const BufferWeights& weights);

/// The device spans of a job record_timed recorded, once it has run.
void device_timing(const vk::Job& job, BufferBlurTiming& timing);

}  // namespace fastblur::vulkan
