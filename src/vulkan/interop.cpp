// fastblur/vulkan.hpp: blurs of the caller's buffers and images on the caller's device, read and
// written in place by the first and last passes' conversions, no host memory involved.
#include "fastblur/vulkan.hpp"

#include <algorithm>
#include <string>

#include "device_access.hpp"
#include "fastblur/error.hpp"
#include "plan/planner.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/interop_timed.hpp"
#include "vulkan/job.hpp"
#include "vulkan/missing_passes.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/stopwatch.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vulkan {
namespace {

std::shared_ptr<vk::Context> context_of(const Device& device) {
  if (device.is_cpu()) throw InvalidArgument("fastblur::vulkan needs a Vulkan device (fastblur::vulkan::adopt)");
  return DeviceAccess::context(device);
}

void check_owner(const vk::Context& ctx, std::uint32_t owner, const char* what) {
  if (owner == VK_QUEUE_FAMILY_IGNORED || owner == VK_QUEUE_FAMILY_EXTERNAL) return;  // external: another API's (CUDA)
  std::uint32_t n = 0;
  vk::vkGetPhysicalDeviceQueueFamilyProperties(ctx.physical(), &n, nullptr);
  if (owner >= n)
    throw InvalidArgument(std::string(what) + ": owner_family " + std::to_string(owner) + " is not a queue family of the device (it has " +
                          std::to_string(n) + ")");
}

// Everything but the buffer handle itself (planning reads none).
void check(const BufferImage& b, const char* what) {
  if (b.width < 1 || b.height < 1 || b.depth < 1 || b.channels < 1 || b.channels > 4)
    throw InvalidArgument(std::string(what) + ": extents must be >= 1 and channels 1 to 4");
  if (b.type != ElementType::u8 && b.type != ElementType::u16 && b.type != ElementType::f16 && b.type != ElementType::f32)
    throw InvalidArgument(std::string(what) + ": " + std::string(to_string(b.type)) +
                          " buffers are not supported on the device (u8, u16, f16, f32)");
  if (b.offset % element_size(b.type) != 0)
    throw InvalidArgument(std::string(what) + ": the offset is not a multiple of the element size");
}

// Between the caller's packed image and a float work image, through convert.comp. The caller's
// bytes are bound exactly where the image starts on the device's storage-buffer alignment and ends
// on a 32-bit word; otherwise they travel through a staging buffer of the job by byte-exact copies.
// Either way nothing of the caller's buffer outside [offset, offset + bytes) is read or written (a
// binding from a rounded-down offset to a rounded-up end would pass the buffer's end, and rewrite
// neighbouring bytes another queue may be writing).
void convert_caller(vk::Job& job, const BufferImage& b, VkBuffer floats, std::uint64_t count, bool pack) {
  const vk::Context& ctx = job.context();
  const VkDeviceSize align = std::max<VkDeviceSize>(4, ctx.limits().minStorageBufferOffsetAlignment);
  const std::uint64_t bytes = count * element_size(b.type);
  if (b.offset % align == 0 && bytes % 4 == 0) {
    vk::record_convert(job, b.buffer, b.offset, floats, count, 0, b.type, pack);
    return;
  }
  const VkDeviceSize lead = b.offset % 4;  // the image keeps its place within a word
  vk::Buffer& staging = job.buffer((lead + bytes + 3) / 4 * 4, vk::Buffer::Kind::device);
  if (!pack) job.copy(b.buffer, staging.handle(), bytes, b.offset, lead);
  vk::record_convert(job, staging.handle(), 0, floats, count, lead / element_size(b.type), b.type, pack);
  if (pack) job.copy(staging.handle(), b.buffer, bytes, lead, b.offset);
}

vk::Work shape_of(const BufferImage& b) {
  vk::Work w;
  w.extent = {b.width, b.height, b.depth};
  w.channels = b.channels;
  return w;
}

void check_buffers(const vk::Context& ctx, const BufferImage& src, const BufferImage& dst) {
  check(src, "source");
  check(dst, "destination");
  if (src.width != dst.width || src.height != dst.height || src.depth != dst.depth || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape");
  check_owner(ctx, src.owner_family, "source");
  check_owner(ctx, dst.owner_family, "destination");
}

// Whether the passes can read src and write dst where they lie (GpuIo::direct): float32 packed
// images on the device's storage-buffer alignment whose bytes do not overlap (a pass must not write
// what a later thread still reads).
bool bindable(const vk::Context& ctx, const BufferImage& src, const BufferImage& dst) {
  if (src.type != ElementType::f32 || dst.type != ElementType::f32) return false;
  const VkDeviceSize align = std::max<VkDeviceSize>(4, ctx.limits().minStorageBufferOffsetAlignment);
  if (src.offset % align != 0 || dst.offset % align != 0) return false;
  if (src.buffer != dst.buffer) return true;
  const std::uint64_t bytes = shape_of(src).bytes();
  return src.offset + bytes <= dst.offset || dst.offset + bytes <= src.offset;
}

algo::Shape planner_shape(const vk::Context& ctx, const BufferImage& src, const BufferImage& dst, CudaHandoff handoff) {
  algo::Shape shape = vk::shape_on(ctx, {src.width, src.height, src.depth}, src.channels, src.type, dst.type);
  shape.caller_buffers_bindable = bindable(ctx, src, dst);
  shape.cuda_handoff = handoff;
  return shape;
}

Plan plan_buffers(const vk::Context& ctx, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec,
                  CudaHandoff handoff = CudaHandoff::none) {
  check_buffers(ctx, src, dst);
  return planner::plan_for(spec, planner_shape(ctx, src, dst, handoff), planner::Prediction::to_run);
}

// `stamps`: device timestamps around the conversions and the algorithm (run_buffers' timing).
void record_buffers(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& plan, bool stamps = false) {
  vk::Context& ctx = job.context();
  if (!src.buffer) throw InvalidArgument("source: the buffer is null");
  if (!dst.buffer) throw InvalidArgument("destination: the buffer is null");
  check_buffers(ctx, src, dst);
  // The plan may come from another device (or none): this one must run it as it stands.
  if (plan.schedule.backend != Backend::vulkan) throw InvalidArgument("this plan is for the CPU, not a Vulkan device");
  algo::descriptor(plan.algorithm).check(plan.spec, planner_shape(ctx, src, dst, plan.schedule.cuda_handoff));
  const bool direct = plan.schedule.gpu_io == GpuIo::direct;
  if (direct && !bindable(ctx, src, dst))
    throw InvalidArgument("this plan reads and writes the caller's buffers directly, which these buffers do not allow "
                          "(float32 on both sides, on the device's storage-buffer alignment, not overlapping)");
  const vk::Work shape = shape_of(src);
  if (static_cast<double>(shape.bytes()) > static_cast<double>(ctx.piece_limit()))
    throw Unsupported("the image exceeds what " + ctx.info().name + " blurs in one piece (" +
                      std::to_string(ctx.piece_limit()) + " bytes as float32)");
  const std::uint64_t count = static_cast<std::uint64_t>(shape.pixels() * shape.channels);
  // Direct: the caller's images are the work images; else work buffers of the job between conversions.
  const auto work_at = [&](const BufferImage& b) {
    vk::Work w = shape;
    w.buffer = b.buffer;
    w.offset = b.offset;
    return w;
  };
  const vk::Work in = direct ? work_at(src) : vk::work_like(job, shape);
  const vk::Work out = direct ? work_at(dst) : vk::work_like(job, shape);
  const auto stamp = [&](const char* label) { if (stamps) job.timestamp(label); };
  stamp("begin");
  job.barrier_from_outside();
  job.acquire(src.buffer, src.owner_family);
  if (dst.buffer != src.buffer) job.acquire(dst.buffer, dst.owner_family);
  stamp("start");
  if (!direct) convert_caller(job, src, in.buffer, count, false);
  stamp("converted in");
  vk::record_algorithm(job, in, out, plan);
  stamp("blurred");
  if (!direct) convert_caller(job, dst, out.buffer, count, true);
  stamp("converted out");
  job.barrier_to_outside();
  if (dst.buffer != src.buffer) job.release(src.buffer, src.owner_family);
  job.release(dst.buffer, dst.owner_family);
  stamp("end");
}

// The channels of a missing-data call's work image (the plan's, chosen here once): the colours and
// their weight where the colours share it (alpha, or a mask of one channel; NaN omission is per
// channel) and fit one image (4 channels at most): one blur; else a channel and its weight, a blur
// a channel.
int missing_work_channels(const BufferImage& src, const BufferWeights& w) {
  const int colours = w.alpha ? src.channels - 1 : src.channels;
  const bool shared = !w.omit_nan && (w.alpha || (w.mask && w.mask->channels == 1));
  return shared && colours + 1 <= 4 ? colours + 1 : 2;
}

// Missing data: the colours packed with their weight (all at once where they share it, else a
// channel at a time), blurred, divided back (vulkan/missing_passes.hpp), between the conversions of
// record_buffers.
void record_missing(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& pairs_plan,
                    const BufferWeights& weights) {
  vk::Context& ctx = job.context();
  if (!src.buffer) throw InvalidArgument("source: the buffer is null");
  if (!dst.buffer) throw InvalidArgument("destination: the buffer is null");
  check_buffers(ctx, src, dst);
  if (pairs_plan.schedule.backend != Backend::vulkan || pairs_plan.channels != missing_work_channels(src, weights) ||
      pairs_plan.extent != std::array<std::int64_t, 3>{src.width, src.height, src.depth})
    throw InvalidArgument("internal: the missing-data plan is made for the work image of these buffers");
  const vk::Work image = shape_of(src);
  vk::Work pair_shape = image;
  pair_shape.channels = pairs_plan.channels;
  if (static_cast<double>(pair_shape.bytes()) > static_cast<double>(ctx.piece_limit()))
    throw Unsupported("the image exceeds what " + ctx.info().name + " blurs in one piece (" +
                      std::to_string(ctx.piece_limit()) + " bytes as float32)");
  const std::uint64_t count = static_cast<std::uint64_t>(image.pixels() * image.channels);
  const vk::Work in = vk::work_like(job, image), out = vk::work_like(job, image);
  const vk::Work pairs = vk::work_like(job, pair_shape), blurred = vk::work_like(job, pair_shape);
  // The CPU's float32 rule: a pixel whose weight under the kernel is at most 4 float epsilons is empty.
  constexpr float kFloorWeight = 4.0f * 1.1920929e-7f;
  job.timestamp("begin");
  job.barrier_from_outside();
  job.acquire(src.buffer, src.owner_family);
  if (dst.buffer != src.buffer) job.acquire(dst.buffer, dst.owner_family);
  job.timestamp("start");
  convert_caller(job, src, in.buffer, count, false);
  vk::PackWeights pack;
  pack.omit_nan = weights.omit_nan;
  vk::Work mask;
  if (weights.mask) {
    if (weights.mask->width != src.width || weights.mask->height != src.height || weights.mask->depth != src.depth)
      throw InvalidArgument("internal: the mask's buffer image has another shape than the source's");
    mask = vk::work_like(job, shape_of(*weights.mask));
    convert_caller(job, *weights.mask, mask.buffer, static_cast<std::uint64_t>(mask.pixels() * mask.channels), false);
    pack.mask = &mask;
    pack.mask_flags = weights.mask->type == ElementType::u8;  // bytes: flags; f16 / f32: weights
  }
  vk::DivideRule divide;
  divide.preserve_nan = weights.preserve_nan;
  divide.floor_weight = kFloorWeight;
  divide.empty = weights.alpha ? 0.0f : weights.empty;  // an alpha blur's empty pixel is transparent
  const int colours = weights.alpha ? image.channels - 1 : image.channels;
  if (weights.alpha) {
    const float scale = weights.alpha_scale;
    pack.weight_channel = image.channels - 1;
    pack.weight_scale = 1.0f / scale;
    divide.alpha_scale = scale;
  }
  job.timestamp("converted in");
  const int group = pairs_plan.channels - 1;  // colours a blur carries
  for (int c = 0; c < colours; c += group) {
    vk::record_missing_pack(job, in, pairs, c, pack);
    vk::record_algorithm(job, pairs, blurred, pairs_plan);
    if (weights.alpha && c + group == colours) divide.alpha_channel = image.channels - 1;  // alpha: the weight blurred
    vk::record_missing_divide(job, blurred, in, out, c, divide);
  }
  job.timestamp("blurred");
  convert_caller(job, dst, out.buffer, count, true);
  job.timestamp("converted out");
  job.barrier_to_outside();
  if (dst.buffer != src.buffer) job.release(src.buffer, src.owner_family);
  job.release(dst.buffer, dst.owner_family);
  job.timestamp("end");
}

// The slice of a stack at z = k, as a buffer image of its own.
BufferImage slice_of(const BufferImage& b, std::int64_t k) {
  BufferImage s = b;
  s.depth = 1;
  s.offset = b.offset + static_cast<std::uint64_t>(k * b.width * b.height * b.channels) * element_size(b.type);
  return s;
}

bool slices_bindable(const vk::Context& ctx, const BufferImage& src, const BufferImage& dst) {
  if (!bindable(ctx, src, dst)) return false;
  const VkDeviceSize align = std::max<VkDeviceSize>(4, ctx.limits().minStorageBufferOffsetAlignment);
  return static_cast<std::uint64_t>(src.width * src.height * src.channels) * sizeof(float) % align == 0;
}

void record_slices(vk::Job& job, const BufferImage& src, const BufferImage& dst, const SlicedPlan& plan, bool stamps) {
  vk::Context& ctx = job.context();
  if (!src.buffer || !dst.buffer) throw InvalidArgument("a buffer is null");
  check_buffers(ctx, src, dst);
  if (plan.slices.size() != static_cast<std::size_t>(src.depth)) throw InvalidArgument("a sliced plan of another depth");
  const bool direct = plan.gpu_io == GpuIo::direct;
  if (direct && !slices_bindable(ctx, src, dst))
    throw InvalidArgument("this plan reads and writes the caller's buffers directly, which these buffers do not allow");
  const auto stamp = [&](const char* label) { if (stamps) job.timestamp(label); };
  const auto work_at = [&](const BufferImage& b, bool converted) {
    vk::Work w = shape_of(b);
    if (!converted) w.buffer = b.buffer, w.offset = b.offset;
    return converted ? vk::work_like(job, w) : w;
  };
  const auto count = [](const BufferImage& b) { return static_cast<std::uint64_t>(b.width * b.height * b.depth * b.channels); };
  stamp("begin");
  job.barrier_from_outside();
  job.acquire(src.buffer, src.owner_family);
  if (dst.buffer != src.buffer) job.acquire(dst.buffer, dst.owner_family);
  stamp("start");
  if (plan.stacked) {
    const vk::Work in = work_at(src, !direct), out = work_at(dst, !direct);
    if (!direct) convert_caller(job, src, in.buffer, count(src), false);
    stamp("converted in");
    vk::record_fir_slices(job, in, out, plan);
    stamp("blurred");
    if (!direct) convert_caller(job, dst, out.buffer, count(dst), true);
  } else {
    stamp("converted in");
    for (std::size_t k = 0; k < plan.slices.size(); ++k) {
      const BufferImage s = slice_of(src, static_cast<std::int64_t>(k)), d = slice_of(dst, static_cast<std::int64_t>(k));
      const vk::Work in = work_at(s, !direct), out = work_at(d, !direct);
      if (!direct) convert_caller(job, s, in.buffer, count(s), false);
      vk::record_algorithm(job, in, out, plan.slices[k]);
      if (!direct) convert_caller(job, d, out.buffer, count(d), true);
    }
    stamp("blurred");
  }
  stamp("converted out");
  job.barrier_to_outside();
  if (dst.buffer != src.buffer) job.release(src.buffer, src.owner_family);
  job.release(dst.buffer, dst.owner_family);
  stamp("end");
}

const char* write_format(VkFormat f) {
  switch (f) {
    case VK_FORMAT_R8G8B8A8_UNORM: return "rgba8";
    case VK_FORMAT_R16G16B16A16_SFLOAT: return "rgba16f";
    case VK_FORMAT_R32G32B32A32_SFLOAT: return "rgba32f";
    case VK_FORMAT_R32_SFLOAT: return "r32f";
    default: return nullptr;
  }
}

struct SizeParams {
  std::int32_t size[2];
};

void record_images(vk::Job& job, const ImageRef& src, const ImageRef& dst, const BlurSpec& spec) {
  if (!src.image || !dst.image) throw InvalidArgument("an image is null");
  if (src.width != dst.width || src.height != dst.height || src.width == 0 || src.height == 0)
    throw InvalidArgument("source and destination differ in size, or are empty");
  if (src.channels != dst.channels || src.channels < 1 || src.channels > 4)
    throw InvalidArgument("source and destination must blur the same 1 to 4 channels");
  if (src.layout == VK_IMAGE_LAYOUT_UNDEFINED) throw InvalidArgument("the source image's layout is UNDEFINED: nothing to read");
  const char* format = write_format(dst.format);
  if (!format)
    throw Unsupported("the destination's format (VkFormat " + std::to_string(static_cast<int>(dst.format)) +
                      ") is not one fastblur writes: R8G8B8A8_UNORM, R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT or R32_SFLOAT");
  if (dst.format == VK_FORMAT_R32_SFLOAT && dst.channels != 1)
    throw InvalidArgument("an R32_SFLOAT destination holds one channel");
  vk::Context& ctx = job.context();
  check_owner(ctx, src.owner_family, "source");
  check_owner(ctx, dst.owner_family, "destination");
  vk::Work shape;
  shape.extent = {src.width, src.height, 1};
  shape.channels = src.channels;
  const Plan plan = planner::plan_for(
      spec, vk::shape_on(ctx, shape.extent, shape.channels, ElementType::f32, ElementType::f32),
      planner::Prediction::to_run);
  if (static_cast<double>(shape.bytes()) > static_cast<double>(ctx.piece_limit()))
    throw Unsupported("the image exceeds what " + ctx.info().name + " blurs in one piece");
  const vk::Work in = vk::work_like(job, shape), out = vk::work_like(job, shape);
  const VkImageView src_view = job.view_of(src.image, src.format);
  const VkImageView dst_view = job.view_of(dst.image, dst.format);
  const std::array<std::uint32_t, 3> groups{(src.width + 15) / 16, (src.height + 15) / 16, 1};
  const SizeParams sp{{static_cast<std::int32_t>(src.width), static_cast<std::int32_t>(src.height)}};
  const VkImageLayout dst_final = dst.layout == VK_IMAGE_LAYOUT_UNDEFINED ? VK_IMAGE_LAYOUT_GENERAL : dst.layout;
  job.barrier_from_outside();
  job.acquire(src.image, src.layout, src.owner_family);
  if (dst.image != src.image && dst.layout != VK_IMAGE_LAYOUT_UNDEFINED) job.acquire(dst.image, dst.layout, dst.owner_family);
  job.transition(src.image, src.layout, VK_IMAGE_LAYOUT_GENERAL);
  const vk::ComputePipeline& read = ctx.pipeline(
      "image_to_work", vk::shaders::words("image_to_work"), {static_cast<std::uint32_t>(src.channels)},
      {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(SizeParams));
  job.dispatch(read, {vk::Binding::sampled(src_view, ctx.linear_sampler()), vk::Binding::storage(in.buffer)}, sp, groups);
  if (src.image != dst.image) job.transition(src.image, VK_IMAGE_LAYOUT_GENERAL, src.layout);
  vk::record_algorithm(job, in, out, plan);
  if (src.image != dst.image) job.transition(dst.image, dst.layout, VK_IMAGE_LAYOUT_GENERAL);
  const vk::ComputePipeline& write = ctx.pipeline(
      std::string("work_to_image_") + format, vk::shaders::words(std::string("work_to_image_") + format), {static_cast<std::uint32_t>(dst.channels)},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, sizeof(SizeParams));
  job.dispatch(write, {vk::Binding::storage(out.buffer), vk::Binding::image(dst_view)}, sp, groups);
  job.transition(dst.image, VK_IMAGE_LAYOUT_GENERAL, dst_final);
  job.barrier_to_outside();
  if (dst.image != src.image) job.release(src.image, src.layout, src.owner_family);
  job.release(dst.image, dst_final, dst.owner_family);
}

}  // namespace

Device adopt(VkPhysicalDevice physical, VkDevice device, VkQueue queue, std::uint32_t queue_family, bool float64_enabled) {
  return DeviceAccess::make(std::make_shared<vk::Context>(physical, device, queue, queue_family, float64_enabled));
}

Plan plan(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec) {
  return plan_buffers(*context_of(device), src, dst, spec);
}

Plan plan(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec, CudaHandoff handoff) {
  return plan_buffers(*context_of(device), src, dst, spec, handoff);
}

void blur(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec) {
  blur(device, src, dst, plan(device, src, dst, spec));
}

void blur(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan) {
  run_buffers(device, src, dst, plan, nullptr);
}

void run_buffers(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan,
                 BufferBlurTiming* timing) {
  auto t = vk::Clock::now();
  vk::Job job(context_of(device));
  record_buffers(job, src, dst, plan, timing != nullptr);
  if (!timing) {
    job.run();
    return;
  }
  timing->record_ms = vk::ms_since(t);
  t = vk::Clock::now();
  job.run();
  timing->run_ms = vk::ms_since(t);
  device_timing(job, *timing);
}

void record_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& plan) {
  record_buffers(job, src, dst, plan, true);
}

Plan plan_missing(const Device& device, const BufferImage& src, const BlurSpec& spec, CudaHandoff handoff,
                  const BufferWeights& weights) {
  BufferImage pairs = src;
  pairs.channels = missing_work_channels(src, weights);
  pairs.type = ElementType::f32;
  pairs.offset = 0;
  BlurSpec s = spec;
  s.rounding = Rounding::nearest;  // SciPy's bits are not defined for it (the CPU's rule)
  s.cval = 0.0;                    // a constant border's outside: missing (cval NaN; a present cval is refused)
  return plan_buffers(*context_of(device), pairs, pairs, s, handoff);
}

void record_missing_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const Plan& pairs_plan,
                          const BufferWeights& weights) {
  record_missing(job, src, dst, pairs_plan, weights);
}

