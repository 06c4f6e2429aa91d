// The CPU backend's executors, registered by algorithm id.
#include "cpu/execute.hpp"

#include <array>
#include <string>
#include <utility>

#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

constexpr std::array<std::pair<Algorithm, Executor>, 9> kExecutors{{
    {Algorithm::fir, fir_blur},
    {Algorithm::fft, fft_blur},
    {Algorithm::box, box_blur},
    {Algorithm::kawase, kawase_blur},
    {Algorithm::downsample, downsample_blur},
    {Algorithm::iir, iir_blur},
    {Algorithm::sliding_dct, sliding_dct_blur},
    {Algorithm::dual_kawase, dual_kawase_blur},
    {Algorithm::mip_poisson, mip_poisson_blur},
}};

}  // namespace

Executor executor(Algorithm algorithm) noexcept {
  for (const auto& [id, run] : kExecutors)
    if (id == algorithm) return run;
  return nullptr;
}

void execute(const Plan& plan, const View& src, const View& dst) {
  // Nothing to blur: a converted copy (fir with no axis reads every element once, as every blur does).
  if (!(plan.spec.sigma[0] > 1e-15 || plan.spec.sigma[1] > 1e-15 || plan.spec.sigma[2] > 1e-15)) {
    fir_blur(plan, src, dst);
    return;
  }
  const Executor run = executor(plan.algorithm);
  if (!run) throw Unsupported("algorithm " + std::string(to_string(plan.algorithm)) + " is not available on the CPU");
  run(plan, src, dst);
}

}  // namespace fastblur::cpu
