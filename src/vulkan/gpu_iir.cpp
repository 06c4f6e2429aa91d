// iir on the GPU: Deriche's or Young-van Vliet's recursive Gaussian along each axis, one thread per
// line (iir_line.comp), with the coefficients, padding and boundary starts of cpu/iir.cpp.
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel_iir.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

struct IirParams {
  std::int32_t extent[4];
  std::int32_t axis, border;
  float cval;
  std::int32_t pad, first_line;
};

// As cpu/iir.cpp: the padding after which the slowest pole has decayed to 1e-8.
constexpr double kPoleDecay = 1e-8;
// Without float64 the recursions run in float32, whose direct forms lose the signal as the poles
// approach 1: measured on lavapipe against the CPU's double, max error 2.4e-6 (Deriche) and
// 6.2e-6 (Young-van Vliet) of the data's range at sigma 5, 8.7e-5 and 3.5e-5 at 10, 7.5e-4 and
// 8.6e-5 at 20. Above these sigmas (errors near 1e-4) such devices refuse.
constexpr double kFloatMaxSigmaDeriche = 10.0;
constexpr double kFloatMaxSigmaYoungVanVliet = 20.0;

}  // namespace

void record_iir(Job& job, const Work& src, const Work& dst, const BlurSpec& spec) {
  Context& ctx = job.context();
  const int C = src.channels;
  const auto axes = active_axes(spec, src);
  const bool float64 = ctx.has_float64();
  const bool deriche = spec.iir_variant == IirVariant::deriche;
  for (int axis : axes) {
    const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
    if (sigma < kernel::kIirMinSigma || sigma > kernel::kIirMaxSigma)
      throw InvalidArgument(std::string("iir: sigma along ") + "xyz"[axis] + " is " + std::to_string(sigma) +
                            ": expected 0 or 0.5 to 1000 (fir takes any sigma)");
    const double limit = deriche ? kFloatMaxSigmaDeriche : kFloatMaxSigmaYoungVanVliet;
    if (!float64 && sigma > limit)
      throw Unsupported("iir at sigma " + std::to_string(sigma) + " needs float64 shaders, which Vulkan device " +
                        ctx.info().name + " lacks (float32 recursions hold up to sigma " + std::to_string(limit) +
                        "); use box, kawase or the CPU");
  }
  const std::size_t real = float64 ? sizeof(double) : sizeof(float);
  run_separable(job, src, dst, axes, [&](int axis, const Work& in, const Work& out) {
    const auto ax = static_cast<std::size_t>(axis);
    const double sigma = spec.sigma[ax];
    const std::int64_t n = src.extent[ax], lines = src.lines(axis);
    const bool constant_ends = spec.border[ax] == Border::nearest || spec.border[ax] == Border::constant;
    std::vector<double> k;
    std::int64_t pad = 0;
    if (deriche) {
      const auto c = kernel::deriche_coefficients(sigma);
      k.insert(k.end(), c.causal.begin(), c.causal.end());
      k.insert(k.end(), c.anticausal.begin(), c.anticausal.end());
      k.insert(k.end(), c.feedback.begin(), c.feedback.end());
      k.push_back(c.causal_gain);
      k.push_back(c.anticausal_gain);
      if (!constant_ends) pad = kernel::recursive_decay_length(c.pole_radius, kPoleDecay);
    } else {
      const auto c = kernel::young_van_vliet_coefficients(sigma);
      const auto m = kernel::triggs_sdika_matrix(c.feedback);
      k.push_back(c.B);
      k.insert(k.end(), c.feedback.begin(), c.feedback.end());
      for (const auto& row : m) k.insert(k.end(), row.begin(), row.end());
      if (!constant_ends) pad = kernel::recursive_decay_length(c.pole_radius, kPoleDecay);
    }
    const std::vector<float> kf(k.begin(), k.end());
    Buffer& coefficients = float64 ? upload(job, k.data(), k.size() * sizeof(double)) : upload(job, kf.data(), kf.size() * sizeof(float));
    // Deriche keeps the causal part of the outputs; Young-van Vliet the causal pass from the first
    // output to the padded line's end.
    const std::uint64_t per_line = static_cast<std::uint64_t>(deriche ? n : n + pad) * real;
    const std::int64_t batch = lines_per_batch(job, per_line, lines);
    Buffer& scratch = job.buffer(per_line * static_cast<std::uint64_t>(batch), Buffer::Kind::device);
    const ComputePipeline& p =
        ctx.pipeline(float64 ? "iir_line_f64" : "iir_line_f32", shaders::iir_line(float64),
                     {static_cast<std::uint32_t>(C), deriche ? 0u : 1u},
                     std::vector<VkDescriptorType>(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER), sizeof(IirParams));
    for (std::int64_t first = 0; first < lines; first += batch) {
      const IirParams ip{{static_cast<std::int32_t>(src.extent[0]), static_cast<std::int32_t>(src.extent[1]),
                          static_cast<std::int32_t>(src.extent[2]), static_cast<std::int32_t>(lines)},
                         axis, static_cast<std::int32_t>(spec.border[ax]), static_cast<float>(spec.cval),
                         static_cast<std::int32_t>(pad), static_cast<std::int32_t>(first)};
      const std::int64_t todo = std::min(batch, lines - first);
      job.dispatch(p, {Binding::storage(in.buffer), Binding::storage(out.buffer), Binding::storage(scratch),
                       Binding::storage(coefficients)},
                   ip, spread_groups(static_cast<std::uint64_t>((todo + 63) / 64)));
    }
  });
}

}  // namespace fastblur::vk
