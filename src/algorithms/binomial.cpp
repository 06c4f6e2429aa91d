// binomial: seed 003's binomial kernels (repeated [1 1]/2, C(n, k) / 2^n, variance n/4) as a blur,
// the order chosen for each axis's sigma. Its kernel is data: the descriptor puts the weights in the
// plan and fir's executors and recorder run them (the fixed-point, SIMD and Vulkan passes), so it has
// no executor, recorder or shader of its own.
#include <cmath>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {
namespace {

constexpr std::string_view kOrder = "binomial_order";
constexpr int kMaxOrder = 40000;  // sigma 100: 40001 taps

// The even order (a centred kernel of odd length) whose variance n/4 is nearest sigma^2, or the spec's.
int order_for(const BlurSpec& spec, double sigma) {
  const int given = option_int(spec, kOrder);
  if (given > 0) return given;
  return std::max(2, 2 * static_cast<int>(std::lround(2.0 * sigma * sigma)));
}

class Binomial final : public Descriptor {
 public:
  Binomial()
      : Descriptor(
            {Algorithm::binomial, "binomial",
             "binomial kernel C(n, k) / 2^n per axis, n = 4 sigma^2 rounded to even (seed 003, the convolution-optimisation article); fir's passes",
             "Seed 003's binomial kernels: n repeated [1 1]/2 averages, variance exactly n/4, so the kernel tends to the "
             "Gaussian of sigma sqrt(n)/2 (max error about 0.05 / sigma^2 of the peak); integer-friendly weights. The "
             "order is the even n nearest 4 sigma^2 (a kernel of n + 1 taps, reaching n/2 = 2 sigma^2), so it costs "
             "more than fir beyond sigma 2; runs on fir's passes, the CPU's and the GPU's.",
             Capabilities{.separable = true, .max_dimensions = 3, .min_sigma = 0.5, .max_sigma = 100.0}},
            {option({.key = kOrder, .flag = "binomial-order", .kind = ParameterInfo::Kind::integer,
                     .doc = "the binomial order n (n + 1 taps, sigma sqrt(n)/2), the same on every axis",
                     .default_text = "the even n nearest 4 sigma^2", .min = 2, .max = kMaxOrder, .multiple_of = 2,
                     .zero_chooses = true})}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > kSigmaCutoff)) continue;
      const int n = order_for(spec, ax.sigma);
      ax.radius = n / 2;
      ax.support = ax.active ? ax.radius : 0;
      ax.weights = std::make_shared<const std::vector<double>>(kernel::binomial_weights(n));
      ax.achieved_sigma = std::sqrt(static_cast<double>(n)) / 2.0;
      add_parameter(plan, std::string(kOrder), std::int64_t{n}, a);
    }
  }

  void schedule(Plan& plan, const Shape& shape) const override { descriptor(Algorithm::fir).schedule(plan, shape); }

  // Compared with the Gaussian of the spec's sigma (evaluated up to kLargeSigma, where the shape
  // error no longer changes).
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double sigma = std::min(spec.sigma[static_cast<std::size_t>(axis)], kLargeSigma);
    const int n = option_int(spec, kOrder) > 0 ? option_int(spec, kOrder) : order_for(spec, sigma);
    if (n > 8192) return std::nullopt;
    return EquivalentKernel{kernel::binomial_weights(n), spec.sigma[static_cast<std::size_t>(axis)] > kLargeSigma ? sigma : spec.sigma[static_cast<std::size_t>(axis)]};
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    return descriptor(Algorithm::fir).axis_cost(plan, shape, axis);  // fir's passes over n/2 tap pairs
  }
};

}  // namespace

const Descriptor& binomial_descriptor() {
  static const Binomial d;
  return d;
}

}  // namespace fastblur::algo
