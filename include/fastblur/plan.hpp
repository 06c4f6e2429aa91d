#pragma once
/// @file
/// The planner: BlurSpec + image -> Plan (algorithm, parameters, predicted error and cost).
/// Algorithm::automatic with a tolerance picks the cheapest algorithm whose predicted error is
/// within it; backends execute plans and never choose.
#include <array>
#include <string>
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur {

struct Plan {
  /// What the backend runs: algorithm never automatic, parameters filled in (radius per axis for
  /// fir, box_passes, ...).
  BlurSpec spec;
  /// DESIGN.md's max error of the impulse response of the whole (2D/3D) blur, predicted from the
  /// exact 1D kernels: prod(1 + e_axis) - 1, e_axis = max |k - g| / max g on that axis.
  double predicted_max_error = 0.0;
  /// Estimated arithmetic per pixel and channel (relative units, comparable between algorithms).
  double predicted_cost = 0.0;
  /// Every candidate weighed, one line each, and why the chosen one won (for --explain).
  std::vector<std::string> considered;
  std::string reason;
};

/// Plans `spec` for an image of `src`'s shape. With Algorithm::automatic and tolerance 0 the plan
/// is exact (fir); with a tolerance > 0, the cheapest candidate within it. A named algorithm is
/// planned as asked (its parameters filled in, its error predicted). Throws InvalidArgument.
Plan make_plan(const BlurSpec& spec, const View& src);

/// Which backend a plan is for: its candidates are the algorithms that backend runs, weighed by
/// that backend's cost model.
enum class Backend { cpu, vulkan };
Plan make_plan(const BlurSpec& spec, const View& src, Backend backend);

/// The 1D max error (relative to the Gaussian's peak) of `spec`'s algorithm along one axis, from
/// its exact equivalent kernel. Large sigmas are evaluated at sigma 64, where the shape error of
/// the O(1) algorithms has reached its asymptote.
double predicted_axis_error(const BlurSpec& spec, int axis);

/// Human-readable plan: algorithm, parameters, predicted error and cost, candidates.
std::string describe(const Plan& plan);

}  // namespace fastblur
