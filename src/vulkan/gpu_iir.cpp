// iir on the GPU: Deriche's or Young-van Vliet's recursive Gaussian along each axis: Deriche's
// parallel form in float32 with every line cut into chunks that run in parallel where the plan
// says so (gpu_iir_chunks.cpp), else one thread per
// line and channel (iir_line.comp; along x through shared-memory blocks of whole lines), with the plan's coefficients and padding (src/algorithms/iir.hpp) and the
// boundary starts of cpu/iir.cpp. Deriche runs in float32 in its parallel form (stable at any
// sigma); float64 only where the plan's pass asks for it (GpuPass::real: Young-van Vliet's
// direct form beyond the sigma float32 holds, or a caller's choice) and the device has it.
#include <algorithm>
#include <string>

#include "fastblur/error.hpp"
#include "algorithms/iir.hpp"
#include "fastblur/kernel_iir.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/gpu_iir_chunks.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct IirParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t pad, first_lane;
  std::int32_t sample_stride, line_stride;  // the scratch's layout (Schedule::gpu_interleave_scratch)
};

// The coefficients iir_line.comp reads for the plan's recursion along axis `ax`: Deriche's parallel
// form's poles and residues (real, imaginary), or Young-van Vliet's gain, feedback and
// Triggs-Sdika's boundary matrix.
std::vector<double> coefficients(const algo::IirResolved& resolved, double sigma, std::size_t ax, GpuPass::Recursion recursion) {
  const algo::IirAxis& r = resolved.axes[ax];
  std::vector<double> k;
  if (recursion == GpuPass::Recursion::deriche_parallel) {
    const auto f = kernel::deriche_parallel_form(sigma);
    for (const auto& z : {f.pole[0], f.pole[1], f.residue[0], f.residue[1]}) {
      k.push_back(z.real());
      k.push_back(z.imag());
    }
  } else {
    const auto& c = r.young_van_vliet;
    k.push_back(c.B);
    k.insert(k.end(), c.feedback.begin(), c.feedback.end());
    for (const auto& row : r.triggs_sdika) k.insert(k.end(), row.begin(), row.end());
  }
  return k;
}

// iir_line.comp's VARIANT for the plan's recursion.
std::uint32_t shader_recursion(GpuPass::Recursion recursion) {
  switch (recursion) {
    case GpuPass::Recursion::young_van_vliet: return 1;
    default: return 2;  // Deriche's parallel form
  }
}

}  // namespace

void record_iir(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::IirResolved>(plan);
  Context& ctx = job.context();
  const int C = src.channels;
  const auto axes = active_axes(plan, src);
  const bool deriche = resolved.variant == IirVariant::deriche;
  run_separable(job, src, dst, axes, [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const GpuPass& g = plan.schedule.gpu[ax];
    if (algo::iir_chunks_pass(g)) {
      record_iir_chunks(job, in, out, plan, axis);
      return;
    }
    // The plan's precision and recursion (algorithms/iir.cpp); a device without float64 was not
    // the one the plan was made for.
    const bool float64 = g.real == ElementType::f64;
    if (float64 && !ctx.has_float64())
      throw Unsupported("this plan runs iir in float64, which " + ctx.info().name + " lacks: plan for this device");
    if (g.recursion == GpuPass::Recursion::none || (g.recursion == GpuPass::Recursion::young_van_vliet) == deriche)
      throw InvalidArgument("internal: the plan's iir pass names no recursion of its variant");
    const std::size_t real = float64 ? sizeof(double) : sizeof(float);
    const algo::IirAxis& r = resolved.axes[ax];
    const std::int64_t n = src.extent[ax], lanes = src.lines(axis) * C;  // a lane: one channel of a line
    const std::int64_t pad = r.pad;
    const std::vector<double> k = coefficients(resolved, plan.axes[ax].sigma, ax, g.recursion);
    const std::vector<float> kf(k.begin(), k.end());
    Buffer& coefficient_buffer = float64 ? upload(job, k.data(), k.size() * sizeof(double)) : upload(job, kf.data(), kf.size() * sizeof(float));
    // Per lane, Deriche keeps the causal part of the outputs; Young-van Vliet the causal pass from
    // the first output to the padded line's end.
    const std::uint64_t per_lane = static_cast<std::uint64_t>(deriche ? n : n + pad) * real;
    // The plan's pass (algorithms/iir.cpp): along x, whole lines per workgroup in shared memory
    // (iir_line.comp's TILED, `tile` lanes a workgroup), else a lane per thread; `block` samples a
    // thread's shared-memory block; `batch` lanes a dispatch. A device with less shared memory or
    // scratch than the plan's was not the one it was made for.
    const bool tiled = g.tile > 0;
    const std::int64_t group_lanes = tiled ? g.tile : 64;
    const std::uint64_t slot_bytes = 64 * (sizeof(float) + real + (tiled ? sizeof(float) : 0));
    const auto block = static_cast<std::uint32_t>(g.block);
    if (block < 1 || block > 32 || block * slot_bytes > ctx.limits().maxComputeSharedMemorySize)
      throw Unsupported("this plan's iir blocks of " + std::to_string(block) + " samples exceed " + ctx.info().name +
                        "'s shared memory: plan for this device");
    const std::int64_t batch = planned_batch(ctx, g, per_lane);
    const bool interleave = plan.schedule.gpu_interleave_scratch;
    Buffer& scratch = job.buffer(per_lane * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
    const ComputePipeline& p =
        ctx.pipeline(g.shader, shaders::words(g.shader),
                     {static_cast<std::uint32_t>(C), shader_recursion(g.recursion), tiled ? 1u : 0u,
                      static_cast<std::uint32_t>(tiled ? 64 / C : 1), block, tiled ? block * 64 : 1u},
                     std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), sizeof(IirParams));
    for (std::int64_t first = 0; first < lanes; first += batch) {
      const std::int64_t todo = std::min(batch, lanes - first);
      const IirParams ip{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                          static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(first + todo)},
                         axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                         static_cast<std::int32_t>(pad), static_cast<std::int32_t>(first),
                         interleave ? static_cast<std::int32_t>(batch) : 1,
                         interleave ? 1 : static_cast<std::int32_t>(per_lane / real)};
      job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(scratch),
                       Binding::storage(coefficient_buffer)},
                   ip, spread_groups(static_cast<std::uint64_t>((todo + group_lanes - 1) / group_lanes)));
    }
  });
}

}  // namespace fastblur::vk
