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
};

}  // namespace fastblur::algo
