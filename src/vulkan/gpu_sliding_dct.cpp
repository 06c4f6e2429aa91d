// sliding-dct on the GPU (issue 47: the exact blur constant in sigma, as the CPU has it): each
// axis's cosine series (algorithms/sliding_dct.hpp) slid along chunks of every line in parallel,
// in double (sdct_chunks.comp); the plan's pass names the chunk length (GpuPass::block) and the
// lanes a dispatch covers (GpuPass::batch).
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "algorithms/sliding_dct.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_sliding_dct.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct SdctParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t radius, first_lane, todo, chunk, chunks;
};

// sdct_chunks.comp's coefficients of series `k`: per term beta, 2 cos(w), cos(w R), cos(w (R + 1)),
// then each term's window of cosines cos(w m), m = -R .. R (w = 2 pi t / period), in double.
std::vector<double> coefficients(const kernel::SlidingDctKernel& k) {
  const int terms = k.order() + 1, r = k.radius;
  const double period = k.cosine_period();
  std::vector<double> c;
  for (int t = 0; t < terms; ++t) {
    const double w = 2.0 * std::numbers::pi * t / period;
    c.insert(c.end(), {k.beta[static_cast<std::size_t>(t)], 2.0 * std::cos(w), std::cos(w * r), std::cos(w * (r + 1))});
  }
  for (int t = 0; t < terms; ++t) {
    const double w = 2.0 * std::numbers::pi * t / period;
    for (int m = -r; m <= r; ++m) c.push_back(std::cos(w * m));
  }
  return c;
}

}  // namespace

void record_sliding_dct(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::SlidingDctResolved>(plan);
  Context& ctx = job.context();
  if (!ctx.has_float64())
    throw Unsupported("sliding-dct's recurrences run in float64, which " + ctx.info().name + " lacks: plan for this device");
  const int C = src.channels;
  run_separable(job, src, dst, active_axes(plan, src), [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const GpuPass& g = plan.schedule.gpu[ax];
    const auto& series = resolved.axes[ax];
    if (!series || g.shader.empty() || g.block < 1 || g.batch < 1)
      throw InvalidArgument("internal: sliding-dct's pass along an axis without its series, chunk or batch");
    const std::int64_t n = in.extent[ax], lanes = in.lines(axis) * C, chunks = (n + g.block - 1) / g.block;
    if (static_cast<double>(lanes) * static_cast<double>(chunks) >= 2147483647.0)
      throw Unsupported("sliding-dct on the Vulkan backend: more than 2^31 chunks along one axis");
    const std::vector<double> k = coefficients(*series);
    Buffer& coefficient_buffer = upload(job, k.data(), k.size() * sizeof(double));
    const ComputePipeline& p =
        ctx.pipeline(g.shader, shaders::words(g.shader),
                     {static_cast<std::uint32_t>(C), static_cast<std::uint32_t>(series->order() + 1)},
                     std::vector<VkDescriptorType>(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), sizeof(SdctParams));
    for (std::int64_t first = 0; first < lanes; first += g.batch) {
      const std::int64_t todo = std::min(g.batch, lanes - first);
      const SdctParams sp{{static_cast<std::int32_t>(in.extent[0]), static_cast<std::int32_t>(in.extent[1]),
                           static_cast<std::int32_t>(in.extent[2]), static_cast<std::int32_t>(lanes)},
                          axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                          series->radius, static_cast<std::int32_t>(first), static_cast<std::int32_t>(todo),
                          static_cast<std::int32_t>(g.block), static_cast<std::int32_t>(chunks)};
      job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(coefficient_buffer)}, sp,
                   spread_groups(static_cast<std::uint64_t>((todo * chunks + 63) / 64)));
    }
  });
}

}  // namespace fastblur::vk
