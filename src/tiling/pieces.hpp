#pragma once
// Pieces with halos: a region of the data plus a halo as wide as the plan's support on each side
// where the region is cut, extended by the border modes where it leaves the data. Blurring each piece
// and keeping its interior gives the whole call's result (docs/DESIGN.md: tiles, bands and chunks are one
// idea): the GPU's tiles use it, and CLI bands and dask chunks will.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::tiling {

/// One piece: its interior [lo, hi) per axis and the halo around it (0 where the axis is not cut).
struct Piece {
  std::array<std::int64_t, 3> lo{}, hi{}, halo{};
  /// The piece with its halos.
  std::array<std::int64_t, 3> extent() const {
    return {hi[0] - lo[0] + 2 * halo[0], hi[1] - lo[1] + 2 * halo[1], hi[2] - lo[2] + 2 * halo[2]};
  }
};

/// The plan's piece grid (fastblur::piece_grid, public in plan.hpp: the CLI's bands use it too).
using fastblur::PieceGrid;
using fastblur::piece_grid;

/// The pieces of interior size `tile` covering `extent`, each with `halo` along the axes that are cut.
std::vector<Piece> pieces(std::array<std::int64_t, 3> extent, std::array<std::int64_t, 3> tile,
                          std::array<std::int64_t, 3> halo);

/// A tile size per axis - the whole axis, or multiples of `align` growing by about 1.5x - for which
/// `fits` (the extent of a piece with its halos) holds, processing the least volume, halos included
/// (fewer pieces on a tie). The whole data when it fits. Throws Unsupported when no tile fits.
std::array<std::int64_t, 3> choose_tile(std::array<std::int64_t, 3> extent, std::array<std::int64_t, 3> halo,
                                        std::int64_t align,
                                        const std::function<bool(std::array<std::int64_t, 3>)>& fits);

/// The piece with its halo as packed float32 (x fastest, channels interleaved), read from `src` and
/// extended by the border modes (cval for constant) where it leaves the data.
void gather(const View& src, const Piece& piece, const std::array<Border, 3>& border, double cval, float* out);

/// Writes the interior of a piece, held in `in` as gather wrote it, to the same region of `dst`.
void put(const float* in, const Piece& piece, const View& dst);

}  // namespace fastblur::tiling
