#pragma once
#include <memory>

#include "fastblur/plan.hpp"

namespace fastblur::vk {

class Context;

/// Where the time of one gpu_blur went (timestamps where the device has them).
struct Timing {
  double gpu_blur_ms = 0.0;      ///< the algorithm's passes on the device, the type conversions included
  double gpu_transfer_ms = 0.0;  ///< the device's copies between host-visible and device memory
  double total_ms = 0.0;         ///< the whole call, host packing and unpacking included
  double host_pack_ms = 0.0;     ///< packing the host view into the upload buffer and back (one piece)
  /// The rest of the call on the host (one piece): planning the pieces, recording, descriptor
  /// updates, submission and waking from the fence; total - packing - the device's span.
  double host_overhead_ms = 0.0;
  int pieces = 0;                ///< tiles the image was blurred in (1: whole)
};

/// Runs a plan resolved for this device on host views: upload, blur, download, in the plan's tiles
/// when it has more than one piece. Throws Unsupported, OutOfMemory, DeviceError.
void gpu_blur(const std::shared_ptr<Context>& context, const View& src, const View& dst, const Plan& plan,
              Timing* timing = nullptr);

}  // namespace fastblur::vk
