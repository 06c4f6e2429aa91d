#include "vulkan/work.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "fastblur/error.hpp"
#include "fastblur/plan.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/image.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"

namespace fastblur::vk {

Work work_like(Job& job, const Work& like) {
  Work w = like;
  w.buffer = job.buffer(like.bytes(), Buffer::Kind::device).handle();
  w.offset = 0;
  return w;
}

Buffer& upload(Job& job, const void* data, std::uint64_t bytes) {
  // In device memory: every thread of a pass reads these, and a host-visible buffer is, on a
  // discrete GPU, system memory across the bus (on an H100 it made every pass 10x slower).
  const std::uint64_t words = (std::max<std::uint64_t>(bytes, 16) + 3) / 4 * 4;
  Buffer& b = job.buffer(words, Buffer::Kind::device);
  if (words <= 65536) {  // small tables travel inside the command buffer
    std::vector<std::byte> padded(words);
    std::memcpy(padded.data(), data, bytes);
    job.update(b.handle(), padded.data(), words);
    return b;
  }
  Buffer& staging = job.buffer(words, Buffer::Kind::upload);
  std::memcpy(staging.data(), data, bytes);
  staging.flush();
  job.copy(staging.handle(), b.handle(), words);
  return b;
}

Binding Binding::storage(const Work& w) { return storage(w.buffer, w.offset, w.bytes()); }

void copy_work(Job& job, const Work& src, const Work& dst) { job.copy(src.buffer, dst.buffer, src.bytes(), src.offset, dst.offset); }

std::vector<int> active_axes(const Plan& plan, const Work& w) {
  std::vector<int> axes;
  for (int a = 0; a < 3; ++a) {
    const auto i = static_cast<std::size_t>(a);
    if (plan.axes[i].sigma > kSigmaCutoff && (w.extent[i] > 1 || plan.axes[i].border == Border::constant)) axes.push_back(a);
  }
  return axes;
}

void run_separable(Job& job, const Work& src, const Work& dst, const std::vector<int>& axes,
                   const std::function<void(int, const Work&, const Work&)>& pass) {
  if (axes.empty()) {
    copy_work(job, src, dst);
    return;
  }
  const std::size_t n = axes.size();
  const Work temp = n > 1 ? work_like(job, src) : Work{};
  const Work* in = &src;
  for (std::size_t k = 0; k < n; ++k) {
    const Work& out = (n - 1 - k) % 2 == 0 ? dst : temp;
    pass(axes[k], *in, out);
    in = &out;
  }
}


namespace {
int per_word(ElementType t) { return t == ElementType::u8 ? 4 : (t == ElementType::u16 || t == ElementType::f16) ? 2 : 1; }
int convert_type(ElementType t) {  // convert.comp's TYPE
  switch (t) {
    case ElementType::f16: return 1;
    case ElementType::u8: return 2;
    case ElementType::u16: return 3;
    default: return 0;
  }
}
struct ConvertParams {
  std::uint32_t count, first, word_base;
};
}  // namespace


void record_convert(Job& job, VkBuffer words, VkDeviceSize offset, VkBuffer floats, std::uint64_t count,
                    std::uint64_t first, ElementType type, bool pack) {
  if (wire_type(type) != type) throw InvalidArgument("internal: " + std::string(to_string(type)) + " does not travel to the device");
  if (first + count > 0xffffffffull) throw Unsupported("an image of more than 2^32 values on the Vulkan backend");
  const ComputePipeline& p = job.context().pipeline(
      "convert", shaders::words("convert"), {static_cast<std::uint32_t>(convert_type(type)), pack ? 1u : 0u},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(ConvertParams));
  const std::uint64_t k = static_cast<std::uint64_t>(per_word(type));
  const std::uint64_t word_count = (first + count + k - 1) / k;
  const ConvertParams cp{static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(first), 0};
  job.dispatch(p, {Binding::storage(words, offset, word_count * 4), Binding::storage(floats)}, cp,
               spread_groups((word_count + 255) / 256));
}

namespace {
// The image shaders' variant of each image format (image_format.glsl): float16 "_half", 8-bit
// normalized "_unorm8", float32 none.
const char* format_suffix(ElementType real) {
  return real == ElementType::f16 ? "_half" : real == ElementType::u8 ? "_unorm8" : "";
}
const char* format_suffix(VkFormat format) {
  return format == VK_FORMAT_R16G16B16A16_SFLOAT ? "_half" : format == VK_FORMAT_R8G8B8A8_UNORM ? "_unorm8" : "";
}
}  // namespace

const std::string& planned_image_shader(const Plan& plan, const Work& image) {
  const std::string& s = plan.schedule.gpu[0].shader;
  const std::string suffix =
      "_c" + std::to_string(stored_channels(image.channels)) + format_suffix(plan.schedule.gpu[0].real);
  if (s.size() <= suffix.size() || s.compare(s.size() - suffix.size(), suffix.size(), suffix) != 0)
    throw InvalidArgument("internal: the plan names no image pass for " + std::to_string(image.channels) +
                          " channels (GpuPass::shader '" + s + "')");
  return s;
}

namespace {
struct PadParams {
  std::int32_t size[2], origin[2], image[2];
  std::int32_t border_x, border_y;
  float cval;
};
}  // namespace

void record_pad(Job& job, const Work& src, const Image& image, std::array<std::int64_t, 2> origin,
                const Plan& plan, std::uint32_t level) {
  // The variant that stores the image's format (float16: "_half", 8-bit normalized: "_unorm8").
  const std::string shader = "pad_image_c" + std::to_string(stored_channels(src.channels)) + format_suffix(image.format());
  const ComputePipeline& p = job.context().pipeline(
      shader, shaders::words(shader), {static_cast<std::uint32_t>(src.channels)},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, sizeof(PadParams));
  const PadParams pp{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1])},
                     {static_cast<std::int32_t>(origin[0]), static_cast<std::int32_t>(origin[1])},
                     {static_cast<std::int32_t>(image.width(level)), static_cast<std::int32_t>(image.height(level))},
                     static_cast<std::int32_t>(plan.spec.border[0]), static_cast<std::int32_t>(plan.spec.border[1]),
                     static_cast<float>(plan.spec.cval)};
  job.dispatch(p, {Binding::storage(src), Binding::image(image.level_view(level))}, pp,
               {(image.width(level) + 15) / 16, (image.height(level) + 15) / 16, 1});
}

