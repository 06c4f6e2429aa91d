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
// kawase_pair.comp's: the first pass's offsets, then the second's.
struct KawasePairParams {
  std::int32_t size[2], origin[2], image[2];
  float first[2], second[2];
};

}  // namespace

void record_kawase(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const auto& resolved = algo::resolved_as<algo::KawaseResolved>(plan);
  Context& ctx = job.context();
  const int C = src.channels;
  const std::string& shader = planned_image_shader(plan, src);
  std::array<std::vector<double>, 3> offsets;
  for (int a : active_axes(plan, src)) offsets[static_cast<std::size_t>(a)] = resolved.offsets[static_cast<std::size_t>(a)];
  // Each dispatch runs one pass, or two (the paired-passes variant, where the second's reach fits).
  const std::vector<int> dispatches = algo::kawase_dispatches(offsets, algo::kawase_pairs_passes(plan));
  if (dispatches.empty()) {
    copy_work(job, src, dst);
    return;
  }
  // A pass at offset d reads texels floor(d) + 1 away; one more keeps the clamping out.
  const std::array<std::int64_t, 2> pad{1 + algo::kawase_reach(offsets[0]), 1 + algo::kawase_reach(offsets[1])};
  const std::int64_t iw = src.extent[0] + 2 * pad[0], ih = src.extent[1] + 2 * pad[1];
  const ElementType real = plan.schedule.gpu[0].real;  // the plan's image format: float32, float16 or 8-bit normalized
  Image& first = float_image(job, C, iw, ih, 1, "kawase", real);
  record_pad(job, src, first, pad, plan);
  Image* images[2] = {&first, dispatches.size() > 1 ? &float_image(job, C, iw, ih, 1, "kawase", real) : &first};
  // Pipelines [pair][to_buffer]: kawase_pass_cN, and kawase_pair_cN for the pairs.
  const std::string pair_shader = algo::kawase_pair_shader(plan);
  const ComputePipeline* pipelines[2][2] = {};
  for (std::uint32_t pair = 0; pair < 2; ++pair)
    for (std::uint32_t to_buffer = 0; to_buffer < 2; ++to_buffer) {
      if (pair && !algo::kawase_pairs_passes(plan)) continue;
      const std::string& name = pair ? pair_shader : shader;
      pipelines[pair][to_buffer] = &ctx.pipeline(
          name, shaders::words(name), {static_cast<std::uint32_t>(C), to_buffer},
          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
          static_cast<std::uint32_t>(pair ? sizeof(KawasePairParams) : sizeof(KawaseParams)));
    }
  const auto offset_of = [&](std::size_t a, std::size_t i) {
    return static_cast<float>(i < offsets[a].size() ? offsets[a][i] : 0.0);
  };
  std::size_t i = 0;  // the next pass
  for (std::size_t k = 0; k < dispatches.size(); ++k) {
    const bool last = k + 1 == dispatches.size(), pair = dispatches[k] == 2;
    const Image& in = *images[k % 2];
    const Image& out = *images[(k + 1) % 2];
    const std::int64_t w = last ? src.extent[0] : iw, h = last ? src.extent[1] : ih;
    const std::int32_t size[2] = {static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)};
    const std::int32_t origin[2] = {static_cast<std::int32_t>(pad[0]), static_cast<std::int32_t>(pad[1])};
    const std::int32_t image[2] = {static_cast<std::int32_t>(iw), static_cast<std::int32_t>(ih)};
    const std::vector<Binding> bindings = {Binding::sampled(in.view(), ctx.linear_sampler()), Binding::image(out.level_view(0)),
                                           Binding::storage(dst)};
    const std::array<std::uint32_t, 3> groups = {static_cast<std::uint32_t>((w + 15) / 16), static_cast<std::uint32_t>((h + 15) / 16), 1};
    if (pair) {
      const KawasePairParams kp{{size[0], size[1]}, {origin[0], origin[1]}, {image[0], image[1]},
                                {offset_of(0, i), offset_of(1, i)}, {offset_of(0, i + 1), offset_of(1, i + 1)}};
      job.dispatch(*pipelines[1][last ? 1 : 0], bindings, kp, groups);
    } else {
      const KawaseParams kp{{size[0], size[1]}, {origin[0], origin[1]}, {image[0], image[1]}, {offset_of(0, i), offset_of(1, i)}};
      job.dispatch(*pipelines[0][last ? 1 : 0], bindings, kp, groups);
    }
    i += static_cast<std::size_t>(dispatches[k]);
  }
}

}  // namespace fastblur::vk
