#pragma once
// box's resolved parameters: the extended (or integer) box passes of each axis.
#include <array>
#include <vector>

#include "algorithms/descriptor.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {

struct BoxResolved final : ResolvedParameters {
  /// The passes along x, y, z (empty for an axis with sigma 0).
  std::array<std::vector<kernel::BoxPass>, 3> passes;
  /// How far the passes reach along each axis (the sum of radius + 1): each line's padding per side,
  /// and the axis's support where it is filtered.
  std::array<std::int64_t, 3> reach{};
};

}  // namespace fastblur::algo
