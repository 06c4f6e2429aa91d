// fir-linear on the GPU (seeds 002, 003): the work image is padded once by the border modes
// (pad_image.comp), then convolved along x and y with the plan's weights (AxisPlan::weights) as merged tap
// pairs, one bilinear fetch each (fir_linear.comp): the x pass image to image, the y pass into the
// work buffer. 2D images.
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct LinearParams {
  std::int32_t size[2], origin[2], image[2];
  std::int32_t ntaps;
};

}  // namespace

void record_fir_linear(Job& job, const Work& src, const Work& dst, const Plan& plan, std::array<std::int64_t, 2>) {
  Context& ctx = job.context();
  const int C = src.channels;
  const std::string& shader = planned_image_shader(plan, src);
  const auto axes = active_axes(plan, src);
  if (axes.empty()) {
    copy_work(job, src, dst);
    return;
  }
  // Every fetch reads texels within r of its texel: padding by r + 1 keeps clamping away.
  std::array<std::int64_t, 2> pad{0, 0};
  for (int a : axes) pad[static_cast<std::size_t>(a)] = plan.axes[static_cast<std::size_t>(a)].radius + 1;
  const std::int64_t iw = src.extent[0] + 2 * pad[0], ih = src.extent[1] + 2 * pad[1];
  const ElementType real = plan.schedule.gpu[0].real;  // the plan's image format: float32, or float16
  Image& padded = float_image(job, C, iw, ih, 1, "fir-linear", real);
  record_pad(job, src, padded, pad, plan);
  const Image* in = &padded;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const int axis = axes[k];
    const bool last = k + 1 == axes.size();
    std::vector<float> taps;
    const AxisPlan& ax = plan.axes[static_cast<std::size_t>(axis)];
    if (!ax.weights || ax.weights->size() != static_cast<std::size_t>(2 * ax.radius + 1))
      throw InvalidArgument("internal: a fir-linear plan without its axis's weights");
    for (const auto& t : kernel::linear_sampling_centred(*ax.weights)) {  // the plan's kernel, tap pairs merged
      taps.push_back(static_cast<float>(t.offset));
      taps.push_back(static_cast<float>(t.weight));
    }
    Buffer& table = upload(job, taps.data(), taps.size() * sizeof(float));
    const Image* out = last ? in : &float_image(job, C, iw, ih, 1, "fir-linear", real);
    const ComputePipeline& p = ctx.pipeline(
        shader, shaders::words(shader),
        {static_cast<std::uint32_t>(C), static_cast<std::uint32_t>(axis), last ? 1u : 0u},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
        sizeof(LinearParams));
    const std::int64_t w = last ? src.extent[0] : iw, h = last ? src.extent[1] : ih;
    const LinearParams lp{{static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)},
                          {static_cast<std::int32_t>(pad[0]), static_cast<std::int32_t>(pad[1])},
                          {static_cast<std::int32_t>(iw), static_cast<std::int32_t>(ih)},
                          static_cast<std::int32_t>(taps.size() / 2)};
    job.dispatch(p, {Binding::sampled(in->view(), ctx.linear_sampler()), Binding::image(out->level_view(0)),
                     Binding::storage(dst), Binding::storage(table)},
                 lp, {static_cast<std::uint32_t>((w + 15) / 16), static_cast<std::uint32_t>((h + 15) / 16), 1});
    in = out;
  }
}

}  // namespace fastblur::vk
