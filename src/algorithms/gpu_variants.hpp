#pragma once
// The Vulkan backend's named variants of a plan (issue 47's levers): each a way to run one
// algorithm's plan - a change of its schedule - that computes the same result, or one within the
// algorithm's catalogued bound (the image algorithms' float16 images). The planner runs
// an algorithm's first variant unless a measured profile of the device (gpu_profile.hpp) says
// another is faster; the GPU benchmark measures every one. A new lever is one line in
// gpu_variants.cpp.
#include <string_view>
#include <vector>

#include "algorithms/descriptor.hpp"

namespace fastblur::algo {

struct GpuVariant {
  Algorithm algorithm;
  std::string_view name;                 ///< as the benchmark's case names and the profiles spell it
  void (*apply)(Plan&, const Shape&);    ///< makes the plan's schedule run this variant on the shape's device
  bool (*runs)(const Plan&);             ///< whether the plan's schedule runs it
};

/// Every variant, the planner's default first for each algorithm.
const std::vector<GpuVariant>& gpu_variants();
/// The variants of one algorithm (none: it has one way to run).
std::vector<GpuVariant> gpu_variants(Algorithm algorithm);
/// The name of the variant `plan` runs ("" where its algorithm has none).
std::string_view gpu_variant_of(const Plan& plan);

}  // namespace fastblur::algo
