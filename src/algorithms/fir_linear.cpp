// fir-linear (seeds 002, 003): fir with adjacent taps merged into one bilinear texture fetch (weight
// w1 + w2 at offset (o1 w1 + o2 w2) / (w1 + w2)): half the fetches. Vulkan only, 2D images; exact up
// to the sampler's sub-texel precision.
#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"

namespace fastblur::algo {
namespace {

class FirLinear final : public Descriptor {
 public:
  FirLinear()
      : Descriptor({Algorithm::fir_linear, "fir-linear",
                    "fir with tap pairs merged into bilinear texture fetches (seeds 002 and 003: the Intel and convolution-optimisation articles), half the fetches; 2D, "
                    "Vulkan backend only",
                    "The linear-sampling trick: a pair of taps becomes one fetch of the texture unit's linear "
                    "interpolation, so a kernel of 2r + 1 taps needs about r + 1 fetches. Exact up to the sampler's "
                    "sub-texel precision (8 bits on most GPUs: an error of at most 1/512 of the data's range per "
                    "pass), and, where the plan keeps the 4-channel images of an 8-bit or float16 source in "
                    "float16 (a measured profile's choice), the x pass's rounding (at most 1/2048 of the data's "
                    "range more). The image is padded once by the border modes. Vulkan backend, 2D images.",
                    Capabilities{.separable = true, .max_dimensions = 2, .cpu = false, .vulkan = true,
                                 .vulkan_volumes = false, .texture_filtering = true}},
                   {}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override { resolve_gaussian_radii(spec, plan); }

  // The Vulkan backend only (Capabilities::cpu false): the line driver is never run.
  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = CpuDriver::lines;
    schedule_image_gpu(plan, shape, "fir_linear");
  }

  // The same kernel as fir up to the sampler's sub-texel precision.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    return gaussian_equivalent_kernel(spec, axis);
  }

  // A padding pass shared by the axes, then half the taps as texture fetches.
  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    const int r = plan.axes[static_cast<std::size_t>(axis)].radius;
    return plan.schedule.backend == Backend::vulkan ? 1.5 + 0.04 * (r / 2 + 1) : 5.0 + (r + 1);
  }
};

}  // namespace

const Descriptor& fir_linear_descriptor() {
  static const FirLinear d;
  return d;
}

}  // namespace fastblur::algo
