#pragma once
/// @file
/// Dual Kawase blur ("dual filtering", M. Bjorge, Bandwidth-Efficient Rendering, SIGGRAPH 2015):
/// the schedule (levels and offsets) that matches any sigma >= 1, and the chain's exact variance.
///
/// The chain: L down passes, each to half the resolution, then L up passes back. Positions are
/// texel centres as on a GPU (texel i of a level covers [i, i+1) in that level's own units) and
/// every fetch is bilinear as a GPU does it (at p: u = p - 1/2, texels floor(u) and floor(u) + 1
/// weighted 1 - frac(u) and frac(u)). With d the offset:
///  - down (target texel k, centre 2k+1 in source texels, h = d/2 source texels):
///      4/8 fetch(centre) + 1/8 each of fetch(centre + (+-h, +-h));
///  - up (target texel j, centre (j+1/2)/2 in source texels, h = d/2 source texels):
///      1/12 each of fetch(centre + (+-2h, 0)), fetch(centre + (0, +-2h)),
///      2/12 each of fetch(centre + (+-h, +-h)).
/// d = 1 is Bjorge's half-texel offset. Each axis may have its own offset (the taps' x offsets
/// use d_x, their y offsets d_y) with the same number of levels.
///
/// The chain is not shift-invariant (period 2^L): its variance per axis is averaged over the 2^L
/// phases of an impulse, measured about the impulse. Every pass's 1D marginal has constant column
/// sums, so the marginal of the 2D chain along x is the chain of the passes' 1D marginals, which
/// depends on d_x alone: the variance along x is dual_kawase_variance(L, d_x).
#include <array>
#include <cstdint>
#include <vector>

namespace fastblur::kernel {

/// At most this many levels (2^16 pixels per coarsest texel).
inline constexpr int kDualKawaseMaxLevels = 16;
/// Offsets are in [0, kDualKawaseMaxOffset].
inline constexpr double kDualKawaseMaxOffset = 1e4;
/// The smallest sigma the chain reaches: one level with an offset <= 1/4 (a 2x2 box average and a
/// bilinear upsample; offsets up to 1/4 keep every fetch inside the same pair of texels).
inline constexpr double kDualKawaseMinSigma = 1.0;

/// The phase-averaged variance per axis, in full-resolution pixels squared, of `levels` down and
/// up passes with `offset` along that axis. Exact (a recursion over the phases of each level's
/// first and second moments). (4^L - 1)/3 for offsets <= 1/4, strictly increasing above.
/// Throws InvalidArgument for levels outside 1..kDualKawaseMaxLevels or a bad offset.
double dual_kawase_variance(int levels, double offset);

/// The smallest sigma `levels` levels reach: sqrt(dual_kawase_variance(levels, 0)) = sqrt((4^L - 1)/3).
double dual_kawase_min_sigma(int levels);

/// The offset whose phase-averaged variance at `levels` is sigma^2 (0 at the minimum sigma).
/// Throws InvalidArgument when sigma is below dual_kawase_min_sigma(levels) or the offset would
/// exceed kDualKawaseMaxOffset.
double dual_kawase_solve_offset(double sigma, int levels);

/// The number of levels chosen for sigma: the most levels whose solved offset is at least the
/// threshold of that level, 0.786 for 2 levels, 1.493 for 3, 1.529 for 4, 1.556 from 5 on: where
/// the worst-phase max error (dual_kawase_error) of L levels drops below that of L - 1 levels at the
/// same sigma (sigma 2.97, 9.23, 18.97, 38.56, 77.4, ...). From 3 levels the offset stays in about
/// [1.5, 3.4], where the shape is closest to a Gaussian. The worst-phase max error (measured on a
/// fine grid of sigma 1..100) is <= 0.334 below sigma 3.5, 0.274 to 5, 0.154 to 9, 0.146 to 20 and
/// 0.124 from 20. Throws InvalidArgument below kDualKawaseMinSigma.
int dual_kawase_levels_for(double sigma);

/// Levels and per-axis offsets of one blur.
struct DualKawaseSchedule {
  int levels = 0;
  std::array<double, 2> offset{0.0, 0.0};  ///< along x, y
};

/// The schedule for sigma_x, sigma_y (both >= kDualKawaseMinSigma).
///  - levels 0, offset 0: levels = min(dual_kawase_levels_for(sigma_x), ...(sigma_y)), each axis's
///    offset solved, so the variance per axis is exactly sigma^2.
///  - levels L, offset 0: that many levels, offsets solved (InvalidArgument if a sigma is below
///    dual_kawase_min_sigma(L)).
///  - offset d > 0: both axes use d (the achieved sigma is then the chain's); with levels 0, the
///    levels whose variance at d is nearest sqrt(sigma_x sigma_y)^2 (in ratio).
/// Throws InvalidArgument naming the bad value.
DualKawaseSchedule dual_kawase_schedule(double sigma_x, double sigma_y, int levels = 0, double offset = 0.0);

/// The 1D marginal of the chain's response to a unit impulse at full-resolution pixel `phase`
/// (0 <= phase < 2^levels) of a block of 2^levels aligned with the coarsest texels, away from any
/// edge: centred on the impulse (the impulse at index size/2). Its second moment, averaged over
/// the phases, is dual_kawase_variance(levels, offset).
std::vector<double> dual_kawase_marginal(int levels, double offset, int phase);

/// The worst over the 2^levels phases of max |h - g| / max g, h the marginal response and g the
/// sampled Gaussian of the chain's own sigma (sqrt of its variance) normalised over +-8 sigma.
double dual_kawase_error(int levels, double offset);

/// The 2D response, in double, to a unit impulse at pixel (x, y) of a width x height image that is
/// zero beyond its edges (a constant border of 0), computed as the CPU executor computes it (the same
/// fetches, in the same order) but only over the texels the impulse reaches: row-major width x height.
/// `origin` is where the image starts in the padded level 0 along x and y (each a multiple of
/// 2^levels: the coarsest texels tile the image from its first pixel), which sets the impulse's
/// phase within its block and the coordinates of every fetch; the executors' own padding
/// (algo::dual_kawase_padding(...).before) gives their bits exactly, any other multiple the same
/// response to within rounding. The planner predicts the chain's 2D error from it without a blur.
/// Throws InvalidArgument for a bad schedule, size, pixel or origin.
std::vector<double> dual_kawase_impulse_response(const DualKawaseSchedule& schedule, std::int64_t width,
                                                 std::int64_t height, std::int64_t x, std::int64_t y,
                                                 std::array<std::int64_t, 2> origin = {0, 0});

}  // namespace fastblur::kernel
