// downsample on the GPU as the CPU chain does it (downsample_chain.comp): the plan's
// GpuDownsample::chain, for 2D images and volumes.
#pragma once

#include "fastblur/plan.hpp"
#include "vulkan/job.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {

/// Records src -> dst (different buffers): the tent on every filtered axis at once, the
/// low-resolution Gaussian per filtered axis, the interpolation back - at most five dispatches.
void record_downsample_chain(Job& job, const Work& src, const Work& dst, const Plan& plan);

}  // namespace fastblur::vk
