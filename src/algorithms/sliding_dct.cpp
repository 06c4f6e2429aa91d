// sliding-dct (Sugimoto and Kamata 2013, beyond the seeds): the Gaussian on a window as a short
// cosine series, each term slid along the line by a second-order recurrence; O(order) per sample
// whatever the sigma, more accurate than Deriche at order 5.
#include "algorithms/sliding_dct.hpp"

#include <algorithm>
#include <memory>

#include "algorithms/cost_model.hpp"

namespace fastblur::algo {
namespace {

// CPU per cosine term and sample: one recurrence step and one output multiply-add, in double one line
// at a time or in double lanes (several lines per vector).
constexpr double kPerTermLines = 11.5;
constexpr double kPerTermLanes = 1.5;  // fitted to algo/sliding-dct/RGBA32F/1920x1080/s5-s50

int order_of(const BlurSpec& spec) {
  return spec.sliding_dct_order ? spec.sliding_dct_order : kernel::kSlidingDctDefaultOrder;
}

class SlidingDct final : public Descriptor {
 public:
  SlidingDct()
      : Descriptor(
            {Algorithm::sliding_dct, "sliding-dct",
             "the Gaussian as a short cosine series on a window, each term slid by a second-order recurrence "
             "(Sugimoto-Kamata); O(order) per pixel, max error 7e-5 at the default order 5",
             "The Gaussian on a window of 2R+1 samples written as its first K+1 DFT terms; convolving a line with "
             "one term obeys a second-order recurrence (the shift property of DCT-5), restarted directly every 4096 "
             "samples since it is marginally stable. Max error 2.3e-3 at order 3, 5e-4 at 4, 7e-5 at 5, 2e-5 at 6. "
             "Every border is exact (the line driver extends lines). CPU only.",
             Capabilities{.separable = true, .max_dimensions = 3, .cpu = true, .vulkan = false}},
            {field({.key = "sliding_dct_order", .flag = "sdct-order", .kind = ParameterInfo::Kind::integer,
                    .doc = "cosine terms after the constant one (max error 2.3e-3 at 3, 5e-4 at 4, 7e-5 "
                           "at 5, 2e-5 at 6)",
                    .default_text = "5", .min = kernel::kSlidingDctMinOrder, .max = kernel::kSlidingDctMaxOrder,
                    .zero_chooses = true},
                   &BlurSpec::sliding_dct_order)}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<SlidingDctResolved>();
    plan.spec.sliding_dct_order = order_of(spec);
    add_parameter(plan, "sliding_dct_order", std::int64_t{order_of(spec)});
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > 1e-15)) continue;
      const kernel::SlidingDctKernel k = kernel::sliding_dct_kernel(ax.sigma, spec.sliding_dct_order);
      ax.support = k.radius + 1;  // the recurrence reads one sample beyond the window
      ax.achieved_sigma = ax.sigma;
      add_parameter(plan, "window_radius", std::int64_t{k.radius}, a);
      r->axes[static_cast<std::size_t>(a)] = k;
    }
    plan.resolved = std::move(r);
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = float_lanes_allowed(plan.spec, shape) ? CpuDriver::lanes : CpuDriver::lines;
  }

  // An FIR kernel exactly: its cosine series on the window.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double s = std::min(spec.sigma[static_cast<std::size_t>(axis)], kLargeSigma);
    return EquivalentKernel{kernel::sliding_dct_weights(kernel::sliding_dct_kernel(s, spec.sliding_dct_order)), s};
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    if (plan.schedule.backend != Backend::cpu) return 1e9;
    const double terms = order_of(plan.spec) + 1;
    // The window reaches about 4.4 sigma each side (kernel::sliding_dct_kernel's radius).
    const double pad = 4.4 * plan.axes[static_cast<std::size_t>(axis)].sigma + 1.0;
    if (plan.schedule.driver == CpuDriver::lanes)
      return cost::kLaneDriver + kPerTermLanes * terms * padded_ratio(shape, axis, pad);
    return (cost::kLineDriver + 3.0 + kPerTermLines * terms) * padded_ratio(shape, axis, pad);
  }

  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape&) const override {
    if (spec.tolerance <= 0.0) return {};
    std::vector<BlurSpec> out;
    for (int order = kernel::kSlidingDctMinOrder; order <= kernel::kSlidingDctMaxOrder; ++order) {
      BlurSpec s = with_algorithm(spec, Algorithm::sliding_dct);
      s.sliding_dct_order = order;
      out.push_back(s);
    }
    return out;
  }
};

}  // namespace

const Descriptor& sliding_dct_descriptor() {
  static const SlidingDct d;
  return d;
}

}  // namespace fastblur::algo
