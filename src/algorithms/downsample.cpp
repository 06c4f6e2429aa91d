// downsample (seed 002): per axis, reduce the line onto the centres of blocks of f = 2, 4 or 8 samples
// with the tent (the transpose of the linear interpolation), blur the low-resolution line with the
// compensated sigma, interpolate linearly back. Operators on different axes commute, so this equals
// downsampling the image, blurring and upsampling it. Not shift-invariant: the response depends on a
// position's phase within its block (blocks start at the line's first sample).
#include "algorithms/downsample.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

#include "algorithms/cost_model.hpp"
#include "algorithms/gpu_passes.hpp"
#include "core/cache_size.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {
namespace {

// CPU: the tent, the low-resolution fir (one tap pair per f samples, in double), the
// interpolation.
constexpr double kPerLowTapPair = 10.0;
// The 2D chain (cpu/downsample_chain.cpp), per full-resolution sample and axis: a fixed part (the
// tent's rows, the interpolation, the output), a little per factor (the phases' pixel copies), and
// the low-resolution Gaussian's tap pairs over the blocks. Refitted when the x tent went to the
// block centres (its taps no longer grow with the factor): 1080p RGBA float at factors 2, 4 and 8,
// sigma 5.6 to 60 (bench/RESULTS.md, "the chain's arithmetic"), in units anchored where the first
// fit (against the iir rows of the same run) put sigma 5.6 at factor 2.
constexpr double kChainPerSample = 9.0;
constexpr double kChainPerFactor = 0.25;
constexpr double kChainPerLowTapPair = 1.65;
// 8-bit images: the chain converts the source rows as the tent sums them and the output as the
// lerp writes it, moving a quarter of float's bytes; the per-sample part measured 0.63-0.78 of
// float's (1080p RGBA, sigma 3-12, alternated in one process: bench/RESULTS.md, 2026-11-27).
// 16-bit and half images measured as float.
constexpr double kChainEightBitSample = 0.7;

int factor_for(const BlurSpec& spec, double sigma) {
  const int factor = option_int(spec, "downsample_factor");
  return factor ? factor : kernel::downsample_factor_for(sigma);
}

// The low-resolution kernel's truncation, in its own sigmas: the option's, or the blur's truncate.
constexpr std::string_view kLowTruncate = "downsample_low_truncate";
double low_truncate(const BlurSpec& spec) {
  const double t = option_value<double>(spec, kLowTruncate);
  return t > 0.0 ? t : spec.truncate;
}
// Truncations a tolerance's candidate tries below the blur's: eighths of a sigma from 1.5 up.
constexpr int kTruncateSteps = 8;
constexpr int kLeastTruncateSteps = 12;

class Downsample final : public Descriptor {
 public:
  Downsample()
      : Descriptor(
            {Algorithm::downsample, "downsample",
             "blur at 1/2, 1/4 or 1/8 resolution and interpolate back (seed 002, Intel's fast-blur article), sigma compensated for the resampling",
             "Seed 002's reduced-resolution blur: the line reduced onto the centres of blocks of 2, 4 or 8 samples "
             "by the tent (each sample shared between the two centres around it by distance, [1, 3, 3, 1] / 8 at "
             "factor 2: two linear fetches), the low-resolution line blurred with the sigma that makes the whole "
             "chain's variance sigma^2 (the tent and the linear interpolation add their own), interpolated back. "
             "A half, a quarter or an eighth of the taps per axis; not shift-invariant (each phase of a block has its "
             "own response). sigma must exceed what the resampling alone adds (1.22 at factor 2, 2.35 at 4, 4.64 "
             "at 8).",
             Capabilities{.separable = true, .max_dimensions = 3}},
            {option({.key = "downsample_factor", .flag = "factor", .kind = ParameterInfo::Kind::integer,
                    .doc = "the resolution factor: 2, 4 or 8", .default_text = "4 from sigma 20, else 2", .min = 2,
                    .max = 8, .multiple_of = 2, .zero_chooses = true}),
             option({.key = kLowTruncate, .flag = "low-truncate", .kind = ParameterInfo::Kind::real,
                    .doc = "the low-resolution Gaussian's truncation, in its own sigmas",
                    .default_text = "the blur's truncate; under a tolerance, the least within its share",
                    .min = 1.0, .max = 64.0, .zero_chooses = true})}) {}

  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    for (int a = 0; a < 3; ++a) {
      const double sigma = spec.sigma[static_cast<std::size_t>(a)];
      if (sigma > kSigmaCutoff) (void)kernel::downsample_low_sigma(sigma, factor_for(spec, sigma), low_truncate(spec));
    }
  }

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<DownsampleResolved>();
    const double truncate = low_truncate(spec);
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > kSigmaCutoff)) continue;
      DownsampleAxis& d = r->axes[static_cast<std::size_t>(a)];
      d.factor = factor_for(spec, ax.sigma);
      d.low_sigma = kernel::downsample_low_sigma(ax.sigma, d.factor, truncate);
      d.radius = kernel::downsample_low_radius(d.low_sigma, truncate);
      d.pad = static_cast<std::int64_t>(d.factor) * (d.radius + 3);
      ax.radius = d.radius;
      // An output reads the blocks of the low-resolution kernel around its own two, each f wide.
      ax.support = static_cast<std::int64_t>(d.factor) * (d.radius + 4);
      ax.align = d.factor;
      ax.achieved_sigma = ax.sigma;  // on average over the phases (kernel::downsample_low_sigma)
      add_parameter(plan, "downsample_factor", std::int64_t{d.factor}, a);
      add_parameter(plan, "low_sigma", d.low_sigma, a);
      add_parameter(plan, "low_radius", std::int64_t{d.radius}, a);
    }
    if (r->axes[0].factor || r->axes[1].factor || r->axes[2].factor)
      add_parameter(plan, std::string(kLowTruncate), truncate);
    plan.resolved = std::move(r);
  }

  // CPU: 2D images and stacks of them in float: the chain (both axes reduced at once, one read and one
  // write at full resolution); volumes blurred along z, a single axis and float64 on the line driver.
  void schedule(Plan& plan, const Shape& shape) const override {
    const auto& r = resolved_as<DownsampleResolved>(plan);
    const bool chain = shape.backend == Backend::cpu && r.axes[0].factor > 0 && r.axes[1].factor > 0 &&
                       r.axes[2].factor == 0 && float_lanes_allowed(plan.spec, shape);
    plan.schedule.driver = chain ? CpuDriver::chain : CpuDriver::lines;
    // On the GPU, the same design for images and volumes (GpuDownsample::chain: coalesced, one read
    // and one write at full resolution), its shader the record of the choice (gpu_variants.cpp names
    // the other).
    if (shape.backend == Backend::vulkan) {
      for (GpuPass& g : plan.schedule.gpu) g = GpuPass{};
      plan.schedule.gpu[0].shader = downsample_shader(GpuDownsample::chain);
    }
    plan.schedule.stream_destination = chain && streams_float_destination(shape);
  }

  // Not shift-invariant: the response of the phase farthest from the Gaussian.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
    const double s = std::min(sigma, kLargeSigma);
    const int f = factor_for(spec, sigma);
    const int half = static_cast<int>(std::ceil(12 * s)) + 8 * f;
    std::optional<EquivalentKernel> worst;
    double worst_error = -1.0;
    for (int phase = 0; phase < f; ++phase) {
      EquivalentKernel k{kernel::downsample_impulse_response(s, f, low_truncate(spec), phase, half), s};
      const double e = max_error_1d(k);
      if (e > worst_error) worst_error = e, worst = std::move(k);
    }
    return worst;
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    const DownsampleAxis& d = resolved_as<DownsampleResolved>(plan).axes[static_cast<std::size_t>(axis)];
    const double f = d.factor;
    if (plan.schedule.backend == Backend::vulkan) return 2.0 + (1.0 + 0.02 * (d.radius + 1)) / f;
    if (plan.schedule.driver == CpuDriver::chain) {
      // Per full-resolution sample and axis: the tent and the interpolation, and the low-resolution
      // Gaussian's tap pairs over the blocks of both axes (f^2 samples each in 2D).
      const auto& r = resolved_as<DownsampleResolved>(plan);
      const double blocks = static_cast<double>(r.axes[0].factor) * static_cast<double>(r.axes[1].factor);
      const bool eight_bit = shape.source == ElementType::u8 && shape.destination == ElementType::u8;
      const double per_sample = (kChainPerSample + kChainPerFactor * f) * (eight_bit ? kChainEightBitSample : 1.0);
      return per_sample + kChainPerLowTapPair * (d.radius + 1) / blocks;
    }
    // A line's own overhead (its low-resolution line and resampling set up), shared by its samples:
    // an RGB array's channel axis given one sigma 60 (lines of 3) took 1.9 s for 6.2M samples, 2
    // threads, about 25000 units a line (bench/RESULTS.md, issue 43).
    constexpr double kPerLine = 25000.0;
    return cost::kLineDriver + f + kPerLowTapPair * (d.radius + 1) / f + 3.0 +
           kPerLine / std::max(1.0, static_cast<double>(shape.extent[static_cast<std::size_t>(axis)]));
  }

  // A candidate per factor (the error falls with sigma / f, the cost with f) where every filtered
  // axis's sigma exceeds what that factor's resampling alone adds, its low-resolution kernel
  // truncated as short as the tolerance allows (as fir's candidate is): each filtered axis within
  // its share of the tolerance. The low-resolution Gaussian is most of the chain's arithmetic.
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0) return {};
    std::vector<int> active;
    for (int a = 0; a < 3; ++a)
      if (axis_active(spec, shape, a)) active.push_back(a);
    if (active.empty()) return {};
    const double share = std::pow(1.0 + spec.tolerance, 1.0 / static_cast<double>(active.size())) - 1.0;
    std::vector<BlurSpec> out;
    for (int f : {2, 4, 8}) {
      bool fits = true;
      for (int a : active)
        if (!(spec.sigma[static_cast<std::size_t>(a)] > std::sqrt(kernel::downsample_added_variance(f)))) fits = false;
      if (!fits) continue;
      BlurSpec d = with_algorithm(spec, Algorithm::downsample);
      set_option(d, "downsample_factor", std::int64_t{f});
      const auto within = [&](int steps) {
        set_option(d, kLowTruncate, static_cast<double>(steps) / kTruncateSteps);
        for (int a : active)
          if (!(predicted_axis_error(d, a) <= share)) return false;
        return true;
      };
      // Bisection on eighths of a sigma: `hi` always within the share (or the blur's truncate).
      int lo = kLeastTruncateSteps - 1;
      int hi = static_cast<int>(std::ceil(spec.truncate * kTruncateSteps));
      if (hi > lo + 1 && within(hi - 1)) {
        hi = hi - 1;
        while (hi - lo > 1) {
          const int mid = (lo + hi) / 2;
          (within(mid) ? hi : lo) = mid;
        }
        set_option(d, kLowTruncate, static_cast<double>(hi) / kTruncateSteps);
      } else {
        set_option(d, kLowTruncate, 0.0);  // the blur's own truncate
      }
      out.push_back(d);
    }
    return out;
  }
};

}  // namespace

const Descriptor& downsample_descriptor() {
  static const Downsample d;
  return d;
}

}  // namespace fastblur::algo
