// mip-poisson (seed 003): a prefiltered mip chain of the image, sampled per pixel by a fixed
// Poisson-disk set rotated by interleaved gradient noise, each sample fetched trilinearly at the
// level matching its share of the disk. Planar (x and y together); a noisy approximation for
// real-time use; the variance is solved to sigma^2 (kernel_mip_poisson.hpp).
#include "algorithms/mip_poisson.hpp"
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

// CPU (half on each of x and y): per sample a rotation and two trilinear fetches.
constexpr double kBase = 20.0;
constexpr double kPerSample = 32.0;

bool all_zero(const BlurSpec& spec) { return !(spec.sigma[0] > 0.0 || spec.sigma[1] > 0.0 || spec.sigma[2] > 0.0); }

int samples_of(const BlurSpec& spec) {
  const int samples = option_int(spec, "mip_poisson_samples");
  return samples ? samples : kernel::kMipPoissonDefaultSamples;
}

class MipPoisson final : public Descriptor {
 public:
  MipPoisson()
      : Descriptor(
            {Algorithm::mip_poisson, "mip-poisson",
             "the convolution-optimisation article (seed 003): a mip chain and a rotated Poisson-disk sample set (32 trilinear fetches per pixel by "
             "default), 2D only; noisy, for real-time use",
             "Seed 003's prefiltered blur: a [1 3 3 1] mip chain of the image, a radially stratified Poisson-disk "
             "set of the Gaussian, each sample fetched trilinearly at the level of its share of the disk, the set "
             "rotated per pixel by interleaved gradient noise (frame moves it, so accumulated frames average the "
             "noise away). Variance solved to sigma^2; its noise makes the 2D max error 0.4 to 0.6 at one frame "
             "(PSNR 38 to 49 dB on the test scene). 2D images.",
             Capabilities{.separable = false, .max_dimensions = 2, .vulkan_volumes = false, .texture_filtering = true}},
            {option({.key = "mip_poisson_samples", .flag = "samples", .kind = ParameterInfo::Kind::integer,
                    .doc = "samples per pixel", .default_text = "32",
                    .min = kernel::kMipPoissonMinSamples, .max = kernel::kMipPoissonMaxSamples, .multiple_of = 4,
                    .zero_chooses = true}),
             option({.key = "mip_poisson_frame", .flag = "frame", .kind = ParameterInfo::Kind::integer,
                    .doc = "frame index that moves the rotation noise (for temporal accumulation)",
                    .default_text = "0", .min = -2147483648.0, .max = 2147483647.0})}) {}

  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    if (!all_zero(spec)) (void)mip_poisson_schedule_for(spec);
  }

  void resolve(const BlurSpec& spec, const Shape& shape, Plan& plan) const override {
    auto r = std::make_shared<MipPoissonResolved>();
    if (!all_zero(spec)) {
      r->schedule = mip_poisson_schedule_for(spec);
      const kernel::MipPoissonSchedule& s = r->schedule;
      add_parameter(plan, "mip_poisson_samples", static_cast<std::int64_t>(s.samples.size()));
      add_parameter(plan, "max_level", std::int64_t{s.max_level});
      for (int a = 0; a < 2; ++a) {
        AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
        ax.support = mip_poisson_padding(shape.extent[static_cast<std::size_t>(a)], s).before;
        ax.align = std::int64_t{1} << s.max_level;
        ax.achieved_sigma = ax.sigma;  // on average over rotations and phases
        add_parameter(plan, "scale", s.scale[static_cast<std::size_t>(a)], a);
      }
    }
    plan.resolved = std::move(r);
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = CpuDriver::planar;
    schedule_image_gpu(plan, shape, "mip_poisson");
  }

  // The 2D max error of one frame's response to an impulse (the rotation noise has no closed form),
  // computed in the kernel layer at the executor's coordinates (the image at its padding's start).
  double planar_error(const BlurSpec& spec) const override {
    return measured_planar_error(spec, [](const BlurSpec& s, int n) {
      const kernel::MipPoissonSchedule k = mip_poisson_schedule_for(s);
      const std::int64_t before = mip_poisson_padding(n, k).before;
      return kernel::mip_poisson_impulse_response(k, option_int(s, "mip_poisson_frame"), n, n, n / 2, n / 2,
                                                  {before, before});
    });
  }

  double axis_cost(const Plan& plan, const Shape&, int) const override {
    const double samples = samples_of(plan.spec);
    if (plan.schedule.backend == Backend::vulkan) return 0.7 + 0.01 * samples;
    return kBase + kPerSample / 2 * samples;
  }

  // For 2D images blurred along x and y, z untouched; any sigma > 0.
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0 || shape.extent[2] != 1 || !axis_active(spec, shape, 0) || !axis_active(spec, shape, 1) ||
        spec.sigma[2] != 0.0)
      return {};
    return {with_algorithm(spec, Algorithm::mip_poisson)};
  }
};

}  // namespace

MipPoissonPadding mip_poisson_padding(std::int64_t n, const kernel::MipPoissonSchedule& s) {
  const std::int64_t block = std::int64_t{1} << s.max_level;
  // Every fetch stays inside: the set's reach plus a texel and a half of the deepest level.
  double reach = 0.0;
  for (const auto& p : s.samples) reach = std::max(reach, std::hypot(p.x, p.y));
  reach = reach * std::max(s.scale[0], s.scale[1]) + 2.0 * static_cast<double>(block) + 2.0;
  if (!(reach < 1e9)) throw OutOfMemory("mip-poisson: the sample set reaches too far to pad the image");
  const std::int64_t r = static_cast<std::int64_t>(std::ceil(reach));
  MipPoissonPadding p;
  p.before = (r + block - 1) / block * block;
  p.size = (p.before + n + r + block - 1) / block * block;
  return p;
}

kernel::MipPoissonSchedule mip_poisson_schedule_for(const BlurSpec& spec) {
  if (spec.sigma[2] != 0.0)
    throw InvalidArgument("mip-poisson blurs 2D images along x and y only: sigma along z is " +
                          std::to_string(spec.sigma[2]) + ", expected 0");
  if (!(spec.sigma[0] > 0.0) || !(spec.sigma[1] > 0.0))
    throw InvalidArgument("mip-poisson blurs x and y together: sigma along x and y must both be > 0, got " +
                          std::to_string(spec.sigma[0]) + " and " + std::to_string(spec.sigma[1]));
  return kernel::mip_poisson_schedule(spec.sigma[0], spec.sigma[1], option_int(spec, "mip_poisson_samples"));
}

const Descriptor& mip_poisson_descriptor() {
  static const MipPoisson d;
  return d;
}

}  // namespace fastblur::algo
