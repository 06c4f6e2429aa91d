// The named variants, one line each (the planner's default first for each algorithm).
#include "algorithms/gpu_variants.hpp"

namespace fastblur::algo {
namespace {

template <BoxSchedule S>
void box_as(Schedule& s) { s.box.fill(S); }
template <BoxSchedule S>
bool box_is(const Schedule& s) { return s.box[0] == S; }
template <GpuDownsample D>
void downsample_as(Schedule& s) { s.gpu_downsample = D; }
template <GpuDownsample D>
bool downsample_is(const Schedule& s) { return s.gpu_downsample == D; }

}  // namespace

const std::vector<GpuVariant>& gpu_variants() {
  static const std::vector<GpuVariant> all = {
      {Algorithm::box, "running-sums", box_as<BoxSchedule::running_sums>, box_is<BoxSchedule::running_sums>},
      {Algorithm::box, "prefix-sums", box_as<BoxSchedule::prefix_sums>, box_is<BoxSchedule::prefix_sums>},
      {Algorithm::box, "fused", box_as<BoxSchedule::fused>, box_is<BoxSchedule::fused>},
      {Algorithm::downsample, "chain", downsample_as<GpuDownsample::chain>, downsample_is<GpuDownsample::chain>},
      {Algorithm::downsample, "per-axis", downsample_as<GpuDownsample::per_axis>, downsample_is<GpuDownsample::per_axis>},
  };
  return all;
}

std::vector<GpuVariant> gpu_variants(Algorithm algorithm) {
  std::vector<GpuVariant> out;
  for (const GpuVariant& v : gpu_variants())
    if (v.algorithm == algorithm) out.push_back(v);
  return out;
}

std::string_view gpu_variant_of(const Plan& plan) {
  for (const GpuVariant& v : gpu_variants())
    if (v.algorithm == plan.algorithm && v.runs(plan.schedule)) return v.name;
  return {};
}

}  // namespace fastblur::algo
