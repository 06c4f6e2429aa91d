// iir_chunks.comp's three dispatches for one axis (gpu_iir_chunks.hpp), in batches of lanes whose
// chunk states fit the scratch budget.
#include "vulkan/gpu_iir_chunks.hpp"

#include <complex>
#include <string>
#include <vector>

#include "algorithms/gpu_passes.hpp"
#include "algorithms/iir.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_iir.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/shaders.hpp"

namespace fastblur::vk {
namespace {

struct ChunkParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t pad, first_lane, todo, chunks;
};

}  // namespace

void record_iir_chunks(Job& job, const Work& in, const Work& out, const Plan& plan, int axis) {
  const auto& resolved = algo::resolved_as<algo::IirResolved>(plan);
  Context& ctx = job.context();
  const auto ax = static_cast<std::size_t>(axis);
  const int C = in.channels;
  const GpuPass& g = plan.schedule.gpu[ax];
  const std::int64_t n = in.extent[ax], lanes = in.lines(axis) * C;
  const std::int64_t pad = algo::iir_chunks_pad(g, resolved.axes[ax], n);  // 0: the shader computes the starts
  const auto chunk = static_cast<std::int64_t>(g.block);
  if (chunk < 1) throw InvalidArgument("internal: iir_chunks without a chunk length");
  const std::int64_t chunks = (n + 2 * pad + chunk - 1) / chunk;
  if (static_cast<double>(lanes) * static_cast<double>(chunks) >= 2147483647.0)
    throw Unsupported("iir on the Vulkan backend: more than 2^31 chunks along one axis");
  // p0, p1, r0, r1 and the poles to the power of a whole chunk, computed in double.
  const auto f = kernel::deriche_parallel_form(plan.axes[ax].sigma);
  std::vector<float> k;
  for (const std::complex<double>& z : {f.pole[0], f.pole[1], f.residue[0], f.residue[1], std::pow(f.pole[0], static_cast<double>(chunk)),
                                         std::pow(f.pole[1], static_cast<double>(chunk))}) {
    k.push_back(static_cast<float>(z.real()));
    k.push_back(static_cast<float>(z.imag()));
  }
  Buffer& coefficients = upload(job, k.data(), k.size() * sizeof(float));
  const std::uint64_t per_lane = static_cast<std::uint64_t>(chunks) * 32;  // two vec4 a chunk
  const std::int64_t batch = planned_batch(ctx, g, per_lane);
  Buffer& carry = job.buffer(per_lane * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
  const ComputePipeline* phases[3];
  for (std::uint32_t phase = 0; phase < 3; ++phase)
    phases[phase] = &ctx.pipeline(g.shader, shaders::words(g.shader),
                                  {static_cast<std::uint32_t>(C), phase, static_cast<std::uint32_t>(chunk)},
                                  std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), sizeof(ChunkParams));
  for (std::int64_t first = 0; first < lanes; first += batch) {
    const std::int64_t todo = std::min(batch, lanes - first);
    const ChunkParams cp{{static_cast<std::int32_t>(in.extent[0]), static_cast<std::int32_t>(in.extent[1]),
                          static_cast<std::int32_t>(in.extent[2]), static_cast<std::int32_t>(lanes)},
                         axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                         static_cast<std::int32_t>(pad), static_cast<std::int32_t>(first), static_cast<std::int32_t>(todo),
                         static_cast<std::int32_t>(chunks)};
    const std::vector<Binding> bindings{Binding::storage(in), Binding::storage(out), Binding::storage(carry),
                                        Binding::storage(coefficients)};
    const auto threads = [](std::int64_t t) { return spread_groups(static_cast<std::uint64_t>((t + 63) / 64)); };
    job.dispatch(*phases[0], bindings, cp, threads(todo * chunks));
    job.dispatch(*phases[1], bindings, cp, threads(todo));
    job.dispatch(*phases[2], bindings, cp, threads(todo * chunks));
  }
}

}  // namespace fastblur::vk
