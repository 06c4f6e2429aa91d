#pragma once
// dual-kawase's resolved parameters (its chain's schedule) and the chain's geometry along an axis:
// how far the image is padded and which texels each level must hold for the output, shared by the
// CPU and GPU executors and by the planner's reach.
#include <cstdint>
#include <vector>

#include "algorithms/descriptor.hpp"
#include "fastblur/kernel_dual_kawase.hpp"

namespace fastblur::algo {

struct DualKawaseResolved final : ResolvedParameters {
  kernel::DualKawaseSchedule schedule;
};

/// An inclusive range of texels.
struct TexelRange {
  std::int64_t lo = 0, hi = -1;
  std::int64_t size() const { return hi - lo + 1; }
};

/// How one axis of n pixels is padded for the chain: the image starts at `before` in a padded line
/// of `size` texels, both multiples of 2^levels (so the coarsest texels tile the image from its
/// first pixel). The padding holds the whole footprint of every output pixel, and every texel any
/// pass reads for the output lies inside the padded line at every level: the clamping of a GPU's
/// fetches at the buffer's edge never reaches the output.
struct DualKawasePadding {
  std::int64_t before = 0, size = 0;
};

/// What each level must hold for the output pixels of an axis: up[l] the targets of the up pass
/// into level l (up[0] the output), down[l] those of the down pass into level l (down[0] the padded
/// input), in padded texel coordinates.
struct DualKawaseAxis {
  DualKawasePadding pad;
  std::vector<TexelRange> up, down;
};
DualKawaseAxis dual_kawase_axis(std::int64_t n, int levels, double offset);
DualKawasePadding dual_kawase_padding(std::int64_t n, int levels, double offset);

/// The schedule of a spec (kernel::dual_kawase_schedule of its sigmas, levels and offset). Throws
/// InvalidArgument unless sigma along z is 0 and sigma along x and y are both at least
/// kernel::kDualKawaseMinSigma.
kernel::DualKawaseSchedule dual_kawase_schedule_for(const BlurSpec& spec);

}  // namespace fastblur::algo
