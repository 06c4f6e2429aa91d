// downsample's chain on the GPU: the source read once into blocks of every filtered axis, the
// blocks blurred axis by axis, interpolated back into the destination (downsample_chain.comp), with
// the factors, compensated sigmas and padding of the plan (src/algorithms/downsample.hpp).
#include "vulkan/gpu_downsample_chain.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/downsample.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/kernel.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/shaders.hpp"

namespace fastblur::vk {
namespace {

struct ChainParams {
  std::int32_t extent[4], factor[4], pad[4], blocks[4], border[4];
  float cval;
  std::int32_t axis, radius, w_first;
};

enum Mode : std::uint32_t { kReduce = 0, kBlurBlocks = 1, kInterpolate = 2 };

}  // namespace

void record_downsample_chain(Job& job, const Work& src, const Work& dst, const Plan& plan) {
  const auto& resolved = algo::resolved_as<algo::DownsampleResolved>(plan);
  const std::vector<int> axes = active_axes(plan, src);
  if (axes.empty()) return copy_work(job, src, dst);
  Context& ctx = job.context();
  const int C = src.channels;
  ChainParams cp{};
  std::vector<float> weights;
  std::vector<int> blurred, w_first;  // the axes whose blocks are blurred, where their weights start
  std::uint64_t block_count = 1;
  for (int a = 0; a < 3; ++a) {
    const auto ax = static_cast<std::size_t>(a);
    cp.extent[a] = static_cast<std::int32_t>(src.extent[ax]);
    cp.border[a] = static_cast<std::int32_t>(plan.axes[ax].border);
    cp.factor[a] = 1;
    cp.blocks[a] = cp.extent[a];
    if (std::find(axes.begin(), axes.end(), a) != axes.end()) {
      const algo::DownsampleAxis& d = resolved.axes[ax];
      cp.factor[a] = d.factor;
      cp.pad[a] = static_cast<std::int32_t>(d.pad);
      cp.blocks[a] = static_cast<std::int32_t>((src.extent[ax] + 2 * d.pad) / d.factor);
      blurred.push_back(a);
      w_first.push_back(static_cast<int>(weights.size()));
      for (double v : kernel::gaussian_weights(d.low_sigma, d.radius)) weights.push_back(static_cast<float>(v));
    }
    block_count *= static_cast<std::uint64_t>(cp.blocks[a]);
  }
  cp.cval = static_cast<float>(plan.spec.cval);
  Buffer& w = upload(job, weights.data(), weights.size() * sizeof(float));
  const std::uint64_t block_bytes = block_count * static_cast<std::uint64_t>(C) * sizeof(float);
  Buffer* low = &job.buffer(block_bytes, Buffer::Kind::device);
  Buffer* other = &job.buffer(block_bytes, Buffer::Kind::device);
  const std::vector<VkDescriptorType> types(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  const auto pipeline = [&](Mode mode) -> const ComputePipeline& {
    return ctx.pipeline(algo::downsample_shader(GpuDownsample::chain), shaders::words(algo::downsample_shader(GpuDownsample::chain)), {static_cast<std::uint32_t>(C), mode}, types,
                        sizeof(ChainParams));
  };
  const auto groups = [](std::uint64_t threads) { return spread_groups((threads + 255) / 256); };
  job.dispatch(pipeline(kReduce), {Binding::storage(src), Binding::storage(*low), Binding::storage(w)}, cp, groups(block_count));
  for (std::size_t i = 0; i < blurred.size(); ++i) {
    const auto ax = static_cast<std::size_t>(blurred[i]);
    cp.axis = blurred[i];
    cp.radius = resolved.axes[ax].radius;
    cp.w_first = w_first[i];
    job.dispatch(pipeline(kBlurBlocks), {Binding::storage(*low), Binding::storage(*other), Binding::storage(w)}, cp,
                 groups(block_count));
    std::swap(low, other);
  }
  job.dispatch(pipeline(kInterpolate), {Binding::storage(*low), Binding::storage(dst), Binding::storage(w)}, cp,
               groups(static_cast<std::uint64_t>(src.pixels())));
}

}  // namespace fastblur::vk
