// box on the GPU: the plan's extended boxes (src/algorithms/box.hpp) along each axis, by seed 001's prefix-sum scans
// (a workgroup per line), seed 002's running sums (box_chunk.comp: the lines extended once, then a
// dispatch per box in which each thread slides over a chunk of one channel of one line, then the
// centre written back) or every box in one dispatch (box_fused.comp: each thread the boxes'
// running sums as a cascade), as the plan's schedule says per axis.
#include <algorithm>
#include <string>

#include "algorithms/box.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/error.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct ChunkParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t mode, pad, first_lane;
  std::int32_t sample_stride, line_stride;
  std::int32_t radius;
  float alpha;
  std::int32_t lo, hi, chunk;
};

struct FusedParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t npasses, pad, first_lane;
  std::int32_t chunk, chunks, threads;
};

// BoxSchedule::fused along one axis: one dispatch per batch of lanes (box_fused.comp), each thread
// the plan's outputs (GpuPass::block).
void record_fused(Job& job, const Work& in, const Work& out, const Plan& plan, int axis, Buffer& passes) {
  Context& ctx = job.context();
  const auto ax = static_cast<std::size_t>(axis);
  const auto& resolved = algo::resolved_as<algo::BoxResolved>(plan);
  const int C = in.channels;
  const std::int64_t n = in.extent[ax], lanes = in.lines(axis) * C, pad = resolved.reach[ax];
  std::int64_t slots = 0;  // ring floats a thread keeps: 2 (r + 1) + 1 a pass
  for (const auto& q : resolved.passes[ax]) slots += 2 * (q.radius + 1) + 1;
  const GpuPass& g = plan.schedule.gpu[ax];
  const std::int64_t chunk = g.block, chunks = (n + chunk - 1) / chunk;
  const std::uint64_t per_lane = static_cast<std::uint64_t>(chunks * slots) * sizeof(float);
  const std::int64_t batch = planned_batch(ctx, g, per_lane);
  Buffer& rings = job.buffer(per_lane * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
  const ComputePipeline& p = ctx.pipeline(g.shader, shaders::words(g.shader), {static_cast<std::uint32_t>(C)},
                                          std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                                          sizeof(FusedParams));
  for (std::int64_t first = 0; first < lanes; first += batch) {
    const std::int64_t todo = std::min(batch, lanes - first);
    const FusedParams fp{{static_cast<std::int32_t>(in.extent[0]), static_cast<std::int32_t>(in.extent[1]),
                          static_cast<std::int32_t>(in.extent[2]), static_cast<std::int32_t>(todo)},
                         axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                         static_cast<std::int32_t>(resolved.passes[ax].size()), static_cast<std::int32_t>(pad),
                         static_cast<std::int32_t>(first), static_cast<std::int32_t>(chunk),
                         static_cast<std::int32_t>(chunks), static_cast<std::int32_t>(todo * chunks)};
    job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(rings), Binding::storage(passes)}, fp,
                 spread_groups(static_cast<std::uint64_t>((todo * chunks + 63) / 64)));
  }
}

struct BoxParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t npasses, pad, first_line;
};


// What both box schedules read of the plan along one axis.
struct BoxAxis {
  BoxAxis(const Plan& plan, int axis)
      : ax(static_cast<std::size_t>(axis)),
        boxes(algo::resolved_as<algo::BoxResolved>(plan).passes[ax]),
        pad(algo::resolved_as<algo::BoxResolved>(plan).reach[ax]),  // every pass's padding, as resolved
        pass(plan.schedule.gpu[ax]) {}                              // shader, outputs, batch (algorithms/box.cpp)
  std::size_t ax;
  const std::vector<kernel::BoxPass>& boxes;
  std::int64_t pad;
  const GpuPass& pass;
};

