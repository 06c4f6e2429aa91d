// downsample on the GPU: per axis, block average, low-resolution Gaussian and linear interpolation
// as three parallel passes (downsample_line.comp), with the factor, compensated sigma and padding
// of cpu/downsample.cpp.
#include <algorithm>

#include "cpu/downsample.hpp"
#include "fastblur/kernel.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
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

void record_downsample(Job& job, const Work& src, const Work& dst, const BlurSpec& spec) {
  Context& ctx = job.context();
  const int C = src.channels;
  const auto axes = active_axes(spec, src);
  for (int axis : axes)
    (void)kernel::downsample_low_sigma(spec.sigma[static_cast<std::size_t>(axis)], cpu::downsample_factor_for(spec, axis),
                                       spec.truncate);  // validates before recording
  run_separable(job, src, dst, axes, [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const std::int64_t n = src.extent[ax], lines = src.lines(axis);
    const int f = cpu::downsample_factor_for(spec, axis);
    const double low_sigma = kernel::downsample_low_sigma(spec.sigma[ax], f, spec.truncate);
    const int r = std::max(1, kernel::radius_from_truncate(low_sigma, spec.truncate));
    const std::vector<double> wd = kernel::gaussian_weights(low_sigma, r);
    const std::vector<float> w(wd.begin(), wd.end());
    Buffer& weights = upload(job, w.data(), w.size() * sizeof(float));
    const std::int64_t pad = static_cast<std::int64_t>(f) * (r + 3), blocks = (n + 2 * pad) / f;
    const std::uint64_t low_bytes = static_cast<std::uint64_t>(lines * blocks * C) * sizeof(float);
    Buffer& low = job.buffer(low_bytes, Buffer::Kind::device);
    Buffer& blurred = job.buffer(low_bytes, Buffer::Kind::device);
    const DownsampleParams dp{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                               static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(lines)},
                              axis, static_cast<std::int32_t>(spec.border[ax]), static_cast<float>(spec.cval), f,
                              static_cast<std::int32_t>(pad), r, static_cast<std::int32_t>(blocks)};
    const std::vector<VkDescriptorType> types(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    for (std::uint32_t mode = 0; mode < 3; ++mode) {
      const ComputePipeline& p =
          ctx.pipeline("downsample_line", shaders::downsample_line(), {static_cast<std::uint32_t>(C), mode}, types,
                       sizeof(DownsampleParams));
      const VkBuffer from = mode == 0 ? in.buffer : mode == 1 ? low.handle() : blurred.handle();
      const VkBuffer to = mode == 0 ? low.handle() : mode == 1 ? blurred.handle() : out.buffer;
      const std::uint64_t threads = static_cast<std::uint64_t>(lines) * static_cast<std::uint64_t>(mode == 2 ? n : blocks);
      job.dispatch(p, {Binding::storage(from), Binding::storage(to), Binding::storage(weights)}, dp,
                   spread_groups((threads + 255) / 256));
    }
  });
}

}  // namespace fastblur::vk
