#pragma once
// The CPU backend's side of the registry: an executor per algorithm id, each running a resolved plan
// (src/algorithms/ resolves, the CPU only executes).
#include "fastblur/plan.hpp"

namespace fastblur::cpu {

/// Runs a resolved CPU plan on views of its shape. src and dst may be the same view (in place) or
/// apart; overlapping views that are not the same are resolved by the front door before this.
using Executor = void (*)(const Plan& plan, const View& src, const View& dst);

/// The CPU's executor of `algorithm`, or nullptr where the CPU does not run it.
Executor executor(Algorithm algorithm) noexcept;

/// Runs a CPU plan: a converted copy where no axis has a sigma, else the algorithm's executor.
void execute(const Plan& plan, const View& src, const View& dst);

// The executors (one file each).
void fir_blur(const Plan& plan, const View& src, const View& dst);
void fir_derivative_blur(const Plan& plan, const View& src, const View& dst);
void scipy_order_blur(const Plan& plan, const View& src, const View& dst);
void fft_blur(const Plan& plan, const View& src, const View& dst);
void box_blur(const Plan& plan, const View& src, const View& dst);
void kawase_blur(const Plan& plan, const View& src, const View& dst);
void downsample_blur(const Plan& plan, const View& src, const View& dst);
void iir_blur(const Plan& plan, const View& src, const View& dst);
void sliding_dct_blur(const Plan& plan, const View& src, const View& dst);
void dual_kawase_blur(const Plan& plan, const View& src, const View& dst);
void mip_poisson_blur(const Plan& plan, const View& src, const View& dst);

}  // namespace fastblur::cpu
