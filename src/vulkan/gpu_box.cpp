// box on the GPU: the plan's extended boxes (src/algorithms/box.hpp) along each axis, by seed 001's prefix-sum scans
// (a workgroup per line) or seed 002's running sums (a thread per line), as the plan's schedule says
// per axis.
#include <string>

#include "algorithms/box.hpp"
#include "fastblur/error.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct BoxParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t npasses, pad, first_line;
  std::int32_t sample_stride, line_stride;  // running sums' scratch layout (Context::interleave_scratch)
};

}  // namespace

void record_box(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::BoxResolved>(plan);
  Context& ctx = job.context();
  const int C = src.channels;
  run_separable(job, src, dst, active_axes(plan, src), [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const std::int64_t n = src.extent[ax], lines = src.lines(axis);
    const auto& boxes = resolved.passes[ax];
    std::int64_t pad = 0;
    std::vector<float> table;
    for (const auto& q : boxes) {
      pad += q.radius + 1;
      table.push_back(static_cast<float>(q.radius));
      table.push_back(static_cast<float>(q.alpha));
    }
    Buffer& params = upload(job, table.data(), table.size() * sizeof(float));
    const bool scan = plan.schedule.box[ax] == BoxSchedule::prefix_sums;
    // Scratch per line: scan keeps two value arrays and the prefix sums' two halves; running sums
    // keep two value arrays; each (n + 2 pad) samples of every channel.
    const std::uint64_t per_line = static_cast<std::uint64_t>(C) * (scan ? 4 : 2) * static_cast<std::uint64_t>(n + 2 * pad) * 4;
    const std::int64_t batch = lines_per_batch(job, per_line, lines);
    const bool interleave = ctx.interleave_scratch();
    Buffer& scratch = job.buffer(per_line * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
    const ComputePipeline& p =
        ctx.pipeline(scan ? "box_scan" : "box_line", scan ? shaders::box_scan() : shaders::box_line(),
                     {static_cast<std::uint32_t>(C)}, std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                     sizeof(BoxParams));
    for (std::int64_t first = 0; first < lines; first += batch) {
      const BoxParams bp{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                          static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(lines)},
                         axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                         static_cast<std::int32_t>(boxes.size()), static_cast<std::int32_t>(pad),
                         static_cast<std::int32_t>(first),
                         interleave ? static_cast<std::int32_t>(batch) : 1,
                         interleave ? 1 : static_cast<std::int32_t>(per_line / 4)};
      const std::int64_t todo = std::min(batch, lines - first);
      job.dispatch(p, {Binding::storage(in.buffer), Binding::storage(out.buffer), Binding::storage(scratch), Binding::storage(params)},
                   bp, spread_groups(static_cast<std::uint64_t>(scan ? todo : (todo + 63) / 64)));
    }
  });
}

}  // namespace fastblur::vk