// Running sums (box_chunk.comp), seed 002's moving average: a batch of lanes (one channel of one
// line each) gathered into an extended copy, each box a dispatch sliding over chunks of the plan's
// outputs a thread, the centre scattered back.
void record_running_sums(Job& job, const Work& in, const Work& out, const Plan& plan, int axis) {
  Context& ctx = job.context();
  const BoxAxis b(plan, axis);
  const auto ax = b.ax;
  const int C = in.channels;
  const std::int64_t n = in.extent[ax], lines = in.lines(axis), pad = b.pad;
  const auto& boxes = b.boxes;
  const GpuPass& g = b.pass;
  const bool interleave = plan.schedule.gpu_interleave_scratch;
  // Two extended copies of a batch of lanes.
  const std::int64_t lanes = lines * C, len = n + 2 * pad;
  const std::uint64_t per_lane = static_cast<std::uint64_t>(len) * 4;
  const std::int64_t batch = planned_batch(ctx, g, 2 * per_lane);
  if (g.pass_outputs.size() != boxes.size()) throw InvalidArgument("internal: box_chunk without its passes' outputs");
  Buffer& s0 = job.buffer(per_lane * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
  Buffer& s1 = job.buffer(per_lane * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
  const ComputePipeline& p = ctx.pipeline(g.shader, shaders::words(g.shader), {static_cast<std::uint32_t>(C)},
                                          std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                                          sizeof(ChunkParams));
  for (std::int64_t first = 0; first < lanes; first += batch) {
    const std::int64_t todo = std::min(batch, lanes - first);
    ChunkParams cp{{static_cast<std::int32_t>(in.extent[0]), static_cast<std::int32_t>(in.extent[1]),
                    static_cast<std::int32_t>(in.extent[2]), static_cast<std::int32_t>(todo)},
                   axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                   0, static_cast<std::int32_t>(pad), static_cast<std::int32_t>(first),
                   interleave ? static_cast<std::int32_t>(todo) : 1, interleave ? 1 : static_cast<std::int32_t>(len),
                   0, 0.0f, 0, 0, 0};
    const auto run = [&](Buffer& a, Buffer& b, std::int64_t steps) {
      job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(a), Binding::storage(b)},
                   cp, spread_groups(static_cast<std::uint64_t>((todo * steps + 63) / 64)));
    };
    run(s1, s0, len);  // gather into s0
    Buffer *cur = &s0, *next = &s1;
    std::int64_t lo = 0, hi = len;
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      const auto& q = boxes[k];
      const std::int64_t h = q.radius + 1, outputs = hi - lo - 2 * h;
      const std::int64_t chunk = g.pass_outputs[k];
      cp.mode = 1;
      cp.radius = static_cast<std::int32_t>(q.radius);
      cp.alpha = static_cast<float>(q.alpha);
      cp.lo = static_cast<std::int32_t>(lo);
      cp.hi = static_cast<std::int32_t>(hi);
      cp.chunk = static_cast<std::int32_t>(chunk);
      run(*cur, *next, (outputs + chunk - 1) / chunk);
      std::swap(cur, next);
      lo += h;
      hi -= h;
    }
    cp.mode = 2;
    run(*cur, *next, n);  // scatter the centre into out
  }
}

// Prefix sums (box_scan.comp), seed 001: a workgroup per line scans the extended line's prefix
// sums in shared memory, in chunks with carried sums, every box from them.
void record_prefix_sums(Job& job, const Work& in, const Work& out, const Plan& plan, int axis, Buffer& params) {
  Context& ctx = job.context();
  const BoxAxis b(plan, axis);
  const auto ax = b.ax;
  const int C = in.channels;
  const std::int64_t n = in.extent[ax], lines = in.lines(axis), pad = b.pad;
  const auto& boxes = b.boxes;
  const GpuPass& g = b.pass;
  // Scratch per line: two value arrays and the prefix sums' two halves, each (n + 2 pad) samples
  // of every channel.
  const std::uint64_t per_line = static_cast<std::uint64_t>(C) * 4 * static_cast<std::uint64_t>(n + 2 * pad) * 4;
  const std::int64_t batch = planned_batch(ctx, g, per_line);
  Buffer& scratch = job.buffer(per_line * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
  const ComputePipeline& p =
      ctx.pipeline(g.shader, shaders::words(g.shader), {static_cast<std::uint32_t>(C)}, std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                   sizeof(BoxParams));
  for (std::int64_t first = 0; first < lines; first += batch) {
    const BoxParams bp{{static_cast<std::int32_t>(in.extent[0]), static_cast<std::int32_t>(in.extent[1]),
                        static_cast<std::int32_t>(in.extent[2]), static_cast<std::int32_t>(lines)},
                       axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                       static_cast<std::int32_t>(boxes.size()), static_cast<std::int32_t>(pad),
                       static_cast<std::int32_t>(first)};
    const std::int64_t todo = std::min(batch, lines - first);
    job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(scratch), Binding::storage(params)},
                 bp, spread_groups(static_cast<std::uint64_t>(todo)));
  }
}

}  // namespace

void record_box(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::BoxResolved>(plan);
  run_separable(job, src, dst, active_axes(plan, src), [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const GpuPass& g = plan.schedule.gpu[ax];  // the plan's pass (algorithms/box.cpp): its shader is the schedule
    if (g.shader == algo::box_shader(BoxSchedule::running_sums)) return record_running_sums(job, in, out, plan, axis);
    std::vector<float> table;  // each box's radius and end weight
    for (const auto& q : resolved.passes[ax]) {
      table.push_back(static_cast<float>(q.radius));
      table.push_back(static_cast<float>(q.alpha));
    }
    Buffer& passes = upload(job, table.data(), table.size() * sizeof(float));
    if (g.shader == algo::box_shader(BoxSchedule::fused)) return record_fused(job, in, out, plan, axis, passes);
    record_prefix_sums(job, in, out, plan, axis, passes);
  });
}

}  // namespace fastblur::vk
