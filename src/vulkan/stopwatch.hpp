#pragma once
// Host time in milliseconds, for the timings the Vulkan paths report (gpu_blur's Timing, the
// buffer blurs' and the CUDA arrays' call timings).
#include <chrono>

namespace fastblur::vk {

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

}  // namespace fastblur::vk
