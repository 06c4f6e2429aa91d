#pragma once
// fastblur::vulkan::blur of buffers (interop.cpp) with where its time went: the CUDA-array front
// door (cuda_arrays.cpp) reports it per call, so the fixed cost of a call can be taken apart.
#include <string>
#include <utility>
#include <vector>

#include "fastblur/vulkan.hpp"

namespace fastblur::vulkan {

struct BufferBlurTiming {
  double record_ms = 0.0;  ///< host: the job's command buffer recorded (descriptors, barriers)
  double run_ms = 0.0;     ///< host: submission until the fence woke us
  /// Device timestamps (ms since the first): "begin", "start" (the buffers acquired), "converted in",
  /// "blurred", "converted out", "end" (released).
  std::vector<std::pair<std::string, double>> device;
};

/// vulkan::blur(device, src, dst, plan), filling `timing`.
void blur_timed(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan,
                BufferBlurTiming& timing);

}  // namespace fastblur::vulkan
