// The public entry point: validates, derives radii, and hands the work to the chosen algorithm.
#include <omp.h>

#include <cmath>
#include <string>

#include "cpu/box.hpp"
#include "cpu/downsample.hpp"
#include "cpu/dual_kawase.hpp"
#include "cpu/fft.hpp"
#include "cpu/fir.hpp"
#include "cpu/fir_derivative.hpp"
#include "cpu/kawase.hpp"
#include "cpu/mip_poisson.hpp"
#include "cpu/iir.hpp"
#include "cpu/sliding_dct.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> list{
      {Algorithm::automatic, "auto", "the planner's choice; exact (fir) unless a tolerance allows an approximation"},
      {Algorithm::fir, "fir", "exact separable convolution with the sampled, normalised Gaussian (O(radius) per pixel)"},
      {Algorithm::box, "box", "n passes (1-6, default 3) of a running-sum box per axis, variance exact for any sigma "
                              "(extended box); O(1) per pixel"},
      {Algorithm::kawase, "kawase", "passes of four diagonal bilinear taps (seed 002), offsets solved so the variance "
                                    "is exactly sigma^2; O(passes) per pixel"},
      {Algorithm::downsample, "downsample", "blur at 1/2 or 1/4 resolution and interpolate back (seed 002), sigma "
                                            "compensated for the resampling"},
      {Algorithm::fft, "fft", "exact convolution with fir's kernel in the frequency domain (FFTW); O(log n) per pixel "
                              "whatever the sigma, for very large sigma"},
      {Algorithm::iir, "iir", "recursive Gaussian (Deriche 4th order, or Young-van Vliet 3rd order) per axis, "
                              "sigma >= 0.5; O(1) per pixel"},
      {Algorithm::sliding_dct, "sliding-dct", "the Gaussian as a short cosine series on a window, each term slid by a "
                                              "second-order recurrence (Sugimoto-Kamata); O(order) per pixel, max "
                                              "error 7e-5 at the default order 5"},
      {Algorithm::fir_incremental, "fir-incremental", "fir with weights generated on the fly by forward quotients "
                                                      "(seed 000); Vulkan backend only", false, true},
      {Algorithm::fir_linear, "fir-linear", "fir with tap pairs merged into bilinear texture fetches (seeds 002, 003), "
                                            "half the fetches; 2D, Vulkan backend only", false, true},
      {Algorithm::dual_kawase, "dual-kawase", "Bjorge's dual filtering: half-resolution down and up passes of "
                                              "bilinear taps, 2D only, sigma >= 1, variance exact; max error about "
                                              "0.1 of the peak from sigma 5 (2D: 0.3 to 0.6)", true},
      {Algorithm::mip_poisson, "mip-poisson", "seed 003: a mip chain and a rotated Poisson-disk sample set (32 "
                                              "trilinear fetches per pixel by default), 2D only; noisy, for "
                                              "real-time use", true},
  };
  return list;
}

const AlgorithmInfo& algorithm_info(Algorithm algorithm) {
  for (const auto& a : algorithms())
    if (a.id == algorithm) return a;
  throw InvalidArgument("unknown algorithm id " + std::to_string(static_cast<int>(algorithm)));
}

std::string_view to_string(Algorithm algorithm) noexcept {
  for (const auto& a : algorithms())
    if (a.id == algorithm) return a.name;
  return "?";
}

Algorithm parse_algorithm(std::string_view name) {
  std::string known;
  for (const auto& a : algorithms()) {
    if (a.name == name) return a.id;
    known += (known.empty() ? "" : ", ") + std::string(a.name);
  }
  throw InvalidArgument("unknown algorithm '" + std::string(name) + "': expected one of " + known);
}

bool has_derivative(const BlurSpec& spec) {
  for (std::size_t a = 0; a < 3; ++a) {
    if (spec.order[a] < 0 || spec.order[a] > 64)
      throw InvalidArgument("derivative order along " + std::string(1, "xyz"[a]) + " is " +
                            std::to_string(spec.order[a]) + ": expected 0 to 64");
    if (spec.order[a] != 0 && spec.sigma[a] > 1e-15) return true;
  }
  return false;
}

