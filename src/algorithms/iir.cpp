// iir: recursive Gaussians per axis (seed 001 cites them): Deriche's 4th order (Getreuer's causal +
// anticausal form) or Young-van Vliet's 3rd order (causal then anticausal, Triggs-Sdika borders).
// A few multiply-adds per sample whatever the sigma.
#include "algorithms/iir.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "algorithms/cost_model.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/error.hpp"

namespace fastblur::algo {
namespace {

// Padded lines start where the slowest pole has decayed to this; the weight of the impulse response
// left beyond the padding then stays below 1e-7 (tests/kernel/iir_coefficients_test.cpp).
constexpr double kPoleDecay = 1e-8;
// CPU per padded sample: Deriche's four complex recursions in float lanes; the line driver's double
// recursions (Deriche 8, Young-van Vliet 6 multiply-adds).
constexpr double kDericheLanesPerSample = 5.5;
// Without float64 the GPU's recursions run in float32, whose direct forms lose the signal as the poles
// approach 1: measured on lavapipe against the CPU's double, max error 2.4e-6 (Deriche) and 6.2e-6
// (Young-van Vliet) of the data's range at sigma 5, 8.7e-5 and 3.5e-5 at 10, 7.5e-4 and 8.6e-5 at 20.
// Above these sigmas (errors near 1e-4) such devices refuse Young-van Vliet; Deriche runs on the GPU
// in its parallel form instead (stable in float32 at any sigma, src/vulkan/gpu_iir.cpp).
constexpr double kFloatMaxSigmaYoungVanVliet = 20.0;

IirVariant variant_of(const BlurSpec& spec) {
  return option_value<std::string>(spec, "iir_variant") == "young-van-vliet" ? IirVariant::young_van_vliet
                                                                            : IirVariant::deriche;
}

std::string variant_name(IirVariant v) {
  switch (v) {
    case IirVariant::deriche: return "deriche";
    case IirVariant::young_van_vliet: return "young-van-vliet";
  }
  return "unknown variant " + std::to_string(static_cast<int>(v));
}

// iir_line's scratch a lane: Deriche keeps the causal part of the outputs; Young-van Vliet the
// causal pass from the first output to the padded line's end.
std::uint64_t iir_line_scratch(bool deriche, std::int64_t n, std::int64_t pad, std::uint64_t real) {
  return static_cast<std::uint64_t>(deriche ? n : n + pad) * real;
}

class Iir final : public Descriptor {
 public:
  Iir()
      : Descriptor(
            {Algorithm::iir, "iir",
             "recursive Gaussian (Deriche 4th order, or Young-van Vliet 3rd order) per axis, sigma >= 0.5; O(1) "
             "per pixel",
             "Recursive filters whose impulse response approximates the Gaussian, two sweeps per line whatever the "
             "sigma. Deriche (max error about 5e-4) runs in float as two complex first-order recursions per "
             "direction, in SIMD across lines; Young-van Vliet (about 2e-2, and wider than asked) is cheaper. "
             "nearest and constant borders are exact (the recursions start from the constant's steady state); "
             "reflect, mirror and wrap extend each line until the response has decayed below 1e-8.",
             Capabilities{.separable = true, .max_dimensions = 3, .min_sigma = kernel::kIirMinSigma,
                          .max_sigma = kernel::kIirMaxSigma}},
            {option({.key = "iir_variant", .flag = "iir-variant", .kind = ParameterInfo::Kind::choice,
                        .doc = "deriche (4th order, max error about 5e-4) or young-van-vliet (3rd order, cheaper, "
                               "about 2e-2)",
                        .default_text = "deriche", .choices = {"deriche", "young-van-vliet"}})}) {}

  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    // The Vulkan backend runs Deriche in float32 in its parallel form at any sigma; only
    // Young-van Vliet's direct form needs float64 beyond kFloatMaxSigmaYoungVanVliet.
    if (shape.backend != Backend::vulkan || shape.device_float64 || variant_of(spec) == IirVariant::deriche) return;
    const double limit = kFloatMaxSigmaYoungVanVliet;
    for (double sigma : spec.sigma)
      if (sigma > limit)
        throw Unsupported("iir at sigma " + std::to_string(sigma) + " needs float64 shaders, which this Vulkan device "
                          "lacks (float32 recursions hold up to sigma " + std::to_string(limit) +
                          "); use box, kawase or the CPU");
  }

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<IirResolved>();
    r->variant = variant_of(spec);
    add_parameter(plan, "iir_variant", variant_name(variant_of(spec)));
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > kSigmaCutoff)) continue;
      IirAxis& i = r->axes[static_cast<std::size_t>(a)];
      i.filtered = true;
      double pole = 0.0;
      if (variant_of(spec) == IirVariant::deriche) {
        i.deriche = kernel::deriche_coefficients(ax.sigma);
        pole = i.deriche.pole_radius;
      } else {
        i.young_van_vliet = kernel::young_van_vliet_coefficients(ax.sigma);
        i.triggs_sdika = kernel::triggs_sdika_matrix(i.young_van_vliet.feedback);
        pole = i.young_van_vliet.pole_radius;
      }
      i.decay = kernel::recursive_decay_length(pole, kPoleDecay);
      i.pad = ax.border == Border::nearest || ax.border == Border::constant ? 0 : i.decay;
      ax.support = i.decay;
      ax.achieved_sigma = ax.sigma;
      add_parameter(plan, "decay_length", std::int64_t{i.decay}, a);
    }
    plan.resolved = std::move(r);
  }

  // Deriche runs in SIMD lanes where float is allowed; Young-van Vliet and exact float64 on the line driver.
  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver =
        variant_of(plan.spec) == IirVariant::deriche && float_lanes_allowed(plan.spec, shape) ? CpuDriver::lanes
                                                                                           : CpuDriver::lines;
    if (shape.backend == Backend::vulkan) schedule_gpu(plan, shape);
  }

  // A thread per lane (one channel of a line) with its scratch in batches; along x, whole lines per
  // workgroup, their blocks loaded and stored by all threads together (iir_line.comp's TILED), where
  // a batch holds a workgroup's lanes (64 / C lines of C channels, up to 64 threads).
  static constexpr std::int64_t kIirChunk = 32;  // samples a thread of iir_chunks.comp keeps in registers

  static void schedule_gpu(Plan& plan, const Shape& shape) {
    const auto& r = resolved_as<IirResolved>(plan);
    const bool deriche = r.variant == IirVariant::deriche;
    // float64 only where float32 does not hold (1/64 rate on consumer GPUs, absent on some):
    // Young-van Vliet's direct form beyond the sigma float32 holds, on a device that has it.
    bool need64 = false;
    for (double sigma : plan.spec.sigma) need64 = need64 || sigma > kFloatMaxSigmaYoungVanVliet;
    const bool float64 = shape.device_float64 && !deriche && need64;
    const std::uint64_t real = float64 ? sizeof(double) : sizeof(float);
    const std::uint64_t shared = shared_memory(shape);
    const int C = shape.channels;
    for (std::size_t a = 0; a < 3; ++a) {
      GpuPass& g = plan.schedule.gpu[a];
      g = GpuPass{};
      if (!plan.axes[a].active) continue;
      // Deriche's parallel form in float32 on lines of 4 chunks or more: chunks of 32 samples of
      // every line in parallel, three dispatches (iir_chunks.comp); the H200 ran the lane-per-thread
      // pass at 33-50x its floor. Shorter lines keep one dispatch of a lane per thread.
      if (deriche && shape.extent[a] + 2 * r.axes[a].pad >= 4 * kIirChunk) {
        // Their starts computed, not padded (a column of 1080 at sigma 50 padded by 550 each side
        // was twice the work).
        g.shader = kIirChunksStarts;
        g.block = kIirChunk;
        // Along x too a thread reads its own chunk: whole lines' chunks through shared memory, as
        // iir_line's TILED reads blocks, measured 1.5x slower on the H200 (bench/RESULTS.md).
        continue;
      }
      g.shader = float64 ? "iir_line_f64" : "iir_line_f32";
      g.real = float64 ? ElementType::f64 : ElementType::f32;
      // Deriche runs its parallel form (stable in float32 at any sigma), as the chunks do.
      g.recursion = deriche ? GpuPass::Recursion::deriche_parallel : GpuPass::Recursion::young_van_vliet;
      const std::int64_t n = shape.extent[a], lanes = shape.elements() / n;
      const std::int64_t batch =
          lines_per_batch(scratch_budget(shape), iir_line_scratch(deriche, n, r.axes[a].pad, real), lanes);
      const std::int64_t group = (64 / C) * C;
      const bool tiled = a == 0 && (batch >= group || batch == lanes);
      g.tile = tiled ? group : 0;
      // Blocks of up to 32 samples: per sample and thread, an input (float), a causal value (real)
      // and, tiled, an output (float) in shared memory; 16 KiB, the least any device has, holds 21.
      const std::uint64_t slot_bytes = 64 * (sizeof(float) + real + (tiled ? sizeof(float) : 0));
      g.block = static_cast<std::int64_t>(std::clamp<std::uint64_t>(shared / slot_bytes, 1, 32));
    }
  }

  // Lanes a dispatch covers, its scratch within the device's budget: iir_chunks keeps each chunk's
  // state (two vec4), iir_line a lane's causal values (tiled: in whole workgroups).
  void schedule_gpu_batches(Plan& plan, const Shape& shape, std::array<std::int64_t, 3> piece) const override {
    const auto& r = resolved_as<IirResolved>(plan);
    const bool deriche = r.variant == IirVariant::deriche;
    const std::int64_t samples = piece[0] * piece[1] * piece[2];
    for (std::size_t a = 0; a < 3; ++a) {
      GpuPass& g = plan.schedule.gpu[a];
      if (g.shader.empty()) continue;
      const std::int64_t n = piece[a], pad = r.axes[a].pad, lanes = samples / n * shape.channels;
      if (iir_chunks_pass(g)) {
        const std::int64_t chunks = (n + 2 * iir_chunks_pad(g, r.axes[a], n) + g.block - 1) / g.block;
        g.batch = lines_per_batch(scratch_budget(shape), static_cast<std::uint64_t>(chunks) * 32, lanes);
        continue;
      }
      const std::uint64_t real = g.real == ElementType::f64 ? sizeof(double) : sizeof(float);
      g.batch = lines_per_batch(scratch_budget(shape), iir_line_scratch(deriche, n, pad, real), lanes);
      const std::int64_t group = g.tile > 0 ? g.tile : 64;
      if (g.tile > 0 && g.batch < lanes) g.batch = g.batch / group * group;
      if (g.batch < 1)
        throw Unsupported("iir's shared-memory rows need scratch for " + std::to_string(group) +
                          " lines, more than this device's budget");
    }
  }

  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double s = std::min(spec.sigma[static_cast<std::size_t>(axis)], kLargeSigma);
    const int half = static_cast<int>(std::ceil(12 * s)) + 8;
    return EquivalentKernel{variant_of(spec) == IirVariant::deriche ? kernel::deriche_impulse_response(s, half)
                                                                     : kernel::young_van_vliet_impulse_response(s, half),
                            s};
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    if (plan.schedule.backend == Backend::vulkan) return 3.0;  // a thread per line, two sweeps: little parallelism
    const auto i = static_cast<std::size_t>(axis);
    // Both variants decay to 1e-8 within about 11 sigma, the length the symmetric borders and wrap
    // extend each side by.
    const bool extends = plan.axes[i].border != Border::nearest && plan.axes[i].border != Border::constant;
    const double pad = extends ? 11.0 * plan.axes[i].sigma : 0.0;
    if (plan.schedule.driver == CpuDriver::lanes)
      return cost::lane_axis(shape.channels, axis, kDericheLanesPerSample * padded_ratio(shape, axis, pad), shape.source, shape.destination);
    const double per_sample = variant_of(plan.spec) == IirVariant::deriche ? 8.0 : 6.0;
    return (cost::kLineDriver + per_sample) * padded_ratio(shape, axis, pad);
  }

  // Both variants, where every filtered axis's sigma is within their range.
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0) return {};
    for (int a = 0; a < 3; ++a) {
      const double sigma = spec.sigma[static_cast<std::size_t>(a)];
      if (axis_active(spec, shape, a) && (sigma < kernel::kIirMinSigma || sigma > kernel::kIirMaxSigma)) return {};
    }
    std::vector<BlurSpec> out;
    for (IirVariant variant : {IirVariant::deriche, IirVariant::young_van_vliet}) {
      BlurSpec iir = with_algorithm(spec, Algorithm::iir);
      set_option(iir, "iir_variant", variant_name(variant));
      out.push_back(iir);
    }
    return out;
  }
};

}  // namespace

const Descriptor& iir_descriptor() {
  static const Iir d;
  return d;
}

}  // namespace fastblur::algo
