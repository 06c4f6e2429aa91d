// fft: fir's exact convolution computed per line in the frequency domain (FFTW, double); cost
// O(log n) per pixel whatever the radius (seed 001 cites it for very large sigma).
#include <algorithm>
#include <cmath>

#include "algorithms/cost_model.hpp"
#include "algorithms/descriptor.hpp"

namespace fastblur::algo {
namespace {

// Transforms cost about k log2(n) per sample; FFTW's real-to-real DCTs (reflect, mirror) are not
// vectorised, about 2.5 times the real-to-complex transforms of the other borders.
constexpr double kFftPerLog2 = 2.8;
constexpr double kDctPerLog2 = 7.0;
// And a line's own overhead (its plan's execution, the copies in and out), shared by its samples:
// negligible on long lines, the whole cost on short ones - an RGB array's channel axis given one
// sigma 30 (3 samples a line) took 185 ms for 6.2M samples, 2 threads (bench/RESULTS.md, issue 43).
constexpr double kFftPerLine = 2300.0;

class Fft final : public Descriptor {
 public:
  Fft()
      : Descriptor({Algorithm::fft, "fft",
                    "exact convolution with fir's kernel in the frequency domain (FFTW); O(log n) per pixel "
                    "whatever the sigma, for very large sigma",
                    "The same weights and radius as fir, applied per line as a product of spectra whose implied "
                    "extension is exactly the border mode's (DCTs for reflect and mirror, a circular transform for "
                    "wrap, a linear one plus closed-form tails for nearest and constant). FFTW's planner is not "
                    "thread-safe: a program that makes FFTW plans of its own on other threads at the same time as "
                    "a blur must serialise them itself. CPU only.",
                    Capabilities{.separable = true, .max_dimensions = 3, .derivatives = false, .exact = true,
                                 .cpu = true, .vulkan = false}},
                   {}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    resolve_gaussian_radii(spec, plan, /*fold=*/true);
  }

  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    return gaussian_equivalent_kernel(spec, axis);
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    if (plan.schedule.backend != Backend::cpu) return 1e9;
    const auto i = static_cast<std::size_t>(axis);
    const bool dct = plan.axes[i].border == Border::reflect || plan.axes[i].border == Border::mirror;
    const double n = static_cast<double>(shape.extent[i]) + (dct ? 0.0 : 2.0 * plan.axes[i].radius);
    return cost::kLineDriver + (dct ? kDctPerLog2 : kFftPerLog2) * std::log2(std::max(2.0, n)) +
           kFftPerLine / std::max(1.0, static_cast<double>(shape.extent[i]));
  }

  // Exact: weighed at every tolerance, 0 included.
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape&) const override {
    BlurSpec s = with_algorithm(spec, Algorithm::fft);
    return {s};
  }
};

}  // namespace

const Descriptor& fft_descriptor() {
  static const Fft d;
  return d;
}

}  // namespace fastblur::algo