int effective_radius(const BlurSpec& spec, int axis) {
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  const char* names[] = {"x", "y", "z"};
  if (!std::isfinite(sigma) || sigma < 0.0)
    throw InvalidArgument(std::string("sigma along ") + names[axis] + " is " + std::to_string(sigma) +
                          ": expected a finite value >= 0");
  if (!std::isfinite(spec.truncate) || spec.truncate < 0.0)
    throw InvalidArgument("truncate is " + std::to_string(spec.truncate) + ": expected a finite value >= 0");
  const auto& r = spec.radius[static_cast<std::size_t>(axis)];
  if (r && (*r < 0 || *r > kMaxRadius))
    throw InvalidArgument(std::string("radius along ") + names[axis] + " is " + std::to_string(*r) +
                          ": expected 0.." + std::to_string(kMaxRadius));
  if (sigma <= 1e-15) return 0;  // scipy leaves such an axis alone
  return r ? *r : kernel::radius_from_truncate(sigma, spec.truncate);
}

void blur(const View& src, const View& dst, const BlurSpec& spec) {
  validate_source(src);
  validate_destination(dst);
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("source and destination differ in shape: " + std::to_string(src.width()) + "x" +
                          std::to_string(src.height()) + "x" + std::to_string(src.depth()) + "x" +
                          std::to_string(src.channels) + " vs " + std::to_string(dst.width()) + "x" +
                          std::to_string(dst.height()) + "x" + std::to_string(dst.depth()) + "x" +
                          std::to_string(dst.channels));
  if (spec.threads < 0) throw InvalidArgument("threads is " + std::to_string(spec.threads) + ": expected >= 0");
  // More threads than processors cannot speed up a blur, and OpenMP dies trying to start 100000.
  if (spec.threads > omp_get_num_procs()) {
    BlurSpec capped = spec;
    capped.threads = omp_get_num_procs();
    blur(src, dst, capped);
    return;
  }
  if (!std::isfinite(spec.cval)) throw InvalidArgument("cval must be finite");
  if (spec.algorithm == Algorithm::automatic) {
    const Plan plan = make_plan(spec, src);
    blur(src, dst, plan.spec);
    return;
  }
  const std::array<int, 3> radius{effective_radius(spec, 0), effective_radius(spec, 1), effective_radius(spec, 2)};
  if (has_derivative(spec)) {
    if (spec.algorithm != Algorithm::fir)
      throw InvalidArgument("derivative orders need algorithm fir (or auto), not " +
                            std::string(to_string(spec.algorithm)));
    cpu::fir_derivative_blur(src, dst, spec, radius);
    return;
  }
  switch (spec.algorithm) {
    case Algorithm::automatic:  // planned above
    case Algorithm::fir:
      cpu::fir_blur(src, dst, spec, radius);
      return;
    case Algorithm::box:
      if (spec.box_passes < 0 || spec.box_passes > 6)
        throw InvalidArgument("box_passes is " + std::to_string(spec.box_passes) + ": expected 1 to 6 (0 = default 3)");
      cpu::box_blur(src, dst, spec, spec.box_passes == 0 ? 3 : spec.box_passes);
      return;
    case Algorithm::kawase:
      cpu::kawase_blur(src, dst, spec);
      return;
    case Algorithm::downsample:
      cpu::downsample_blur(src, dst, spec);
      return;
    case Algorithm::fft:
      cpu::fft_blur(src, dst, spec);
      return;
    case Algorithm::iir:
      cpu::iir_blur(src, dst, spec);
      return;
    case Algorithm::sliding_dct:
      cpu::sliding_dct_blur(src, dst, spec);
      return;
    case Algorithm::fir_incremental:  // GPU techniques
    case Algorithm::fir_linear:
      throw Unsupported("algorithm " + std::string(to_string(spec.algorithm)) +
                        " runs on the Vulkan backend only (--device vulkan; Device::vulkan() in the API); on the "
                        "CPU, fir computes the same convolution");
    case Algorithm::dual_kawase:
      cpu::dual_kawase_blur(src, dst, spec);
      return;
    case Algorithm::mip_poisson:
      cpu::mip_poisson_blur(src, dst, spec);
      return;
  }
  throw Unsupported("algorithm " + std::string(to_string(spec.algorithm)) + " is not available on the CPU");
}

}  // namespace fastblur
