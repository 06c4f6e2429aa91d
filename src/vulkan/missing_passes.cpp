#include "vulkan/missing_passes.hpp"

#include <cstdint>
#include <string>

#include "fastblur/error.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"

namespace fastblur::vk {
namespace {

struct PackParams {
  std::uint32_t pixels, channels, channel, group, omit_nan;
  std::int32_t weight_channel;
  float weight_scale;
  std::uint32_t mask_kind, mask_channels;
};
struct DivideParams {
  std::uint32_t pixels, channels, channel, group, preserve_nan;
  float floor_weight, empty;
  std::int32_t alpha_channel;
  float alpha_scale;
};

// The pass `name`: three storage buffers and its parameters.
const ComputePipeline& three_buffer_pass(Job& job, const char* name, std::uint32_t params) {
  return job.context().pipeline(
      name, shaders::words(name), {},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, params);
}

std::uint32_t pixels_of(const Work& w) {
  if (static_cast<std::uint64_t>(w.pixels()) * static_cast<std::uint64_t>(w.channels) > 0xffffffffull)
    throw Unsupported("an image of more than 2^32 values on the Vulkan backend");
  return static_cast<std::uint32_t>(w.pixels());
}

}  // namespace

void record_missing_pack(Job& job, const Work& image, const Work& work, int channel, const PackWeights& weights) {
  const int group = work.channels - 1;
  if (group < 1 || work.pixels() != image.pixels() || channel < 0 || channel + group > image.channels ||
      weights.weight_channel >= image.channels)
    throw InvalidArgument("internal: missing_pack takes channels of an image into a work image of its extents");
  const Work* mask = weights.mask;
  if (mask && (mask->pixels() != image.pixels() || (mask->channels != 1 && mask->channels != image.channels)))
    throw InvalidArgument("internal: missing_pack's mask has another shape than its image");
  if (group > 1 && (weights.omit_nan || (mask && mask->channels != 1)))
    throw InvalidArgument("internal: missing_pack groups channels only where they share their weight");
  const ComputePipeline& p = three_buffer_pass(job, "missing_pack", sizeof(PackParams));
  const std::uint32_t n = pixels_of(image);
  const PackParams pp{n,
                      static_cast<std::uint32_t>(image.channels),
                      static_cast<std::uint32_t>(channel),
                      static_cast<std::uint32_t>(group),
                      weights.omit_nan ? 1u : 0u,
                      weights.weight_channel,
                      weights.weight_scale,
                      !mask ? 0u : weights.mask_flags ? 1u : 2u,
                      mask ? static_cast<std::uint32_t>(mask->channels) : 1u};
  job.dispatch(p, {Binding::storage(image), Binding::storage(work), Binding::storage(mask ? *mask : image)}, pp,
               spread_groups((n + 255) / 256));
}

void record_missing_divide(Job& job, const Work& work, const Work& source, const Work& out, int channel,
                           const DivideRule& rule) {
  const int group = work.channels - 1;
  if (group < 1 || work.pixels() != out.pixels() || source.pixels() != out.pixels() || source.channels != out.channels ||
      channel < 0 || channel + group > out.channels || rule.alpha_channel >= out.channels)
    throw InvalidArgument("internal: missing_divide takes a work image back into channels of an image of its extents");
  const ComputePipeline& p = three_buffer_pass(job, "missing_divide", sizeof(DivideParams));
  const std::uint32_t n = pixels_of(out);
  const DivideParams dp{n,
                        static_cast<std::uint32_t>(out.channels),
                        static_cast<std::uint32_t>(channel),
                        static_cast<std::uint32_t>(group),
                        rule.preserve_nan ? 1u : 0u,
                        rule.floor_weight,
                        rule.empty,
                        rule.alpha_channel,
                        rule.alpha_scale};
  job.dispatch(p, {Binding::storage(work), Binding::storage(source), Binding::storage(out)}, dp,
               spread_groups((n + 255) / 256));
}

}  // namespace fastblur::vk
