// dual-kawase (Bjorge, SIGGRAPH 2015): L half-resolution down passes and L up passes of bilinear
// taps, planar (x and y together). Levels and the taps' offset are solved so the variance is exactly
// sigma^2 (kernel_dual_kawase.hpp). Not shift-invariant: blocks of 2^levels pixels from pixel 0.
#include "algorithms/dual_kawase.hpp"
#include "algorithms/gpu_passes.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fastblur/error.hpp"

namespace fastblur::algo {
namespace {

// CPU (half on each of x and y): a base cost, plus the passes of each level (each a quarter of the
// one above, on a padded copy of the image); refitted to algo/dual-kawase/RGBA32F/1920x1080/s5-s50
// in the units of the Deriche lanes (bench/RESULTS.md "Lanes").
constexpr double kBase = 30.0;
constexpr double kPerLevel = 3.7;

std::int64_t floor_to_int(double v) { return static_cast<std::int64_t>(std::floor(v)); }

// The source texels the targets [a, b] of a pass read (both texels of every fetch, even where its
// weight is 0, so nothing read is ever left uncomputed).
TexelRange down_reads(TexelRange t, double d) {
  const double h = 0.5 * d;
  return {floor_to_int(2.0 * t.lo + 0.5 - h), floor_to_int(2.0 * t.hi + 0.5 + h) + 1};
}
TexelRange up_reads(TexelRange t, double d) {
  return {floor_to_int((t.lo + 0.5) / 2.0 - d - 0.5), floor_to_int((t.hi + 0.5) / 2.0 + d - 0.5) + 1};
}

bool all_zero(const BlurSpec& spec) { return !(spec.sigma[0] > 0.0 || spec.sigma[1] > 0.0 || spec.sigma[2] > 0.0); }

// The levels a spec's chain has at `sigma` (for its cost; an unreachable sigma counts as the most).
int levels_of(const BlurSpec& spec, double sigma) {
  if (option_int(spec, "dual_kawase_levels") > 0) return option_int(spec, "dual_kawase_levels");
  try {
    return kernel::dual_kawase_levels_for(sigma);
  } catch (const Error&) {
    return kernel::kDualKawaseMaxLevels;
  }
}

class DualKawase final : public Descriptor {
 public:
  DualKawase()
      : Descriptor(
            {Algorithm::dual_kawase, "dual-kawase",
             "Bjorge's dual filtering: half-resolution down and up passes of bilinear taps, 2D only, sigma >= 1, "
             "variance exact; max error about 0.1 of the peak from sigma 5 (2D: 0.3 to 0.6)",
             "Bjorge's dual filtering (SIGGRAPH 2015): each down pass halves the image with 5 bilinear fetches, "
             "each up pass doubles it with 8, so a large blur costs about 1.3 image passes. Levels and the taps' "
             "offset are solved so the variance is sigma^2 exactly. Its 2D response's peak is flatter than a "
             "Gaussian's (2D max error up to 0.63 from sigma 5), and it is not shift-invariant (blocks of "
             "2^levels pixels). 2D images; the border modes extend the image once (on the GPU its levels in "
             "float16 where a measured profile says so and the source is 8-bit or float16: each pass rounded "
             "to 2^-11 of its values; or 8-bit normalized for an 8-bit source: each stored pass rounded to "
             "1/255 of the range, which the prediction adds).",
             Capabilities{.separable = false, .max_dimensions = 2, .vulkan_volumes = false,
                          .texture_filtering = true, .min_sigma = kernel::kDualKawaseMinSigma}},
            {option({.key = "dual_kawase_levels", .flag = "levels", .kind = ParameterInfo::Kind::integer,
                    .doc = "levels (halvings) of the chain", .default_text = "chosen for sigma",
                    .min = 1, .max = kernel::kDualKawaseMaxLevels, .zero_chooses = true}),
             option({.key = "dual_kawase_offset", .flag = "offset", .kind = ParameterInfo::Kind::real,
                    .doc = "the taps' offset in half texels (Bjorge's is 1); the achieved sigma is then "
                           "the chain's",
                    .default_text = "solved so the variance is sigma^2", .min = 1e-9,
                    .max = kernel::kDualKawaseMaxOffset, .zero_chooses = true})}) {}

  // The chain's own refusals first: they say what the smallest sigma of a chain is.
  void check(const BlurSpec& spec, const Shape& shape) const override {
    if (!all_zero(spec)) (void)dual_kawase_schedule_for(spec);
    Descriptor::check(spec, shape);
  }

  void resolve(const BlurSpec& spec, const Shape& shape, Plan& plan) const override {
    auto r = std::make_shared<DualKawaseResolved>();
    if (!all_zero(spec)) {
      r->schedule = dual_kawase_schedule_for(spec);
      const kernel::DualKawaseSchedule& s = r->schedule;
      add_parameter(plan, "dual_kawase_levels", std::int64_t{s.levels});
      for (int a = 0; a < 2; ++a) {
        AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
        ax.support = dual_kawase_padding(shape.extent[static_cast<std::size_t>(a)], s.levels, s.offset[a]).before;
        ax.align = std::int64_t{1} << s.levels;
        ax.achieved_sigma = std::sqrt(kernel::dual_kawase_variance(s.levels, s.offset[a]));
        add_parameter(plan, "dual_kawase_offset", s.offset[a], a);
      }
    }
    plan.resolved = std::move(r);
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = CpuDriver::planar;
    schedule_image_gpu(plan, shape, "dual_kawase");
  }

