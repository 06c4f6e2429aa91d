// box: n passes of a box per axis (seeds 001, 002): running sums on the CPU, prefix-sum scans or
// per-thread running sums on the GPU. Extended boxes (fractional end weights) reach every sigma
// exactly; seed 002's integer widths only as an option.
#include "algorithms/box.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "algorithms/cost_model.hpp"
#include "algorithms/gpu_passes.hpp"

namespace fastblur::algo {
namespace {

constexpr int kDefaultPasses = 3;
// CPU, per pass and padded sample: the line driver's double running sums, or the lanes' (double
// sums over float lanes; fitted to algo/box/RGBA32F/1920x1080/s5-s50, bench/RESULTS.md "Lanes").
constexpr double kPerPassLines = 2.7;
constexpr double kPerPassLanes = 3.8;

int passes_of(const BlurSpec& spec) {
  const int passes = option_int(spec, "box_passes");
  return passes == 0 ? kDefaultPasses : passes;
}
bool integer_widths(const BlurSpec& spec) { return option_value<bool>(spec, "box_integer_widths"); }

std::vector<kernel::BoxPass> passes_for(const BlurSpec& spec, double sigma) {
  return integer_widths(spec) ? kernel::integer_box_passes(sigma, passes_of(spec))
                                 : kernel::extended_box_passes(sigma, passes_of(spec));
}

std::int64_t reach(const std::vector<kernel::BoxPass>& passes) {
  std::int64_t pad = 0;
  for (const auto& p : passes) pad += p.radius + 1;
  return pad;
}

// Outputs a thread of box_chunk.comp makes in a pass of radius r: each chunk starts its sum afresh
// over 2 r + 1 samples, so chunks of twice that keep the fresh sums under half the reads.
std::int64_t running_sums_outputs(std::int64_t radius) { return std::max<std::int64_t>(32, 2 * (2 * radius + 1)); }

// Outputs a thread of box_fused.comp makes: four times the passes' reach each side (so reading the
// chunk's margins costs at most half again), at least 128.
std::int64_t fused_outputs(std::int64_t reach) { return std::max<std::int64_t>(128, 4 * reach); }

// Each box axis's GPU pass for lines of `n` samples, `lanes` lanes (a line's channel) a piece: the
// schedule's shader, outputs a thread, and the lanes (box_scan: lines) a dispatch's scratch holds.
GpuPass box_gpu_pass(BoxSchedule schedule, const std::vector<kernel::BoxPass>& passes, std::int64_t pad, std::int64_t n,
                     std::int64_t lanes, int channels, std::uint64_t budget) {
  GpuPass g;
  g.shader = box_shader(schedule);
  switch (schedule) {
    case BoxSchedule::fused: {
      std::int64_t slots = 0;  // ring floats a thread keeps: 2 (r + 1) + 1 a pass
      for (const auto& q : passes) slots += 2 * (q.radius + 1) + 1;
      g.block = fused_outputs(pad);
      const std::int64_t chunks = (n + g.block - 1) / g.block;
      g.batch = lines_per_batch(budget, static_cast<std::uint64_t>(chunks * slots) * sizeof(float), lanes);
      break;
    }
    case BoxSchedule::prefix_sums:
      // Per line: two value arrays and the prefix sums' two halves, (n + 2 pad) samples of every channel.
      g.batch = lines_per_batch(budget, static_cast<std::uint64_t>(channels) * 4 * static_cast<std::uint64_t>(n + 2 * pad) * 4,
                                lanes / channels);
      break;
    case BoxSchedule::running_sums:
      for (const auto& q : passes) g.pass_outputs.push_back(running_sums_outputs(q.radius));
      // Two extended copies of each lane.
      g.batch = lines_per_batch(budget, 2 * static_cast<std::uint64_t>(n + 2 * pad) * sizeof(float), lanes);
      break;
  }
  return g;
}

class Box final : public Descriptor {
 public:
  Box()
      : Descriptor(
            {Algorithm::box, "box",
             "n passes (1-6, default 3) of a running-sum box per axis, variance exact for any sigma (extended box); "
             "O(1) per pixel",
             "Seeds 001 and 002: repeated boxes tend to the Gaussian (central limit). Each pass is an extended box "
             "(Gwosdek et al. 2011) whose fractional end weights give it variance sigma^2 / n exactly; its shape "
             "error falls with the passes (max error about 0.06 at 3, 0.03 at 5). Running sums in double on the "
             "CPU; prefix-sum scans (a workgroup per line) or running sums (a thread per line) on the GPU.",
             Capabilities{.separable = true, .max_dimensions = 3}},
            {option({.key = "box_passes", .flag = "passes", .kind = ParameterInfo::Kind::integer,
                    .doc = "passes per axis: more passes, closer to the Gaussian, slower", .default_text = "3",
                    .min = 1, .max = 6, .zero_chooses = true}),
             option({.key = "box_integer_widths", .flag = "integer-widths", .kind = ParameterInfo::Kind::flag,
                    .doc = "the integer box widths of Intel's fast-blur article (seed 002) only (the achieved sigma then differs from sigma)",
                    .default_text = "false"})}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<BoxResolved>();
    set_option(plan.spec, "box_passes", std::int64_t{passes_of(spec)});
    add_parameter(plan, "box_passes", std::int64_t{passes_of(spec)});
    add_parameter(plan, "box_integer_widths", integer_widths(spec));
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > kSigmaCutoff)) continue;
      auto& passes = r->passes[static_cast<std::size_t>(a)];
      passes = passes_for(spec, ax.sigma);
      r->reach[static_cast<std::size_t>(a)] = reach(passes);
      ax.support = reach(passes);
      ax.achieved_sigma = kernel::achieved_sigma(passes);
      std::vector<double> radii, weights;
      for (const auto& p : passes) radii.push_back(p.radius), weights.push_back(p.alpha);
      add_parameter(plan, "box_radius", radii, a);
      add_parameter(plan, "box_end_weight", weights, a);
    }
    plan.resolved = std::move(r);
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = float_lanes_allowed(plan.spec, shape) ? CpuDriver::lanes : CpuDriver::lines;
    // Running sums on every axis and device (box_chunk): chunked over lanes they beat the prefix-sum
    // scan (a workgroup per row) 1.5-5x on an NVIDIA H100 at 1080p RGBA8, k7 to s50, and on
    // lavapipe, where workgroup barriers are costly, 5 to 20x (bench/RESULTS.md). The pass's shader
    // is the record of the choice (gpu_variants.cpp names the others).
    if (shape.backend == Backend::vulkan)
      for (std::size_t a = 0; a < 3; ++a)
        plan.schedule.gpu[a] = plan.axes[a].active ? GpuPass{box_shader(BoxSchedule::running_sums)} : GpuPass{};
  }

  void schedule_gpu_batches(Plan& plan, const Shape& shape, std::array<std::int64_t, 3> piece) const override {
    const auto& r = resolved_as<BoxResolved>(plan);
    const std::int64_t samples = piece[0] * piece[1] * piece[2];
    for (std::size_t a = 0; a < 3; ++a) {
      const BoxSchedule chosen = box_schedule_of(plan.schedule.gpu[a].shader);  // schedule()'s, or a variant's
      plan.schedule.gpu[a] = GpuPass{};
      if (!plan.axes[a].active) continue;
      plan.schedule.gpu[a] = box_gpu_pass(chosen, r.passes[a], r.reach[a], piece[a],
                                          samples / piece[a] * shape.channels, shape.channels, scratch_budget(shape));
    }
  }

  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double s = std::min(spec.sigma[static_cast<std::size_t>(axis)], kLargeSigma);
    return EquivalentKernel{kernel::box_kernel(passes_for(spec, s)), s};
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    const int passes = passes_of(plan.spec);
    if (plan.schedule.backend == Backend::vulkan) return 2.0 + 0.5 * passes;  // the line into scratch, each pass, out
    // Each pass extends the line by its radius + 1; a pass's radius is about sigma sqrt(3 / n).
    const double sigma = plan.axes[static_cast<std::size_t>(axis)].sigma;
    const double pad = passes * (sigma * std::sqrt(3.0 / passes) + 1.0);
    if (plan.schedule.driver == CpuDriver::lanes)
      return cost::lane_axis(shape.channels, axis, kPerPassLanes * passes * padded_ratio(shape, axis, pad), shape.source, shape.destination);
    return (cost::kLineDriver + kPerPassLines * passes) * padded_ratio(shape, axis, pad);
  }

  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape&) const override {
    if (spec.tolerance <= 0.0) return {};
    std::vector<BlurSpec> out;
    for (int n = 1; n <= 6; ++n) {
      BlurSpec box = with_algorithm(spec, Algorithm::box);
      set_option(box, "box_passes", std::int64_t{n});
      out.push_back(box);
    }
    return out;
  }
};

}  // namespace

const Descriptor& box_descriptor() {
  static const Box d;
  return d;
}

}  // namespace fastblur::algo
