// fir and fir-incremental on the GPU: one pass per axis, with a table of weights or seed 000's
// incremental coefficients. Along x a workgroup convolves a tile of a row from workgroup-shared
// memory (seed 003's cached fetches; the row is contiguous, so the tile's loads are too), a pixel
// a vector and four (or, register-blocked, eight: GpuPass::block) outputs a thread (fir_line.comp);
// along y and z a thread per four (eight) outputs of a value position, with neighbouring threads on neighbouring
// values of a row (fir_across.comp), so every load is coalesced and the cache serves the rows
// threads share.
#include <algorithm>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct FirParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval, g0, g1, g2;
  std::int32_t radius;
};

struct AcrossParams {
  std::int32_t inner, n, outer, border;
  float cval, g0, g1, g2;
  std::int32_t radius;
};

// fir_line_slices.comp's push constants: FirParams and the rows of one slice.
struct FirSlicesParams {
  FirParams fir;
  std::int32_t rows_per_slice;
};

}  // namespace

void record_fir(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  Context& ctx = job.context();
  const int C = src.channels;
  run_separable(job, src, dst, active_axes(plan, src), [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const double sigma = plan.axes[ax].sigma;
    const std::int64_t n = src.extent[ax], lines = src.lines(axis);
    const int r = plan.axes[ax].radius;
    const std::vector<double>& w = *plan.axes[ax].weights;  // the plan's symmetric kernel
    std::vector<float> half(static_cast<std::size_t>(r) + 1);
    for (int k = 0; k <= r; ++k) half[static_cast<std::size_t>(k)] = static_cast<float>(w[static_cast<std::size_t>(r + k)]);
    Buffer& weights = upload(job, half.data(), half.size() * sizeof(float));
    const auto c = kernel::incremental_coefficients(sigma);
    const std::uint32_t incremental = plan.algorithm == Algorithm::fir_incremental ? 1u : 0u;
    if (axis != 0) {
      const std::int64_t inner = (axis == 1 ? src.extent[0] : src.extent[0] * src.extent[1]) * C;
      const int outputs = algo::fir_outputs(plan.schedule.gpu[ax]);  // a thread's
      const std::int64_t outer = axis == 1 ? src.extent[2] : 1, rows = outer * ((n + outputs - 1) / outputs);
      const std::string& shader = plan.schedule.gpu[ax].shader;
      const ComputePipeline& p = ctx.pipeline(shader, shaders::words(shader), {incremental},
                                              std::vector<VkDescriptorType>(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                                              sizeof(AcrossParams));
      const AcrossParams ap{static_cast<std::int32_t>(inner), static_cast<std::int32_t>(n), static_cast<std::int32_t>(outer),
                            static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval),
                            c.g0, c.g1, c.g2, r};
      job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(weights)}, ap,
                   {static_cast<std::uint32_t>((inner + 63) / 64), static_cast<std::uint32_t>(std::min<std::int64_t>(rows, 65535)),
                    static_cast<std::uint32_t>((rows + 65534) / 65535)});
      return;
    }
    // The shared tile (fir_line.comp: 256 outputs and their 2R halo, a pixel a slot, one slot of
    // padding every PAD_EVERY) as the plan sized it (algorithms/gpu_passes.cpp), or device memory.
    const GpuPass& g = plan.schedule.gpu[ax];
    const int outputs = algo::fir_outputs(g);  // a thread's; a workgroup's tile is 64 of them
    const bool shared = g.tile > 0;
    const std::uint32_t slots = shared ? static_cast<std::uint32_t>(algo::fir_tile_slots(g.tile, C, outputs)) : 1u;
    const ComputePipeline& p = ctx.pipeline(
        g.shader, shaders::words(g.shader), {incremental, shared ? 1u : 0u, slots},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
        sizeof(FirParams));
    const FirParams fp{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                        static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(lines)},
                       axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval), c.g0, c.g1, c.g2,
                       r};
    const std::int64_t tile = 64 * outputs;
    job.dispatch(p, {Binding::storage(in), Binding::storage(out), Binding::storage(weights)}, fp,
                 {static_cast<std::uint32_t>((n + tile - 1) / tile), static_cast<std::uint32_t>(std::min<std::int64_t>(lines, 65535)),
                  static_cast<std::uint32_t>((lines + 65534) / 65535)});
  });
}

