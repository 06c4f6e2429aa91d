// correlate: separable correlation with the caller's own 1D weights (scipy.ndimage.correlate1d along
// each axis with a sigma), every border, type and driver of fir. Its kernel is data: the descriptor
// puts the weights in the plan (AxisPlan::weights) and fir's executors run them, so it has no
// executor, recorder or shader of its own.
#include <cmath>

#include "algorithms/descriptor.hpp"
#include "fastblur/error.hpp"

namespace fastblur::algo {
namespace {

constexpr std::string_view kWeights = "correlate_weights";

bool symmetric_odd(const std::vector<double>& w) {
  if (w.size() % 2 == 0) return false;
  for (std::size_t k = 0; k < w.size() / 2; ++k)
    if (w[k] != w[w.size() - 1 - k]) return false;
  return true;
}

// The kernel's sum, its second moment about the centre tap (n/2) and whether every weight is >= 0.
struct Moments {
  double sum = 0.0, second = 0.0;
  bool non_negative = true;
};
Moments moments(const std::vector<double>& w) {
  Moments m;
  const double r = static_cast<double>(w.size() / 2);
  for (std::size_t k = 0; k < w.size(); ++k) {
    const double d = static_cast<double>(k) - r;
    m.sum += w[k];
    m.second += w[k] * d * d;
    m.non_negative &= w[k] >= 0.0;
  }
  return m;
}

class Correlate final : public Descriptor {
 public:
  Correlate()
      : Descriptor(
            {Algorithm::correlate, "correlate",
             "separable correlation with the caller's 1D weights (scipy.ndimage.correlate1d on each axis with a sigma)",
             "Correlates every axis whose sigma is above 0 with correlate_weights: n values, output i = sum over k of "
             "weights[k] in[i - n/2 + k], as scipy.ndimage.correlate1d at origin 0; any weights (a binomial, a "
             "derivative, a sharpening kernel), every border. Without weights, fir's sampled Gaussian of each axis's "
             "sigma (the sigma is otherwise not used). Symmetric odd kernels run on "
             "fir's SIMD passes (the CPU and Vulkan); others on the CPU's line driver in double. rounding scipy gives "
             "correlate1d's bits.",
             Capabilities{.separable = true, .max_dimensions = 3, .scipy_rounding = true}},
            {option({.key = kWeights, .flag = "weights", .kind = ParameterInfo::Kind::real_list,
                     .doc = "the 1D correlation weights, applied along every axis with a sigma (at most 2^25 values)",
                     .default_text = "fir's Gaussian for each axis's sigma", .min = -1e30, .max = 1e30})}) {}

  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    const auto w = option_value<std::vector<double>>(spec, kWeights);
    if (w.empty()) return;  // fir's Gaussian
    if (w.size() > 2 * static_cast<std::size_t>(kMaxRadius) + 1)
      throw InvalidArgument("correlate_weights has " + std::to_string(w.size()) + " values: expected at most " +
                            std::to_string(2 * static_cast<std::int64_t>(kMaxRadius) + 1));
    if (shape.backend == Backend::vulkan && !symmetric_odd(w))
      throw Unsupported("correlate on the Vulkan backend takes symmetric weights of odd length (the GPU's fir "
                        "passes); these run on the CPU");
  }

  void resolve(const BlurSpec& spec, const Shape& shape, Plan& plan) const override {
    if (option_value<std::vector<double>>(spec, kWeights).empty()) {
      descriptor(Algorithm::fir).resolve(spec, shape, plan);
      return;
    }
    const auto w = std::make_shared<const std::vector<double>>(option_value<std::vector<double>>(spec, kWeights));
    const Moments m = moments(*w);
    const int r = static_cast<int>(w->size() / 2);
    for (AxisPlan& ax : plan.axes) {
      if (!(ax.sigma > kSigmaCutoff)) continue;
      ax.radius = r;
      // A one-sample line is left alone only by weights that sum to one; others scale it, as SciPy's.
      ax.active = ax.active || std::abs(m.sum - 1.0) >= 1e-12;
      ax.support = ax.active ? r : 0;
      ax.weights = w;
      ax.achieved_sigma = m.non_negative && m.sum > 0.0 ? std::sqrt(m.second / m.sum) : 0.0;
    }
    add_parameter(plan, std::string(kWeights), *w);
  }

  // fir's drivers where the kernel is symmetric of odd length (fir's SIMD passes and fixed point,
  // SciPy's order); the line driver in double for any other.
  void schedule(Plan& plan, const Shape& shape) const override {
    bool symmetric = true;
    for (const AxisPlan& ax : plan.axes) symmetric &= !ax.weights || symmetric_odd(*ax.weights);
    if (shape.backend == Backend::cpu && plan.spec.rounding != Rounding::scipy && !symmetric) {
      plan.schedule.driver = CpuDriver::lines;
      plan.schedule.intermediate = ElementType::f64;
      return;
    }
    descriptor(Algorithm::fir).schedule(plan, shape);
  }

  // Compared with the Gaussian of the kernel's own sigma where it is one's shape (non-negative, odd
  // length; fir's without weights); other kernels are no Gaussian: sigma NaN, their error NaN.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    auto w = option_value<std::vector<double>>(spec, kWeights);
    if (w.empty()) return gaussian_equivalent_kernel(spec, axis);
    if (w.size() > 8193) return std::nullopt;
    const Moments m = moments(w);
    if (w.size() % 2 == 0 || !m.non_negative || !(m.sum > 0.0) || !(m.second > 0.0))
      return EquivalentKernel{w, std::nan("")};
    for (double& v : w) v /= m.sum;
    return EquivalentKernel{w, std::sqrt(m.second / m.sum)};
  }

  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    const auto& ax = plan.axes[static_cast<std::size_t>(axis)];
    const double taps = ax.weights ? static_cast<double>(ax.weights->size()) : 1.0;
    if (plan.schedule.backend == Backend::vulkan) return 1.0 + 0.01 * taps;
    if (plan.schedule.driver == CpuDriver::lines || plan.schedule.driver == CpuDriver::scipy_order)
      return 2.0 * (5.0 + taps);
    return 5.0 + 0.5 * taps;
  }
};

}  // namespace

const Descriptor& correlate_descriptor() {
  static const Correlate d;
  return d;
}

}  // namespace fastblur::algo
