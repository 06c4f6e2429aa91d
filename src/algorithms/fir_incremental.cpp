// fir-incremental (seed 000, GPU Gems 3 ch. 40): fir whose weights each GPU thread generates on the
// fly by forward quotients (g0 *= g1, g1 *= g2) instead of reading a table. Vulkan only: on the CPU
// fir computes the same convolution from its table.
#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"

namespace fastblur::algo {
namespace {

class FirIncremental final : public Descriptor {
 public:
  FirIncremental()
      : Descriptor({Algorithm::fir_incremental, "fir-incremental",
                    "fir with weights generated on the fly by forward quotients (seed 000, GPU Gems 3 ch. 40); Vulkan backend only",
                    "Seed 000's incremental Gaussian: samples of the Gaussian generated in float32 by two "
                    "multiplications per tap, no weight table; the recurrence's float error stays within 1/256 of the "
                    "centre weight. Runs the Vulkan backend's fir shader; the CPU throws Unsupported.",
                    Capabilities{.separable = true, .max_dimensions = 3, .cpu = false, .vulkan = true}},
                   {}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override { resolve_gaussian_radii(spec, plan); }

  void schedule(Plan& plan, const Shape& shape) const override {
    Descriptor::schedule(plan, shape);
    schedule_fir_gpu(plan, shape);  // fir's passes, the weights generated in the shader
  }

  // The same kernel as fir up to the recurrence's float error.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    return gaussian_equivalent_kernel(spec, axis);
  }

  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    const int r = plan.axes[static_cast<std::size_t>(axis)].radius;
    return plan.schedule.backend == Backend::vulkan ? 1.0 + 0.03 * (r + 1) : 5.0 + (r + 1);
  }
};

}  // namespace

const Descriptor& fir_incremental_descriptor() {
  static const FirIncremental d;
  return d;
}

}  // namespace fastblur::algo
