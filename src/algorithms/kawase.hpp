#pragma once
// kawase's resolved parameters: each axis's pass offsets.
#include <array>
#include <string>
#include <vector>

#include "algorithms/descriptor.hpp"

namespace fastblur::algo {

struct KawaseResolved final : ResolvedParameters {
  /// Pass offsets in pixels along x, y, z (empty for an axis with sigma 0).
  std::array<std::vector<double>, 3> offsets;
};

/// How far a schedule's passes reach: the sum of floor(d) + 1 (a fetch at d reads floor(d) and the next).
std::int64_t kawase_reach(const std::vector<double>& offsets);

/// The most texels a side the second pass of a paired dispatch (the GPU's paired-passes variant,
/// shaders/kawase_pair.comp) reads beyond its 16x16 tile: its shared memory holds the first pass's
/// results over the tile and this halo (32 x 32 texels of 16 bytes).
inline constexpr int kKawasePairHalo = 8;
/// GpuPass::block of kawase's pass where its GPU passes run two a dispatch (the paired-passes variant).
inline constexpr std::int64_t kKawasePassesPaired = 2;
/// Whether the plan's GPU passes are paired.
bool kawase_pairs_passes(const Plan& plan);
/// The shader of the plan's paired dispatches: kawase_pair_cN for its kawase_pass_cN.
std::string kawase_pair_shader(const Plan& plan);
/// The GPU dispatches of a schedule (each axis's offsets; an axis with fewer sits the others out at
/// 0): how many passes each runs - 1, or 2 where `paired` and the second pass's reach along each
/// axis (floor(d) + 1) fits kKawasePairHalo. The recorder and the traffic model both follow it.
std::vector<int> kawase_dispatches(const std::array<std::vector<double>, 3>& offsets, bool paired);

}  // namespace fastblur::algo
