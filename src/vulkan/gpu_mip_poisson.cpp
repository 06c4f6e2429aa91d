// mip-poisson on the GPU (seed 003): the work image padded once to the plan's padded size
// into level 0 of a mip-mapped float image, the [1 3 3 1] levels built from it, and each pixel's
// rotated sample set fetched trilinearly by textureLod (mip_poisson.comp). 2D images.
#include <string>

#include "algorithms/mip_poisson.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct MipParams {
  std::int32_t size[2], origin[2], image[2];
  float scale[2];
  std::int32_t noise_origin[2];
  std::int32_t level, count, frame;
};

}  // namespace

void record_mip_poisson(Job& job, const Work& src, const Work& dst, const Plan& plan,
                        std::array<std::int64_t, 2> noise_origin) {
  const kernel::MipPoissonSchedule& s = algo::resolved_as<algo::MipPoissonResolved>(plan).schedule;
  Context& ctx = job.context();
  const int C = src.channels, L = s.max_level;
  const std::string& shader = planned_image_shader(plan, src);
  const algo::MipPoissonPadding px = algo::mip_poisson_padding(src.extent[0], s);
  const algo::MipPoissonPadding py = algo::mip_poisson_padding(src.extent[1], s);
  Image& image = float_image(job, C, px.size, py.size, static_cast<std::uint32_t>(L + 1), "mip-poisson");
  record_pad(job, src, image, {px.before, py.before}, plan);
  std::vector<float> samples;
  for (std::size_t i = 0; i < s.samples.size(); ++i)
    for (double v : {s.samples[i].x, s.samples[i].y, s.lod[i], 0.0}) samples.push_back(static_cast<float>(v));
  Buffer& table = upload(job, samples.data(), samples.size() * sizeof(float));
  const std::vector<VkDescriptorType> types{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  const auto params = [&](std::int64_t w, std::int64_t h, int level) {
    return MipParams{{static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)},
                     {static_cast<std::int32_t>(px.before), static_cast<std::int32_t>(py.before)},
                     {static_cast<std::int32_t>(px.size), static_cast<std::int32_t>(py.size)},
                     {static_cast<float>(s.scale[0]), static_cast<float>(s.scale[1])},
                     {static_cast<std::int32_t>(noise_origin[0]), static_cast<std::int32_t>(noise_origin[1])},
                     level, static_cast<std::int32_t>(s.samples.size()), algo::option_int(plan.spec, "mip_poisson_frame")};
  };
  const ComputePipeline& build = ctx.pipeline(shader, shaders::words(shader), {static_cast<std::uint32_t>(C), 0u}, types, sizeof(MipParams));
  for (int l = 0; l < L; ++l) {
    const std::uint32_t next = static_cast<std::uint32_t>(l) + 1;
    job.dispatch(build, {Binding::sampled(image.view(), ctx.linear_sampler()), Binding::image(image.level_view(next)),
                         Binding::storage(dst), Binding::storage(table)},
                 params(image.width(next), image.height(next), l),
                 {(image.width(next) + 15) / 16, (image.height(next) + 15) / 16, 1});
  }
  const ComputePipeline& blur = ctx.pipeline(shader, shaders::words(shader), {static_cast<std::uint32_t>(C), 1u}, types, sizeof(MipParams));
  job.dispatch(blur, {Binding::sampled(image.view(), ctx.linear_sampler()), Binding::image(image.level_view(0)),
                      Binding::storage(dst), Binding::storage(table)},
               params(src.extent[0], src.extent[1], 0),
               {static_cast<std::uint32_t>((src.extent[0] + 15) / 16), static_cast<std::uint32_t>((src.extent[1] + 15) / 16), 1});
}

}  // namespace fastblur::vk
