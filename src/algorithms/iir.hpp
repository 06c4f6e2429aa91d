#pragma once
// iir's resolved parameters per axis: the variant's coefficients, the decay length (how far a
// response reaches) and the line padding of the border modes that extend lines.
#include <array>
#include <cstdint>

#include "algorithms/descriptor.hpp"
#include "fastblur/kernel_iir.hpp"

namespace fastblur::algo {

struct IirAxis {
  bool filtered = false;
  kernel::DericheCoefficients deriche;             ///< IirVariant::deriche
  kernel::YoungVanVlietCoefficients young_van_vliet;  ///< IirVariant::young_van_vliet
  kernel::Matrix3 triggs_sdika{};                  ///< young_van_vliet's backward start (Triggs-Sdika)
  std::int64_t decay = 0;  ///< samples after which the slowest pole has decayed to 1e-8
  std::int64_t pad = 0;    ///< line extension per side: decay for reflect, mirror and wrap; 0 for nearest and
                           ///< constant, whose constant continuation the recursions start from exactly
};

struct IirResolved final : ResolvedParameters {
  IirVariant variant = IirVariant::deriche;
  std::array<IirAxis, 3> axes;
};

}  // namespace fastblur::algo
