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

// iir_chunks.comp's two ways (its variants): reflect, mirror and wrap lines padded by the decay
// length, or not padded, their starts computed from the line's own recursions where a line is at
// least the decay length long (gpu_iir_chunks.cpp) - the plan's choice; the shader name says which.
inline constexpr char kIirChunksPadded[] = "iir_chunks_padded";
inline constexpr char kIirChunksStarts[] = "iir_chunks_starts";
/// Whether pass `g` is iir_chunks.comp's (either way).
inline bool iir_chunks_pass(const GpuPass& g) { return g.shader == kIirChunksPadded || g.shader == kIirChunksStarts; }
/// The padding an iir_chunks pass `g` reads on each side of a line of `n` samples: none where it
/// computes the starts and the line is at least the decay length (their error |p|^n below 1e-8),
/// else the axis's pad.
inline std::int64_t iir_chunks_pad(const GpuPass& g, const IirAxis& axis, std::int64_t n) {
  return g.shader == kIirChunksStarts && n >= axis.decay ? 0 : axis.pad;
}

}  // namespace fastblur::algo
