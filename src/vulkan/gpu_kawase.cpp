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
  // kawase_pass_cN for a pass alone, kawase_pair_cN for two (the context keeps each pipeline built).
  const auto pipeline = [&](bool pair, bool to_buffer) -> const ComputePipeline& {
    const std::string name = pair ? algo::kawase_pair_shader(plan) : shader;
    return ctx.pipeline(name, shaders::words(name), {static_cast<std::uint32_t>(C), to_buffer ? 1u : 0u},
                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                        static_cast<std::uint32_t>(pair ? sizeof(KawasePairParams) : sizeof(KawaseParams)));
  };
  // Every pipeline the plan names is built, whether or not this schedule's dispatches run it.
  for (const bool to_buffer : {false, true}) {
    pipeline(false, to_buffer);
    if (algo::kawase_pairs_passes(plan)) pipeline(true, to_buffer);
  }
  const auto offset_of = [&](std::size_t i) {  // pass i's (dx, dy); an axis with fewer passes sits out at 0
    std::array<float, 2> d{};
    for (std::size_t a = 0; a < 2; ++a) d[a] = static_cast<float>(i < offsets[a].size() ? offsets[a][i] : 0.0);
    return d;
  };
  std::size_t i = 0;  // the dispatch's first pass
  for (std::size_t k = 0; k < dispatches.size(); ++k) {
    const bool last = k + 1 == dispatches.size(), pair = dispatches[k] == 2;
    const Image& in = *images[k % 2];
    const Image& out = *images[(k + 1) % 2];
    const std::int64_t w = last ? src.extent[0] : iw, h = last ? src.extent[1] : ih;
    const std::array<float, 2> d = offset_of(i);
    const std::vector<Binding> bindings = {Binding::sampled(in.view(), ctx.linear_sampler()), Binding::image(out.level_view(0)),
                                           Binding::storage(dst)};
    const std::array<std::uint32_t, 3> groups = {static_cast<std::uint32_t>((w + 15) / 16), static_cast<std::uint32_t>((h + 15) / 16), 1};
    const KawaseParams kp{{static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)},
                          {static_cast<std::int32_t>(pad[0]), static_cast<std::int32_t>(pad[1])},
                          {static_cast<std::int32_t>(iw), static_cast<std::int32_t>(ih)},
                          {d[0], d[1]}};
    if (pair) {
      const std::array<float, 2> e = offset_of(i + 1);
      const KawasePairParams pp{{kp.size[0], kp.size[1]}, {kp.origin[0], kp.origin[1]}, {kp.image[0], kp.image[1]},
                                {d[0], d[1]}, {e[0], e[1]}};
      job.dispatch(pipeline(true, last), bindings, pp, groups);
    } else {
      job.dispatch(pipeline(false, last), bindings, kp, groups);
    }
    i += static_cast<std::size_t>(dispatches[k]);
  }
}

}  // namespace fastblur::vk
