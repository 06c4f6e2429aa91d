// kawase (seed 002): passes of four diagonal bilinear taps. A pass is the product of two 1D passes
// (half a bilinear fetch at -d and half at +d per axis), so the CPU runs it per axis; the GPU runs the
// 2D passes on textures. The schedule's offsets are solved so the variances sum to sigma^2 exactly
// (the seed's open problem), or given.
#include "algorithms/kawase.hpp"
#include "algorithms/gpu_passes.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

#include "algorithms/cost_model.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {

std::int64_t kawase_reach(const std::vector<double>& offsets) {
  std::int64_t pad = 0;
  for (double d : offsets) pad += static_cast<std::int64_t>(std::floor(d)) + 1;
  return pad;
}

bool kawase_pairs_passes(const Plan& plan) {
  return plan.algorithm == Algorithm::kawase && plan.schedule.gpu[0].block == kKawasePassesPaired;
}

std::string kawase_pair_shader(const Plan& plan) {
  constexpr std::string_view kPass = "kawase_pass";
  const std::string& pass = plan.schedule.gpu[0].shader;
  return pass.rfind(kPass, 0) == 0 ? "kawase_pair" + pass.substr(kPass.size()) : std::string();
}

std::vector<int> kawase_dispatches(const std::array<std::vector<double>, 3>& offsets, bool paired) {
  const std::size_t passes = std::max(offsets[0].size(), offsets[1].size());
  const auto fits = [&](std::size_t i) {
    for (std::size_t a = 0; a < 2; ++a)
      if (i < offsets[a].size() && std::floor(offsets[a][i]) + 1 > kKawasePairHalo) return false;
    return true;
  };
  std::vector<int> out;
  for (std::size_t i = 0; i < passes;) {
    const int n = paired && i + 1 < passes && fits(i + 1) ? 2 : 1;
    out.push_back(n);
    i += static_cast<std::size_t>(n);
  }
  return out;
}

namespace {

// CPU, per pass and padded sample: four taps in double one line at a time, or in float lanes.
constexpr double kPerPassLines = 2.75;
constexpr double kPerPassLanes = 0.87;  // fitted to algo/kawase/RGBA32F/1920x1080/s5-s50

std::vector<double> offsets_for(const BlurSpec& spec, double sigma) {
  const auto offsets = option_value<std::vector<double>>(spec, "kawase_offsets");
  return offsets.empty() ? kernel::kawase_schedule(sigma, option_int(spec, "kawase_passes")) : offsets;
}

class Kawase final : public Descriptor {
 public:
  Kawase()
      : Descriptor(
            {Algorithm::kawase, "kawase",
             "passes of four diagonal bilinear taps (seed 002, Intel's fast-blur article), offsets solved so the variance is exactly sigma^2; "
             "O(passes) per pixel",
             "Masaki Kawase's bloom filter: each pass averages four bilinear fetches at (+-d, +-d), so a GPU reads "
             "16 texels with 4 fetches. The offsets grow like Kawase's own (d_i = c (i + 1/2)), c solved so the "
             "passes' variances sum to sigma^2; seed 002's presets {0,1,2,2,3} and {2,3,3,3} as --offsets. The CPU "
             "extends the image once by the border (as fir); the GPU blurs 2D images (their passes' images in "
             "float16 where a measured profile says so and the source is 8-bit or float16: each pass rounded "
             "to 2^-11 of its values; or 8-bit normalized for an 8-bit source: each pass but the last "
             "rounded to 1/255 of the range, which the prediction adds; or two passes a dispatch, the "
             "first's results through shared memory).",
             Capabilities{.separable = true, .max_dimensions = 3, .vulkan_volumes = false, .texture_filtering = true}},
            {option({.key = "kawase_passes", .flag = "passes", .kind = ParameterInfo::Kind::integer,
                    .doc = "passes of the solved schedule", .default_text = "chosen for sigma", .min = 1,
                    .max = 4096, .zero_chooses = true}),
             option({.key = "kawase_offsets", .flag = "offsets", .kind = ParameterInfo::Kind::real_list,
                    .doc = "explicit pass offsets in pixels, e.g. 0.5,1.5,2.5,2.5,3.5 (Intel's fast-blur article, seed 002: {0,1,2,2,3}); "
                           "the achieved sigma is then the schedule's",
                    .default_text = "solved for sigma", .min = 0, .max = 1e6})}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<KawaseResolved>();
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      auto& offsets = r->offsets[static_cast<std::size_t>(a)];
      if (ax.sigma > kSigmaCutoff) {
        offsets = offsets_for(spec, ax.sigma);
        ax.support = kawase_reach(offsets);
        double v = 0.0;
        for (double d : offsets) v += kernel::kawase_pass_variance(d);
        ax.achieved_sigma = std::sqrt(v);
      }
      add_parameter(plan, "kawase_offsets", offsets, a);
    }
    plan.resolved = std::move(r);
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = float_lanes_allowed(plan.spec, shape) ? CpuDriver::lanes : CpuDriver::lines;
    schedule_image_gpu(plan, shape, "kawase_pass");
  }

  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
    const auto offsets = option_value<std::vector<double>>(spec, "kawase_offsets");
    if (!offsets.empty()) return EquivalentKernel{kernel::kawase_kernel(offsets), sigma};
    const double s = std::min(sigma, kLargeSigma);
    return EquivalentKernel{kernel::kawase_kernel(kernel::kawase_schedule(s, option_int(spec, "kawase_passes"))), s};
  }

  // On the GPU each dispatch filters both axes, image to image: every dispatch's result but the
  // last's is stored (counted on the first filtered axis).
  std::array<int, 3> image_roundings(const Plan& plan) const override {
    const auto dispatches = kawase_dispatches(resolved_as<KawaseResolved>(plan).offsets, kawase_pairs_passes(plan)).size();
    return on_first_filtered_axis(plan, std::max(0, static_cast<int>(dispatches) - 1));
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    const auto& offsets = resolved_as<KawaseResolved>(plan).offsets[static_cast<std::size_t>(axis)];
    const double passes = static_cast<double>(offsets.size());
    if (plan.schedule.backend == Backend::vulkan) return 0.5 + 0.6 * passes;  // padding, then 4 fetches a pass
    const double pad = static_cast<double>(kawase_reach(offsets));
    if (plan.schedule.driver == CpuDriver::lanes)
      return cost::lane_axis(shape.channels, axis, kPerPassLanes * passes * padded_ratio(shape, axis, pad), shape.source, shape.destination);
    return (cost::kLineDriver + kPerPassLines * passes) * padded_ratio(shape, axis, pad);
  }

  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape&) const override {
    if (spec.tolerance <= 0.0) return {};
    return {with_algorithm(spec, Algorithm::kawase)};
  }
};

}  // namespace

const Descriptor& kawase_descriptor() {
  static const Kawase d;
  return d;
}

}  // namespace fastblur::algo
