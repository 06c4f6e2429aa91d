// downsample (seed 002): per axis, average blocks of f = 2 or 4 samples, blur the low-resolution line
// with the compensated sigma, interpolate linearly back. Operators on different axes commute, so this
// equals downsampling the image, blurring and upsampling it. Not shift-invariant: the response
// depends on a position's phase within its block (blocks start at the line's first sample).
#include "algorithms/downsample.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "algorithms/cost_model.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {
namespace {

// CPU: the block average, the low-resolution fir (one tap pair per f samples, in double), the
// interpolation.
constexpr double kPerLowTapPair = 10.0;

int factor_for(const BlurSpec& spec, double sigma) {
  const int factor = option_int(spec, "downsample_factor");
  return factor ? factor : kernel::downsample_factor_for(sigma);
}

class Downsample final : public Descriptor {
 public:
  Downsample()
      : Descriptor(
            {Algorithm::downsample, "downsample",
             "blur at 1/2 or 1/4 resolution and interpolate back (seed 002), sigma compensated for the resampling",
             "Seed 002's reduced-resolution blur: blocks of 2 or 4 samples averaged, the low-resolution line blurred "
             "with the sigma that makes the whole chain's variance sigma^2 (the block average and the linear "
             "interpolation add their own), interpolated back. A quarter or a sixteenth of the taps; not "
             "shift-invariant (each phase of a block has its own response). sigma must exceed what the resampling "
             "alone adds (1 at factor 2, 2 at factor 4).",
             Capabilities{.separable = true, .max_dimensions = 3}},
            {option({.key = "downsample_factor", .flag = "factor", .kind = ParameterInfo::Kind::integer,
                    .doc = "the resolution factor", .default_text = "4 from sigma 12, else 2", .min = 2,
                    .max = 4, .multiple_of = 2, .zero_chooses = true})}) {}

  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    for (int a = 0; a < 3; ++a) {
      const double sigma = spec.sigma[static_cast<std::size_t>(a)];
      if (sigma > 1e-15) (void)kernel::downsample_low_sigma(sigma, factor_for(spec, sigma), spec.truncate);
    }
  }

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<DownsampleResolved>();
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > 1e-15)) continue;
      DownsampleAxis& d = r->axes[static_cast<std::size_t>(a)];
      d.factor = factor_for(spec, ax.sigma);
      d.low_sigma = kernel::downsample_low_sigma(ax.sigma, d.factor, spec.truncate);
      d.radius = kernel::downsample_low_radius(d.low_sigma, spec.truncate);
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
    plan.resolved = std::move(r);
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
      EquivalentKernel k{kernel::downsample_impulse_response(s, f, spec.truncate, phase, half), s};
      const double e = max_error_1d(k);
      if (e > worst_error) worst_error = e, worst = std::move(k);
    }
    return worst;
  }

  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    const DownsampleAxis& d = resolved_as<DownsampleResolved>(plan).axes[static_cast<std::size_t>(axis)];
    const double f = d.factor;
    if (plan.schedule.backend == Backend::vulkan) return 2.0 + (1.0 + 0.02 * (d.radius + 1)) / f;
    return cost::kLineDriver + f + kPerLowTapPair * (d.radius + 1) / f + 3.0;
  }

  // A candidate where every filtered axis's sigma exceeds what the resampling alone adds.
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0) return {};
    for (int a = 0; a < 3; ++a) {
      const double sigma = spec.sigma[static_cast<std::size_t>(a)];
      if (axis_active(spec, shape, a) &&
          !(sigma > std::sqrt(kernel::downsample_added_variance(kernel::downsample_factor_for(sigma)))))
        return {};
    }
    return {with_algorithm(spec, Algorithm::downsample)};
  }
};

}  // namespace

const Descriptor& downsample_descriptor() {
  static const Downsample d;
  return d;
}

}  // namespace fastblur::algo