Image& float_image(Job& job, int channels, std::int64_t width, std::int64_t height, std::uint32_t levels,
                   const char* algorithm, ElementType real) {
  if ((real == ElementType::f16 || real == ElementType::u8) && stored_channels(channels) != 4)
    throw InvalidArgument("internal: float16 and 8-bit normalized images hold four channels");
  const VkFormat format = real == ElementType::f16  ? VK_FORMAT_R16G16B16A16_SFLOAT
                          : real == ElementType::u8 ? VK_FORMAT_R8G8B8A8_UNORM
                                                    : float_format(channels);
  Context& ctx = job.context();
  if (!ctx.can_filter_linear(format) || !ctx.can_store(format))
    throw Unsupported(std::string(algorithm) + ": Vulkan device " + ctx.info().name +
                      " cannot filter these float images linearly and store to them (" +
                      std::to_string(stored_channels(channels)) + " channels)");
  const std::int64_t limit = ctx.limits().maxImageDimension2D;
  if (width > limit || height > limit)
    throw Unsupported(std::string(algorithm) + " needs a " + std::to_string(width) + "x" + std::to_string(height) +
                      " image, beyond " + ctx.info().name + "'s limit of " + std::to_string(limit));
  return job.image(format, static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), levels);
}

namespace {

constexpr std::pair<Algorithm, Recorder> kRecorders[] = {
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) {Algorithm::id, record_##vulkan},
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM
};

}  // namespace

Recorder recorder(Algorithm algorithm) noexcept {
  for (const auto& [id, record] : kRecorders)
    if (id == algorithm) return record == record_none ? nullptr : record;
  return nullptr;
}

void record_none(Job&, const Work&, const Work&, const Plan& plan, std::array<std::int64_t, 2>) {
  throw Unsupported("algorithm " + std::string(to_string(plan.algorithm)) + " is not available on the Vulkan backend");
}

void record_algorithm(Job& job, const Work& src, const Work& dst, const Plan& plan,
                      std::array<std::int64_t, 2> noise_origin) {
  if (!(plan.spec.sigma[0] > kSigmaCutoff || plan.spec.sigma[1] > kSigmaCutoff || plan.spec.sigma[2] > kSigmaCutoff)) {
    copy_work(job, src, dst);  // nothing to blur
    return;
  }
  const Recorder record = recorder(plan.algorithm);
  if (!record)
    throw Unsupported("algorithm " + std::string(to_string(plan.algorithm)) + " is not available on the Vulkan backend");
  record(job, src, dst, plan, noise_origin);
}

algo::Shape shape_on(const Context& context, std::array<std::int64_t, 3> extent, int channels, ElementType source,
                           ElementType destination) {
  algo::Shape s;
  s.extent = extent;
  s.channels = channels;
  s.source = source;
  s.destination = destination;
  s.backend = Backend::vulkan;
  s.software_device = context.info().type == "cpu";
  s.device_float64 = context.has_float64();
  s.piece_bytes = context.piece_limit();
  s.max_image_2d = context.limits().maxImageDimension2D;
  s.shared_memory_bytes = context.limits().maxComputeSharedMemorySize;
  s.profile = context.profile();
  return s;
}

std::int64_t planned_batch(const Context& ctx, const GpuPass& pass, std::uint64_t per_unit) {
  const std::uint64_t budget = algo::scratch_budget(ctx.piece_limit());
  if (pass.batch < 1) throw InvalidArgument("internal: the plan's " + pass.shader + " pass has no batch");
  if (static_cast<double>(pass.batch) * static_cast<double>(per_unit) > static_cast<double>(budget))
    throw Unsupported("this plan's " + pass.shader + " batches of " + std::to_string(pass.batch) + " need more scratch than " +
                      ctx.info().name + "'s budget: plan for this device");
  return pass.batch;
}

}  // namespace fastblur::vk
