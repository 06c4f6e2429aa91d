// iir along one axis with every line cut into chunks that run in parallel (iir_chunks.comp): the
// plan's pass for Deriche's parallel form in float32 (Schedule::gpu[axis].shader iir_chunks_starts, or
// iir_chunks_padded: algorithms/iir.hpp).
#pragma once

#include "fastblur/plan.hpp"
#include "vulkan/job.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {

/// Records `in` -> `out` along `axis` (different buffers): three dispatches (chunks from a zero
/// state, the carries along each line, the chunks again from their true states).
void record_iir_chunks(Job& job, const Work& in, const Work& out, const Plan& plan, int axis);

}  // namespace fastblur::vk
