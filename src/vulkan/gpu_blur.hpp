#pragma once
#include <memory>

#include "fastblur/blur.hpp"

namespace fastblur::vk {

class Context;

/// Where the time of one gpu_blur went (timestamps where the device has them).
struct Timing {
  double gpu_blur_ms = 0.0;      ///< the algorithm's passes on the device (with the float conversions)
  double gpu_transfer_ms = 0.0;  ///< the device's copies between host-visible and device memory
  double total_ms = 0.0;         ///< the whole call, host packing and unpacking included
  int pieces = 0;                ///< tiles the image was blurred in (1: whole)
};

/// Runs `spec` (an algorithm the Vulkan backend has, not automatic; radii and options validated by
/// the caller) on the device: upload, blur, download, in tiles when the image exceeds what one piece
/// may hold. Throws Unsupported for what the backend cannot run, OutOfMemory, DeviceError.
void gpu_blur(const std::shared_ptr<Context>& context, const View& src, const View& dst, const BlurSpec& spec,
              Timing* timing = nullptr);

}  // namespace fastblur::vk