  // The 2D max error of the response to an impulse (its chain has no closed form), computed in the
  // kernel layer at the executor's coordinates (the image at its padding's start, which sets the
  // impulse's phase in the blocks).
  double planar_error(const BlurSpec& spec) const override {
    return measured_planar_error(spec, [](const BlurSpec& s, int n) {
      const kernel::DualKawaseSchedule k = dual_kawase_schedule_for(s);
      const std::array<std::int64_t, 2> origin{dual_kawase_padding(n, k.levels, k.offset[0]).before,
                                               dual_kawase_padding(n, k.levels, k.offset[1]).before};
      return kernel::dual_kawase_impulse_response(k, n, n, n / 2, n / 2, origin);
    });
  }

  // On the GPU the down passes' results and the up passes' but the last's are stored: 2 levels - 1
  // (counted on the first filtered axis).
  std::array<int, 3> image_roundings(const Plan& plan) const override {
    return on_first_filtered_axis(plan, std::max(0, 2 * resolved_as<DualKawaseResolved>(plan).schedule.levels - 1));
  }

  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    if (plan.schedule.backend == Backend::vulkan) return 1.0;  // padding, a few passes over ever smaller levels
    return kBase + kPerLevel * levels_of(plan.spec, plan.axes[static_cast<std::size_t>(axis)].sigma);
  }

  // For 2D images blurred along x and y (each sigma >= 1), z untouched. With its levels and offset
  // both given, the chain has its own sigma and ignores the requested one: a candidate only where the
  // two are within a factor of 2 (otherwise it cannot be within tolerance, and measuring a chain of
  // many levels would take gigabytes).
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0 || shape.extent[2] != 1 || !axis_active(spec, shape, 0) || !axis_active(spec, shape, 1) ||
        spec.sigma[2] != 0.0 || std::min(spec.sigma[0], spec.sigma[1]) < kernel::kDualKawaseMinSigma)
      return {};
    if (option_int(spec, "dual_kawase_levels") >= 1 && option_int(spec, "dual_kawase_levels") <= kernel::kDualKawaseMaxLevels &&
        option_value<double>(spec, "dual_kawase_offset") > 0.0 && option_value<double>(spec, "dual_kawase_offset") <= kernel::kDualKawaseMaxOffset) {
      const double own = std::sqrt(kernel::dual_kawase_variance(option_int(spec, "dual_kawase_levels"), option_value<double>(spec, "dual_kawase_offset")));
      for (int a = 0; a < 2; ++a)
        if (std::abs(std::log(own / spec.sigma[static_cast<std::size_t>(a)])) > std::log(2.0)) return {};
    }
    return {with_algorithm(spec, Algorithm::dual_kawase)};
  }
};

}  // namespace

DualKawaseAxis dual_kawase_axis(std::int64_t n, int levels, double d) {
  if (n < 1) throw InvalidArgument("dual_kawase_axis: n must be >= 1");
  (void)kernel::dual_kawase_variance(levels, d);  // validates
  DualKawaseAxis p;
  p.up.resize(static_cast<std::size_t>(levels) + 1);
  p.down.resize(static_cast<std::size_t>(levels) + 1);
  // Relative to the image's first pixel; shifting by whole coarsest texels shifts every level's
  // ranges by whole texels, so the ranges are computed once and moved.
  p.up[0] = {0, n - 1};
  for (int l = 0; l < levels; ++l) p.up[static_cast<std::size_t>(l) + 1] = up_reads(p.up[static_cast<std::size_t>(l)], d);
  p.down[static_cast<std::size_t>(levels)] = p.up[static_cast<std::size_t>(levels)];
  for (int l = levels - 1; l >= 0; --l)
    p.down[static_cast<std::size_t>(l)] = down_reads(p.down[static_cast<std::size_t>(l) + 1], d);
  const std::int64_t block = std::int64_t{1} << levels;
  std::int64_t before = 0, after = 0;
  for (int l = 0; l <= levels; ++l)
    for (const TexelRange& r : {p.up[static_cast<std::size_t>(l)], p.down[static_cast<std::size_t>(l)]}) {
      before = std::max(before, -r.lo << l);
      after = std::max(after, (r.hi + 1) << l);
    }
  before = (before + block - 1) / block * block;
  p.pad.before = before;
  p.pad.size = (before + after + block - 1) / block * block;
  for (int l = 0; l <= levels; ++l) {
    const std::int64_t shift = before >> l;
    for (TexelRange* r : {&p.up[static_cast<std::size_t>(l)], &p.down[static_cast<std::size_t>(l)]})
      r->lo += shift, r->hi += shift;
  }
  return p;
}

DualKawasePadding dual_kawase_padding(std::int64_t n, int levels, double offset) {
  return dual_kawase_axis(n, levels, offset).pad;
}

kernel::DualKawaseSchedule dual_kawase_schedule_for(const BlurSpec& spec) {
  if (spec.sigma[2] != 0.0)
    throw InvalidArgument("dual-kawase blurs 2D images along x and y only: sigma along z is " +
                          std::to_string(spec.sigma[2]) + ", expected 0");
  if (!(spec.sigma[0] > 0.0) || !(spec.sigma[1] > 0.0))
    throw InvalidArgument("dual-kawase blurs x and y together: sigma along x and y must both be >= " +
                          std::to_string(kernel::kDualKawaseMinSigma) + ", got " + std::to_string(spec.sigma[0]) +
                          " and " + std::to_string(spec.sigma[1]));
  return kernel::dual_kawase_schedule(spec.sigma[0], spec.sigma[1], option_int(spec, "dual_kawase_levels"), option_value<double>(spec, "dual_kawase_offset"));
}

const Descriptor& dual_kawase_descriptor() {
  static const DualKawase d;
  return d;
}

}  // namespace fastblur::algo