void record_fir_slices(Job& job, const Work& src, const Work& dst, const SlicedPlan& sliced) {
  if (!sliced.stacked) throw InvalidArgument("internal: record_fir_slices runs a stacked plan");
  Context& ctx = job.context();
  const Plan& first = sliced.slices.front();
  const int C = src.channels;
  const std::int64_t W = src.extent[0], H = src.extent[1], D = src.extent[2];
  if (D != static_cast<std::int64_t>(sliced.slices.size())) throw InvalidArgument("internal: a stack of another depth");
  run_separable(job, src, dst, active_axes(first, src), [&](int axis, const Work& in, const Work& out) {
    if (axis > 1) throw InvalidArgument("internal: the slices of a stack are 2D");
    const auto ax = static_cast<std::size_t>(axis);
    // Every slice's half kernel in one table, and per slice its radius and its first weight there.
    std::vector<float> weights;
    std::vector<std::int32_t> kernels;
    for (const Plan& p : sliced.slices) {
      const int r = p.axes[ax].radius;
      const std::vector<double>& w = *p.axes[ax].weights;
      kernels.push_back(r);
      kernels.push_back(static_cast<std::int32_t>(weights.size()));
      for (int k = 0; k <= r; ++k) weights.push_back(static_cast<float>(w[static_cast<std::size_t>(r + k)]));
    }
    Buffer& table = upload(job, weights.data(), weights.size() * sizeof(float));
    Buffer& per_slice = upload(job, kernels.data(), kernels.size() * sizeof(std::int32_t));
    const GpuPass& g = sliced.stacked_passes[ax];
    const std::vector<VkDescriptorType> types(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    const std::vector<Binding> bindings{Binding::storage(in), Binding::storage(out), Binding::storage(table),
                                        Binding::storage(per_slice)};
    const float cval = static_cast<float>(first.spec.cval);
    const auto border = static_cast<std::int32_t>(first.axes[ax].border);
    if (axis == 1) {
      const std::int64_t inner = W * C, rows = D * ((H + 3) / 4);  // 4 outputs a thread
      const ComputePipeline& p = ctx.pipeline(g.shader, shaders::words(g.shader), {0u}, types, sizeof(AcrossParams));
      const AcrossParams ap{static_cast<std::int32_t>(inner), static_cast<std::int32_t>(H), static_cast<std::int32_t>(D),
                            border, cval, 0.0f, 0.0f, 0.0f, 0};
      job.dispatch(p, bindings, ap,
                   {static_cast<std::uint32_t>((inner + 63) / 64), static_cast<std::uint32_t>(std::min<std::int64_t>(rows, 65535)),
                    static_cast<std::uint32_t>((rows + 65534) / 65535)});
      return;
    }
    const bool shared = g.tile > 0;
    const std::uint32_t slots = shared ? static_cast<std::uint32_t>(algo::fir_tile_slots(g.tile, C)) : 1u;
    const ComputePipeline& p = ctx.pipeline(g.shader, shaders::words(g.shader), {0u, shared ? 1u : 0u, slots}, types,
                                            sizeof(FirSlicesParams));
    const std::int64_t lines = H * D;
    const FirSlicesParams fp{{{static_cast<std::int32_t>(W), static_cast<std::int32_t>(H), static_cast<std::int32_t>(D),
                               static_cast<std::int32_t>(lines)},
                              0, border, cval, 0.0f, 0.0f, 0.0f, 0},
                             static_cast<std::int32_t>(H)};
    job.dispatch(p, bindings, fp,
                 {static_cast<std::uint32_t>((W + 255) / 256), static_cast<std::uint32_t>(std::min<std::int64_t>(lines, 65535)),
                  static_cast<std::uint32_t>((lines + 65534) / 65535)});
  });
}

}  // namespace fastblur::vk
