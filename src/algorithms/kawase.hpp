#pragma once
// kawase's resolved parameters: each axis's pass offsets.
#include <array>
#include <vector>

#include "algorithms/descriptor.hpp"

namespace fastblur::algo {

struct KawaseResolved final : ResolvedParameters {
  /// Pass offsets in pixels along x, y, z (empty for an axis with sigma 0).
  std::array<std::vector<double>, 3> offsets;
};

/// How far a schedule's passes reach: the sum of floor(d) + 1 (a fetch at d reads floor(d) and the next).
std::int64_t kawase_reach(const std::vector<double>& offsets);

}  // namespace fastblur::algo
