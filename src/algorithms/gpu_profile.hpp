#pragma once
// A GPU's measured profile (issue 47): the device time of each algorithm's variants on the GPU
// benchmark's grid, written by a run on that GPU (bench/gpu_machine.sh -> bench/gpu_profile.py),
// committed as data under data/gpu-profiles/ and compiled in. On that device the planner corrects
// each candidate's modelled cost by what its algorithm measured and runs each algorithm's fastest
// measured variant; elsewhere, or for what the profile lacks, it keeps its model.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/descriptor.hpp"

namespace fastblur::algo {

struct GpuProfileCase {
  Algorithm algorithm = Algorithm::fir;
  std::string variant;  ///< gpu_variants.hpp's name ("" for an algorithm without variants)
  ElementType type = ElementType::f32;
  int channels = 4;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  double sigma = 0.0;       ///< on every axis of the case
  double ms = 0.0;          ///< device time, median
  double model_cost = 0.0;  ///< the model's predicted cost of the case when it was measured (> 0)
};

struct GpuProfile {
  std::string device;  ///< VkPhysicalDeviceProperties::deviceName, as matched
  std::string driver, commit, date;
  std::string source;  ///< where it was read from (a bundled file's name or a path)
  std::vector<GpuProfileCase> cases;
  /// Measured ms per value and unit of modelled cost, the median over the cases: the device's
  /// typical rate, against which each algorithm's measured rate is a correction.
  double ms_per_cost_value = 0.0;

  /// How much faster or slower than its model `algorithm` ran as `variant` on shapes like `shape`
  /// at `sigma` (its largest axis's), relative to the device's typical rate: its measured ms per
  /// value and modelled cost over ms_per_cost_value, from the cases of that algorithm, variant and
  /// dimensionality of the closest format and size, interpolated in log sigma between the nearest
  /// measured sigmas (clamped at the ends). The planner multiplies the model's cost by it, so the
  /// model still ranks one algorithm's own candidates (a factor, a radius). nullopt where the
  /// profile has no such case.
  std::optional<double> correction(Algorithm algorithm, std::string_view variant, const Shape& shape, double sigma) const;
};

/// A profile's JSON (bench/gpu_profile.py's format); throws InvalidArgument naming what is wrong.
GpuProfile parse_gpu_profile(std::string_view json, std::string source);
/// Every profile compiled in (data/gpu-profiles/*.json), parsed: throws InvalidArgument where one is
/// malformed (a test keeps them well formed).
std::vector<GpuProfile> bundled_gpu_profiles();
/// The profile of the device named `device_name`: the file FASTBLUR_GPU_PROFILE names where set (a
/// missing or malformed file: one warning on stderr, then the model), else the bundled profile of
/// that device, else null (the model).
std::shared_ptr<const GpuProfile> gpu_profile_for(const std::string& device_name);

}  // namespace fastblur::algo