SlicedPlan plan_slices(const Device& device, const BufferImage& src, const BufferImage& dst,
                       const std::vector<BlurSpec>& specs, CudaHandoff handoff) {
  const vk::Context& ctx = *context_of(device);
  check_buffers(ctx, src, dst);
  algo::Shape shape = planner_shape(ctx, src, dst, handoff);
  shape.caller_buffers_bindable = slices_bindable(ctx, src, dst);
  return planner::plan_slices(specs, shape);
}

void record_slices_timed(vk::Job& job, const BufferImage& src, const BufferImage& dst, const SlicedPlan& plan) {
  record_slices(job, src, dst, plan, true);
}

void device_timing(const vk::Job& job, BufferBlurTiming& timing) {
  const auto stamps = job.timestamps();  // record_buffers' labels, in order
  const auto at = [&](const char* label) {
    for (const auto& [name, ms] : stamps)
      if (name == label) return ms;
    return 0.0;
  };
  timing.device_ms = at("end") - at("begin");
  timing.convert_in_ms = at("converted in") - at("start");
  timing.algorithm_ms = at("blurred") - at("converted in");
  timing.convert_out_ms = at("converted out") - at("blurred");
}

void blur(const Device& device, const ImageRef& src, const ImageRef& dst, const BlurSpec& spec) {
  vk::Job job(context_of(device));
  record_images(job, src, dst, spec);
  job.run();
}

struct Recording::Impl {
  Impl(std::shared_ptr<vk::Context> context, VkCommandBuffer commands) : job(std::move(context), commands) {}
  vk::Job job;
};

Recording::Recording(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Recording::Recording(Recording&&) noexcept = default;
Recording& Recording::operator=(Recording&&) noexcept = default;
Recording::~Recording() = default;

Recording record(const Device& device, VkCommandBuffer commands, const BufferImage& src, const BufferImage& dst,
                 const BlurSpec& spec) {
  auto impl = std::make_unique<Recording::Impl>(context_of(device), commands);
  record_buffers(impl->job, src, dst, plan_buffers(impl->job.context(), src, dst, spec));
  return Recording(std::move(impl));
}

Recording record(const Device& device, VkCommandBuffer commands, const ImageRef& src, const ImageRef& dst,
                 const BlurSpec& spec) {
  auto impl = std::make_unique<Recording::Impl>(context_of(device), commands);
  record_images(impl->job, src, dst, spec);
  return Recording(std::move(impl));
}

}  // namespace fastblur::vulkan
