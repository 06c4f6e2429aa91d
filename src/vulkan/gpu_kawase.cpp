// kawase on the GPU (seed 002): the work image padded once by the border modes by the schedule's
// whole reach (as the CPU extends it once), then the passes of four diagonal bilinear fetches
// image to image (kawase_pass.comp), the last into the work buffer. Each axis has its own offsets
// (the plan's); an axis with fewer passes sits the others out at offset 0. 2D images.
#include <algorithm>
#include <cmath>
#include <string>

#include "algorithms/kawase.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct KawaseParams {
  std::int32_t size[2], origin[2], image[2];
  float offset[2];
};

}  // namespace

void record_kawase(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::KawaseResolved>(plan);
  Context& ctx = job.context();
  const int C = src.channels;
  const std::string& shader = planned_image_shader(plan, src);
  std::array<std::vector<double>, 2> offsets;
  for (int a : active_axes(plan, src)) offsets[static_cast<std::size_t>(a)] = resolved.offsets[static_cast<std::size_t>(a)];
  const std::size_t passes = std::max(offsets[0].size(), offsets[1].size());
  if (passes == 0) {
    copy_work(job, src, dst);
    return;
  }
  // A pass at offset d reads texels floor(d) + 1 away; one more keeps the clamping out.
  const std::array<std::int64_t, 2> pad{1 + algo::kawase_reach(offsets[0]), 1 + algo::kawase_reach(offsets[1])};
  const std::int64_t iw = src.extent[0] + 2 * pad[0], ih = src.extent[1] + 2 * pad[1];
  const ElementType real = plan.schedule.gpu[0].real;  // the plan's image format: float32, float16 or 8-bit normalized
  Image& first = float_image(job, C, iw, ih, 1, "kawase", real);
  record_pad(job, src, first, pad, plan);
  Image* images[2] = {&first, passes > 1 ? &float_image(job, C, iw, ih, 1, "kawase", real) : &first};
  const ComputePipeline* pipelines[2];
  for (std::uint32_t to_buffer = 0; to_buffer < 2; ++to_buffer)
    pipelines[to_buffer] = &ctx.pipeline(
        shader, shaders::words(shader), {static_cast<std::uint32_t>(C), to_buffer},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
        sizeof(KawaseParams));
  for (std::size_t i = 0; i < passes; ++i) {
    const bool last = i + 1 == passes;
    const Image& in = *images[i % 2];
    const Image& out = *images[(i + 1) % 2];
    const std::int64_t w = last ? src.extent[0] : iw, h = last ? src.extent[1] : ih;
    const KawaseParams kp{{static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)},
                          {static_cast<std::int32_t>(pad[0]), static_cast<std::int32_t>(pad[1])},
                          {static_cast<std::int32_t>(iw), static_cast<std::int32_t>(ih)},
                          {static_cast<float>(i < offsets[0].size() ? offsets[0][i] : 0.0),
                           static_cast<float>(i < offsets[1].size() ? offsets[1][i] : 0.0)}};
    job.dispatch(*pipelines[last ? 1 : 0],
                 {Binding::sampled(in.view(), ctx.linear_sampler()), Binding::image(out.level_view(0)), Binding::storage(dst)},
                 kp, {static_cast<std::uint32_t>((w + 15) / 16), static_cast<std::uint32_t>((h + 15) / 16), 1});
  }
}

}  // namespace fastblur::vk
