#pragma once
#include <cstdint>
#include <memory>

#include "algorithms/gpu_passes.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::vk {

class Context;

/// Where the time of one gpu_blur went (timestamps where the device has them).
struct Timing {
  double gpu_blur_ms = 0.0;      ///< the algorithm's passes on the device, the type conversions included
  /// The device's copies between host-visible and device memory; with transfer parts, the spans
  /// from the first upload to the last and from the blur's end to the last download (the device
  /// waits for parts still being packed).
  double gpu_transfer_ms = 0.0;
  double total_ms = 0.0;         ///< the whole call, host packing and unpacking included
  double host_pack_ms = 0.0;     ///< packing the host view into the upload buffer and back (one piece)
  /// The rest of the call on the host (one piece): planning the pieces, recording, descriptor
  /// updates, submission and waking from the fence; total - packing - the device's span (at least
  /// 0: with transfer parts the packing and the device's span overlap).
  double host_overhead_ms = 0.0;
  int pieces = 0;                ///< tiles the image was blurred in (1: whole)
  int transfer_parts = 0;        ///< parts of rows the one piece travelled in (transfer_parts)
};

/// How many parts of rows an image travels in: the plan's (Schedule::transfer_parts).
using algo::transfer_parts;

/// Runs a plan resolved for this device on host views: upload, blur, download, in the plan's tiles
/// when it has more than one piece. Throws Unsupported, OutOfMemory, DeviceError.
void gpu_blur(const std::shared_ptr<Context>& context, const View& src, const View& dst, const Plan& plan,
              Timing* timing = nullptr);

}  // namespace fastblur::vk
