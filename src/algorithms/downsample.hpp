#pragma once
// downsample's resolved parameters per axis: the factor, the compensated low-resolution sigma, its
// kernel's radius and the line padding the chain needs.
#include <array>

#include "algorithms/descriptor.hpp"

namespace fastblur::algo {

struct DownsampleAxis {
  int factor = 0;           ///< 2, 4 or 8 (0: the axis is not filtered)
  double low_sigma = 0.0;   ///< sigma of the Gaussian on the blocks (low-resolution samples)
  int radius = 0;           ///< its kernel's radius (at least 1)
  std::int64_t pad = 0;     ///< border extension per side: whole blocks covering the kernel, a block and the
                            ///< interpolation
};

struct DownsampleResolved final : ResolvedParameters {
  std::array<DownsampleAxis, 3> axes;
};

}  // namespace fastblur::algo
