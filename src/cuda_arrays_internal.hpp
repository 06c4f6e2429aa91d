#pragma once
// What fastblur/cuda.hpp's front door (cuda_arrays.cpp) offers beside its public calls.
namespace fastblur::cuda {

/// Waits for every call's work and releases each device's buffers, timelines and CUDA mappings (at
/// exit, before the Vulkan contexts and CUDA's state go). The next call sets its device up afresh,
/// choosing its handoff again (tests: FASTBLUR_CUDA_HOST_WAITS changed in between).
void release_devices() noexcept;

}  // namespace fastblur::cuda
