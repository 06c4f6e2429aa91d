#pragma once
// sliding-dct's resolved parameters: each axis's cosine series on its window.
#include <array>
#include <optional>

#include "algorithms/descriptor.hpp"
#include "fastblur/kernel_sliding_dct.hpp"

namespace fastblur::algo {

struct SlidingDctResolved final : ResolvedParameters {
  std::array<std::optional<kernel::SlidingDctKernel>, 3> axes;
};

}  // namespace fastblur::algo
