#pragma once
// fastblur::vulkan::blur of buffers (interop.cpp) with where its time went: the CUDA-array front
// door (cuda_arrays.cpp) reports it per call, so the fixed cost of a call can be taken apart.
#include "fastblur/vulkan.hpp"

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

/// vulkan::blur(device, src, dst, plan); with `timing`, also where its time went.
void run_buffers(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan,
                 BufferBlurTiming* timing);

}  // namespace fastblur::vulkan
