// dual-kawase on the GPU (Bjorge 2015): the work image padded once by the border modes to
// the plan's padded size (algo::dual_kawase_padding; pad_image.comp), then down passes into images of half the size
// and up passes back (dual_kawase.comp), the last into the work buffer. The CPU implementation sums
// exactly these bilinear fetches. 2D images.
#include <string>

#include "algorithms/dual_kawase.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct DualParams {
  std::int32_t target[2], source[2], origin[2];
  float offset[2];
};

}  // namespace

void record_dual_kawase(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  const kernel::DualKawaseSchedule& s = algo::resolved_as<algo::DualKawaseResolved>(plan).schedule;
  Context& ctx = job.context();
  const int C = src.channels, L = s.levels;
  const std::string& shader = planned_image_shader(plan, src);
  const algo::DualKawasePadding px = algo::dual_kawase_padding(src.extent[0], L, s.offset[0]);
  const algo::DualKawasePadding py = algo::dual_kawase_padding(src.extent[1], L, s.offset[1]);
  std::vector<Image*> level;
  const ElementType real = plan.schedule.gpu[0].real;  // the plan's image format: float32, float16 or 8-bit normalized
  for (int l = 0; l <= L; ++l) level.push_back(&float_image(job, C, px.size >> l, py.size >> l, 1, "dual-kawase", real));
  record_pad(job, src, *level[0], {px.before, py.before}, plan);
  const std::vector<VkDescriptorType> types{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
  const auto pass = [&](std::uint32_t mode, const Image& from, const Image& to, std::int64_t w, std::int64_t h) {
    const ComputePipeline& p = ctx.pipeline(shader, shaders::words(shader),
                                            {static_cast<std::uint32_t>(C), mode}, types, sizeof(DualParams));
    const DualParams dp{{static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)},
                        {static_cast<std::int32_t>(from.width()), static_cast<std::int32_t>(from.height())},
                        {static_cast<std::int32_t>(px.before), static_cast<std::int32_t>(py.before)},
                        {static_cast<float>(s.offset[0]), static_cast<float>(s.offset[1])}};
    job.dispatch(p, {Binding::sampled(from.view(), ctx.linear_sampler()), Binding::image(to.level_view(0)),
                     Binding::storage(dst)},
                 dp, {static_cast<std::uint32_t>((w + 15) / 16), static_cast<std::uint32_t>((h + 15) / 16), 1});
  };
  for (int l = 0; l < L; ++l) {
    const Image& to = *level[static_cast<std::size_t>(l) + 1];
    pass(0, *level[static_cast<std::size_t>(l)], to, to.width(), to.height());
  }
  // Up: level l's image takes the up pass's result once its down result has been read.
  for (int l = L - 1; l >= 1; --l) {
    const Image& to = *level[static_cast<std::size_t>(l)];
    pass(1, *level[static_cast<std::size_t>(l) + 1], to, to.width(), to.height());
  }
  pass(2, *level[1], *level[0], src.extent[0], src.extent[1]);
}

}  // namespace fastblur::vk
