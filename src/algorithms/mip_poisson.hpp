#pragma once
// mip-poisson's resolved parameters (the scaled sample set and each sample's mip level) and how far
// its image is padded, shared by the CPU and GPU executors and the planner's reach.
#include <cstdint>

#include "algorithms/descriptor.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::algo {

struct MipPoissonResolved final : ResolvedParameters {
  kernel::MipPoissonSchedule schedule;
};

/// How one axis of n pixels is padded: the image starts at `before` in a padded line of `size`
/// pixels, both multiples of 2^max_level (the mip texels tile the image from its first pixel), far
/// enough that no fetch of the schedule reaches past the padding (so no clamping reaches the output).
struct MipPoissonPadding {
  std::int64_t before = 0, size = 0;
};
MipPoissonPadding mip_poisson_padding(std::int64_t n, const kernel::MipPoissonSchedule& schedule);

/// The schedule of a spec (kernel::mip_poisson_schedule of its sigmas and samples). Throws
/// InvalidArgument unless sigma along z is 0 and sigma along x and y are both > 0.
kernel::MipPoissonSchedule mip_poisson_schedule_for(const BlurSpec& spec);

}  // namespace fastblur::algo
