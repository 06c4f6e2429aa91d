// downsample on the GPU, in the plan's design (its pass's shader, GpuDownsample): the chain
// (gpu_downsample_chain.cpp), or per axis the tent onto block centres, low-resolution Gaussian and
// linear interpolation as three parallel passes (downsample_line.comp), with the factor,
// compensated sigma and padding of the plan (src/algorithms/downsample.hpp), as cpu/downsample.cpp.
#include <algorithm>

#include "algorithms/downsample.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/kernel.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_downsample_chain.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct DownsampleParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t factor, pad, radius, blocks;
};

}  // namespace

void record_downsample(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  if (algo::downsample_design_of(plan.schedule.gpu[0].shader) == GpuDownsample::chain)
    return record_downsample_chain(job, src, dst, plan);
  const auto& resolved = algo::resolved_as<algo::DownsampleResolved>(plan);
  Context& ctx = job.context();
  const int C = src.channels;
  run_separable(job, src, dst, active_axes(plan, src), [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const algo::DownsampleAxis& d = resolved.axes[ax];
    const std::int64_t n = src.extent[ax], lines = src.lines(axis);
    const int f = d.factor, r = d.radius;
    const std::vector<double> wd = kernel::gaussian_weights(d.low_sigma, r);
    const std::vector<float> w(wd.begin(), wd.end());
    Buffer& weights = upload(job, w.data(), w.size() * sizeof(float));
    const std::int64_t pad = d.pad, blocks = (n + 2 * pad) / f;
    const std::uint64_t low_bytes = static_cast<std::uint64_t>(lines * blocks * C) * sizeof(float);
    Buffer& low = job.buffer(low_bytes, Buffer::Kind::device);
    Buffer& blurred = job.buffer(low_bytes, Buffer::Kind::device);
    const DownsampleParams dp{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                               static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(lines)},
                              axis, static_cast<std::int32_t>(plan.axes[ax].border), static_cast<float>(plan.spec.cval), f,
                              static_cast<std::int32_t>(pad), r, static_cast<std::int32_t>(blocks)};
    const std::vector<VkDescriptorType> types(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    for (std::uint32_t mode = 0; mode < 3; ++mode) {
      const ComputePipeline& p =
          ctx.pipeline(algo::downsample_shader(GpuDownsample::per_axis), shaders::words(algo::downsample_shader(GpuDownsample::per_axis)), {static_cast<std::uint32_t>(C), mode}, types,
                       sizeof(DownsampleParams));
      const Binding from = mode == 0 ? Binding::storage(in) : Binding::storage(mode == 1 ? low : blurred);
      const Binding to = mode == 2 ? Binding::storage(out) : Binding::storage(mode == 0 ? low : blurred);
      const std::uint64_t threads = static_cast<std::uint64_t>(lines) * static_cast<std::uint64_t>(mode == 2 ? n : blocks);
      job.dispatch(p, {from, to, Binding::storage(weights)}, dp,
                   spread_groups((threads + 255) / 256));
    }
  });
}

}  // namespace fastblur::vk
