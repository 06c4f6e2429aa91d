#pragma once
/// @file
/// The blur entry point.
///
/// Contract (the same for every operation in fastblur):
///  - src and dst are views over caller memory; dst may be the same view as src (in place).
///    Views that overlap in any other way are copied first, so the result is as if out of place.
///  - src and dst must have the same extents and channels; element types may differ (the result is
///    converted; integer outputs are rounded to nearest and saturated).
///  - axes: x, y, z = 0, 1, 2. A sigma of 0 (or a radius of 0) leaves that axis alone.
///  - borders are those of scipy.ndimage, per axis; constant uses cval.
///  - threads = 0 uses every core OpenMP offers; 1 runs on the calling thread; more than the
///    machine's processors (omp_get_num_procs) run as that many.
///  - thread-safe: any number of threads may call blur at once on different data, and on the same
///    source read-only (tests/concurrency_test.cpp, run under ThreadSanitizer).
///  - errors are thrown as fastblur::Error subclasses (error.hpp); dst is unspecified after an
///    error only if the error came after writing began, which happens only for OutOfMemory.
///  - NaN and Inf in the data propagate as in the float64 reference: with fir, an output is NaN
///    (or +-Inf) exactly where reference::separable_blur's is; the approximations spread them at
///    least as far (running sums, recursions and FFTs carry them along whole lines; Inf - Inf there
///    is NaN). Integer outputs take NaN and -Inf as 0 and +Inf as the maximum. Float paths (every
///    type but f64) read f32 denormals (|x| < 2^-126) as zero, which keeps them fast and changes
///    no result by more than 2^-126; f64 data keeps them.
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur {

/// How values beyond the edge are made, exactly as scipy.ndimage defines them.
enum class Border {
  reflect,   ///< d c b a | a b c d | d c b a  (half-sample symmetric; the default)
  mirror,    ///< d c b | a b c d | c b a      (whole-sample symmetric)
  nearest,   ///< a a a | a b c d | d d d
  wrap,      ///< b c d | a b c d | a b c      (periodic)
  constant,  ///< k k k | a b c d | k k k      (k = cval)
};
std::string_view to_string(Border border) noexcept;
/// Parses "reflect", "mirror", "nearest", "wrap", "constant"; throws InvalidArgument.
Border parse_border(std::string_view name);

/// Which algorithm computes the blur.
enum class Algorithm {
  automatic,  ///< the planner's choice: exact (fir) at the default tolerance of 0
  fir,        ///< exact separable convolution with the sampled, normalised Gaussian
  box,        ///< n passes of a running-sum box per axis; O(1) per pixel (seeds 001, 002)
  kawase,     ///< passes of four diagonal bilinear taps, offsets solved for sigma (seed 002)
  downsample, ///< blur at 1/2 or 1/4 resolution and upsample, sigma compensated (seed 002)
  fft,        ///< fir's exact convolution computed in the frequency domain (FFTW, double); O(log n) per
              ///< pixel whatever the sigma, for very large sigma. FFTW's planner is not thread-safe:
              ///< a program that makes FFTW plans of its own on other threads at the same time as a
              ///< blur must serialise them itself.
  iir,        ///< recursive Gaussian per axis (see IirVariant); O(1) per pixel, sigma 0.5 to 1000
  sliding_dct,  ///< the Gaussian as a short cosine series on a window, each term a sliding DCT by a
                ///< second-order recurrence (Sugimoto-Kamata 2013); O(order) per pixel, any sigma;
                ///< default order 5: max error 7e-5, L1 1.4e-4 (kernel_sliding_dct.hpp)
  fir_incremental,  ///< fir with weights generated on the fly by seed 000's forward quotients (Vulkan
                    ///< backend only; the CPU throws Unsupported): float error <= 1/256 of the centre
  fir_linear,  ///< fir with adjacent taps merged into one bilinear texture fetch (seeds 002, 003): half
               ///< the fetches; 2D, Vulkan backend only. Exact up to the sampler's sub-texel precision
               ///< (8 bits on most GPUs: an error of at most 1/512 of the data's range per pass).
  dual_kawase,  ///< Bjorge's dual filtering (SIGGRAPH 2015): L half-resolution down passes and L up
                ///< passes of bilinear taps; planar (2D only, x and y together), sigma >= 1 per
                ///< axis, variance exact for any sigma (kernel_dual_kawase.hpp). Max error <= 0.154
                ///< of the peak from sigma 5 (0.334 below); its 2D response's peak is flatter than a
                ///< Gaussian's: 2D max error up to 0.63 from sigma 5, 0.46 from 20 (cpu/dual_kawase.hpp).
  mip_poisson,  ///< seed 003's prefiltered blur: a 2x2 box mip chain and a fixed Poisson-disk set of
                ///< samples (32 by default), each fetched trilinearly at the level matching its share
                ///< of the disk, the set rotated per pixel by interleaved gradient noise; planar (2D
                ///< only), any sigma > 0, variance solved to sigma^2 (kernel_mip_poisson.hpp). A noisy
                ///< approximation for real-time use: accuracy in cpu/mip_poisson.hpp.
};
std::string_view to_string(Algorithm algorithm) noexcept;
/// Parses an algorithm name ("auto", "fir", "box", "kawase", "downsample", "fft", "iir", "dual-kawase", ...); throws InvalidArgument naming the known ones.
Algorithm parse_algorithm(std::string_view name);

/// Which recursive Gaussian Algorithm::iir runs (0.5 <= sigma <= 1000). Accuracy as a Gaussian, by
/// the 1D impulse response (DESIGN.md metrics; measured over that range, asserted at sigma 1, 2, 5,
/// 10, 20, 50 and 1000 by tests/cpu/iir_test.cpp):
///  - deriche: L1 <= 6.1e-4 from sigma 2 (9e-4 below); max error <= 4.9e-4; effective sigma 0.2%
///    short from sigma 1 (7% at 0.5); anisotropy within 0.02.
///  - young_van_vliet: L1 <= 2.3e-2 from sigma 20, 4.9e-2 from 5, 8.3e-2 from 2, 0.16 below; max
///    error <= 1.6e-2, 3.2e-2, 5.4e-2, 9.6e-2 on the same ranges. Its published q makes it wider
///    than asked: effective sigma 1.07 sigma at large sigma, 1.13 at 2, up to 1.27 below 2; its
///    exponential tails stretch the low contours along the axes (anisotropy -0.18 at sigma 1 to
///    -0.40 at 50).
/// Borders: nearest and constant are exact (the recursions start from the constant's steady state;
/// Triggs-Sdika for young_van_vliet's backward pass). reflect, mirror and wrap extend each line by
/// about 11 sigma (deriche) or 16 sigma (young_van_vliet) per side, after which less than 1e-7 of
/// the data range is neglected; that padding is extra work where sigma is large next to the line.
enum class IirVariant {
  deriche,          ///< Deriche 1993, 4th order: causal + anticausal sum (Getreuer, IPOL 2013)
  young_van_vliet,  ///< Young & van Vliet 1995, 3rd order: causal then anticausal (Triggs-Sdika borders)
};

/// How the Vulkan backend runs `box` (the CPU always uses running sums). Both compute the same
/// extended boxes.
enum class BoxSchedule {
  automatic,    ///< GPUs: prefix sums along x (a workgroup per row: coalesced reads), running sums
                ///< along y and z (a thread per column: coalesced reads); software devices
                ///< (lavapipe), where workgroup barriers are costly: running sums everywhere
  prefix_sums,  ///< seed 001: a workgroup per line scans prefix sums in shared memory, in chunks with
                ///< carried sums (no limit on the line's length)
  running_sums, ///< seed 002: a thread per line walks it with a moving sum
};

/// One entry of the algorithm registry: the CLI help and the bindings are generated from it.
struct AlgorithmInfo {
  Algorithm id;
  std::string_view name;
  std::string_view summary;
  /// True for algorithms that blur x and y together (not separable): 2D images only, both axes at
  /// once. Their 1D metrics (analysis::measure_impulse) come from the marginal of the 2D response.
  bool planar = false;
  /// True for GPU techniques the CPU does not run (it throws Unsupported naming the Vulkan backend).
  bool gpu_only = false;
};
/// Every algorithm this build knows, in a stable order.
const std::vector<AlgorithmInfo>& algorithms();
/// The registry entry of one algorithm.
const AlgorithmInfo& algorithm_info(Algorithm algorithm);

/// What to blur and how. (Every field is part of the planner's cache key: src/plan/plan.cpp.)
struct BlurSpec {
  /// Standard deviation in pixels along x, y, z; 0 leaves the axis alone.
  std::array<double, 3> sigma{0.0, 0.0, 0.0};
  /// Border mode along x, y, z.
  std::array<Border, 3> border{Border::reflect, Border::reflect, Border::reflect};
  /// The value outside the image for Border::constant.
  double cval = 0.0;
  /// Kernel radius = int(truncate * sigma + 0.5), as in scipy, unless `radius` is given.
  double truncate = 4.0;
  /// Explicit kernel radius per axis; overrides truncate.
  std::array<std::optional<int>, 3> radius{};
  /// Gaussian derivative order per axis (0 = the Gaussian itself), as scipy.ndimage: the kernel is
  /// the sampled, normalised Gaussian times the derivative's polynomial
  /// (kernel::gaussian_derivative_weights). Only `fir` (and `automatic`, which then plans fir)
  /// computes derivatives; other algorithms throw InvalidArgument when an order is not 0.
  std::array<int, 3> order{0, 0, 0};
  Algorithm algorithm = Algorithm::automatic;
  /// With Algorithm::automatic: the largest max error (DESIGN.md: max |h - g| / max g of the
  /// impulse response) the planner may trade for speed. 0 = exact (fir).
  double tolerance = 0.0;
  /// box: passes 1..6; 0 picks 3.
  int box_passes = 0;
  /// box: seed 002's integer widths only (the achieved sigma then differs from sigma) instead of
  /// extended boxes, whose fractional end weights reach every sigma exactly.
  bool box_integer_widths = false;
  /// box on the Vulkan backend: which schedule (see BoxSchedule).
  BoxSchedule box_schedule = BoxSchedule::automatic;
  /// kawase: an explicit schedule of pass offsets in pixels (the classic pass k is k + 0.5),
  /// applied along every axis whose sigma is > 0; the achieved sigma is then the schedule's.
  /// Empty: the schedule is solved for each axis's sigma (kernel::kawase_schedule).
  std::vector<double> kawase_offsets{};
  /// kawase: passes for the solved schedule; 0 chooses them (kernel::kawase_schedule).
  int kawase_passes = 0;
  /// downsample: 2 or 4; 0 chooses per axis (4 from sigma 12, else 2). sigma must exceed what the
  /// resampling alone adds (1 at factor 2, 2 at factor 4).
  int downsample_factor = 0;
  /// iir: which recursive filter (see IirVariant for the accuracy of each).
  IirVariant iir_variant = IirVariant::deriche;
  /// sliding_dct: cosine terms after the constant one, 2 to 8; 0 picks 5 (kernel_sliding_dct.hpp
  /// gives the accuracy of each).
  int sliding_dct_order = 0;
  /// dual-kawase: levels (halvings) of the chain, 1..16; 0 chooses them for sigma
  /// (kernel::dual_kawase_levels_for).
  int dual_kawase_levels = 0;
  /// dual-kawase: the taps' offset in half texels (Bjorge's is 1), on both axes; the achieved sigma
  /// is then the chain's. 0 solves it per axis so the variance is exactly sigma^2.
  double dual_kawase_offset = 0.0;
  /// mip-poisson: samples per pixel, a multiple of 4 from 8 to 256; 0 picks 32.
  int mip_poisson_samples = 0;
  /// mip-poisson: the frame index that moves the rotation noise (Jimenez's 5.588238 pixels per
  /// frame), so that accumulating frames averages the noise away.
  int mip_poisson_frame = 0;
  /// 0 = all cores.
  int threads = 0;

  /// The same sigma on every axis of a 2D image (z untouched).
  static BlurSpec isotropic_2d(double sigma) {
    BlurSpec s;
    s.sigma = {sigma, sigma, 0.0};
    return s;
  }
  /// The same sigma on all three axes.
  static BlurSpec isotropic_3d(double sigma) {
    BlurSpec s;
    s.sigma = {sigma, sigma, sigma};
    return s;
  }
  /// Sets one border mode for every axis.
  BlurSpec& with_border(Border b) {
    border = {b, b, b};
    return *this;
  }
};

/// The largest radius fastblur accepts on one axis (beyond it the kernel table alone would not fit
/// in memory sensibly); larger requests throw InvalidArgument.
inline constexpr int kMaxRadius = 1 << 24;

/// The radius used along `axis` for this spec: explicit radius or int(truncate*sigma + 0.5), or 0 for
/// an axis with sigma 0. Throws InvalidArgument for a bad sigma, truncate or radius.
int effective_radius(const BlurSpec& spec, int axis);

/// Whether spec asks for a derivative (an order > 0 on an axis with sigma > 0). Throws
/// InvalidArgument for an order outside 0..64.
bool has_derivative(const BlurSpec& spec);

/// Blurs src into dst (see the contract above).
void blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur
