#pragma once
/// @file
/// Mip-chain Poisson-disk blur (seed 003's prefiltering): the sample set, the mip level of each
/// sample, the per-pixel rotation noise, and the scale that makes the variance exactly sigma^2.
///
/// The blur of pixel p: the mean over the samples s_i of a trilinear fetch (bilinear on two
/// adjacent mip levels, linearly blended) at p + S R(theta_p) s_i and level lod_i, where
///  - the mip chain prefilters the image as seed 003 suggests, "a small convolution successively
///    into the mip chain": level l+1 is level l filtered by [1 3 3 1]/8 along x and y and halved
///    (texels of 2^l x 2^l pixels; the footprint's variance is (4^l - 1)/4 pixels^2 per axis);
///  - s_i are `count` points of the unit 2D Gaussian truncated at kMipPoissonRadius, Poisson-disk
///    spaced: one base point per equal-area annulus of the unit disk, its angle the best of 64
///    candidates (Mitchell's best candidate: farthest from the points placed), with its three
///    quarter-turn copies; then warped radially so the density is the truncated Gaussian's, so
///    every sample stands for the same Gaussian mass (equal weights). The quarter-turn symmetry
///    makes the mean 0 and the second moments isotropic for every rotation;
///  - S = diag(scale_x, scale_y) stretches the unit set to the image's sigma;
///  - R(theta_p) rotates it by theta_p = 2 pi ign(p): Jimenez's interleaved gradient noise, which
///    turns the banding of a fixed set into fine noise (removed by temporal accumulation when the
///    frame index varies);
///  - lod_i = log2 of the side of the square whose area equals the sample's share of the disk
///    (1 / (count g(s_i)), g the truncated density) times the smaller scale, plus a bias; at least 0.
/// Each fetch preserves the mean (linear interpolation reproduces positions), so the response is
/// centred; its variance per axis is scale^2 E|s|^2 / 2 plus the fetches' own variance (a box of
/// 2^l and the bilinear tent), averaged over pixel phases and rotations; the scales are solved so
/// that this is sigma^2.
#include <array>
#include <cstdint>
#include <vector>

namespace fastblur::kernel {

/// Sample counts: multiples of 4 (the 90-degree symmetry) from 8 to 256. The default, 32, keeps
/// the 1D error of the response near 0.1 (bench/RESULTS.md's accuracy table has the measured accuracy).
inline constexpr int kMipPoissonMinSamples = 8;
inline constexpr int kMipPoissonMaxSamples = 256;
inline constexpr int kMipPoissonDefaultSamples = 32;
/// The unit Gaussian is truncated at this radius (1.1% of its mass lies beyond).
inline constexpr double kMipPoissonRadius = 3.0;
/// Added to every sample's level: 0 fetches at the level whose texels have the sample's area. -1/4
/// gave the smallest 1D error of a single frame over sigma 1..50 (swept from -1.5 to 1.5).
inline constexpr double kMipPoissonLodBias = -0.25;
/// The deepest mip level used.
inline constexpr int kMipPoissonMaxLevel = 16;

/// One sample of the unit set.
struct PoissonSample {
  double x = 0.0, y = 0.0;  ///< position in units of sigma
  double area = 0.0;        ///< its share of the disk, in sigma^2: 1 / (count g(x, y))
};

/// The unit set of `count` samples (see above). Deterministic: the same count gives the same set
/// on every machine. Throws InvalidArgument for a count that is not a multiple of 4 in 8..256.
std::vector<PoissonSample> poisson_gaussian_samples(int count);

/// Jimenez's interleaved gradient noise (Next Generation Post Processing in Call of Duty: Advanced
/// Warfare, 2014) at pixel (x, y) of `frame`: fract(52.9829189 fract(0.06711056 x + 0.00583715 y)),
/// with the pixel moved by 5.588238 per frame (his temporal variant). In [0, 1).
double interleaved_gradient_noise(double x, double y, int frame = 0);

/// The blur of one image: the scaled set and each sample's mip level.
struct MipPoissonSchedule {
  std::vector<PoissonSample> samples;  ///< the unit set
  std::array<double, 2> scale{0.0, 0.0};  ///< pixels per unit along x and y
  std::vector<double> lod;             ///< per sample, >= 0
  int max_level = 0;                   ///< ceil of the largest lod (the mip levels built: 0..max_level)
  /// The phase- and rotation-averaged variance per axis of the response (= sigma_x^2, sigma_y^2).
  std::array<double, 2> variance{0.0, 0.0};
};

/// The per-axis variance, averaged over the pixel phases and uniform rotations, of a trilinear
/// fetch at level `lod` of a point at offset o from a pixel's centre, about the point, for an
/// offset |o| spread uniformly over the rotations (`radius` = |o| in pixels). At lod 0 the phase
/// is set by o itself; above, averaged over the 2^l pixel phases of a texel. Fractional lods blend
/// the two levels' variances linearly, as the trilinear fetch blends their values.
double mip_fetch_variance(double lod, double radius);

/// The schedule for sigma_x, sigma_y (each > 0 and at most 1e5) and `count` samples (0: the
/// default): the smaller axis's scale is solved (by bisection; the variance grows with it), the
/// levels follow from it, and the larger axis's scale makes its variance exact. Throws InvalidArgument.
MipPoissonSchedule mip_poisson_schedule(double sigma_x, double sigma_y, int count = 0);

/// The 2D response of one frame, in double, to a unit impulse at pixel (x, y) of a width x height
/// image that is zero beyond its edges (a constant border of 0), computed as the CPU executor computes
/// it (the same mip chain, rotations and trilinear fetches, in the same order) but only over the
/// texels and pixels the impulse reaches: row-major width x height. `origin` is where the image
/// starts in the padded level 0 along x and y (each a multiple of 2^max_level); the executors' own
/// padding (algo::mip_poisson_padding(...).before) gives their bits exactly, any other multiple the
/// same response to within rounding. The planner predicts the 2D error of a frame from it without
/// a blur. Throws InvalidArgument for a bad schedule, size, pixel or origin.
std::vector<double> mip_poisson_impulse_response(const MipPoissonSchedule& schedule, int frame, std::int64_t width,
                                                 std::int64_t height, std::int64_t x, std::int64_t y,
                                                 std::array<std::int64_t, 2> origin = {0, 0});

}  // namespace fastblur::kernel
