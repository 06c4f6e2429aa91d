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
///  - rounding: three contracts, one per kind of request, chosen by the spec, never by the data:
///    * Rounding::nearest (the default here, and the CLI's): exact (fir) integer outputs are the
///      correctly rounded result, except 8-bit 2D images (u8 in and out, radius <= 24): those run in
///      16-bit fixed point (CpuDriver::fixed_point), each output within 1 of the rounded result (about
///      1.3% differ), as OpenCV's bit-exact path;
///    * Rounding::scipy (the Python drop-in's default): scipy.ndimage's bits on every element type,
///      for exact requests on the CPU (CpuDriver::scipy_order);
///    * a tolerance > 0 (Algorithm::automatic): the planner's cheapest algorithm whose predicted max
///      error is within it, on every element type, rounded once at the end.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fastblur/algorithm.hpp"
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

/// Which recursive Gaussian Algorithm::iir runs (0.5 <= sigma <= 1000). Their accuracy as a Gaussian
/// is measured in bench/RESULTS.md's generated accuracy table (Deriche: max error about 5e-4;
/// Young-van Vliet: about 2e-2, and wider than asked). Borders: nearest and constant are exact (the
/// recursions start from the constant's steady state; Triggs-Sdika for Young-van Vliet's backward
/// pass); reflect, mirror and wrap extend each line until the response has decayed below 1e-8.
enum class IirVariant {
  deriche,          ///< Deriche 1993, 4th order: causal + anticausal sum (Getreuer, IPOL 2013)
  young_van_vliet,  ///< Young & van Vliet 1995, 3rd order: causal then anticausal (Triggs-Sdika borders)
};

/// How a blur's result is rounded: the contract of each kind of request (README, help(fastblur)).
enum class Rounding {
  /// The exact result rounded once, at the end: float outputs to their precision, integer outputs to
  /// nearest and saturated - except 8-bit 2D images (u8 in and out, radius <= 24), which blur in 16-bit
  /// fixed point, every output within 1 of the correctly rounded result (about 1.3% differ), as
  /// OpenCV's bit-exact path. With a tolerance, within it.
  nearest,
  /// scipy.ndimage.gaussian_filter's bits (the Python drop-in's default): SciPy's weights (`weights`,
  /// else the sampled Gaussian or its derivative), every output summed in SciPy's order in double,
  /// converted to the output type after each axis as C converts (integers truncated toward zero), axes
  /// in `axis_order`; so a blur over several axes equals its sequence of one-axis blurs, on every
  /// element type. For SciPy's request only - exact, on the CPU (tolerance 0 with Algorithm::automatic,
  /// or Algorithm::fir): the planner gives it CpuDriver::scipy_order. Any other request (a tolerance,
  /// another algorithm, a Vulkan device) is not SciPy's filter and rounds as `nearest`.
  scipy,
};
std::string_view to_string(Rounding rounding) noexcept;
/// Parses "nearest" or "scipy"; throws InvalidArgument.
Rounding parse_rounding(std::string_view name);

/// What to blur and how. The algorithms' own parameters are declared, with their ranges and defaults, by
/// the registry (algorithm.hpp) and held in `options`; set_parameter sets them by name.
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
  /// With Algorithm::automatic: the largest max error (docs/DESIGN.md, Quality metrics: max |h - g| / max g of the
  /// impulse response) the planner may trade for speed. 0 = exact (fir).
  double tolerance = 0.0;
  /// The algorithms' own parameters (box_passes, iir_variant, correlate_weights, ...) by key, each set at
  /// most once: each one's doc, range and default are its descriptor's (algorithm.hpp: algorithms()[...]
  /// .parameters, `fastblur blur --help`, help(fastblur)). Set and read them with set_parameter and
  /// get_parameter (a key not set reads as its default), so a new parameter needs no field here.
  std::vector<std::pair<std::string, ParameterValue>> options{};
  /// 0 = all cores.
  int threads = 0;
  /// How the result is rounded (see Rounding).
  Rounding rounding = Rounding::nearest;
  /// Rounding::scipy: the order in which the axes are filtered (x, y, z = 0, 1, 2), each once. SciPy
  /// filters in the order of its array axes, the first first: z, y, x for a C-ordered volume (the
  /// default), y then x for an image. Other drivers filter in their own order (their rounding is once).
  std::array<int, 3> axis_order{2, 1, 0};
  /// Explicit correlation weights per axis (empty: computed): 2 radius + 1 values, output i = sum over k
  /// of weights[k] in[i - radius + k]. The kernel that sigma, radius and order define, computed elsewhere:
  /// the Python drop-in passes SciPy's own (NumPy's arithmetic), so that CpuDriver::scipy_order's sums
  /// are SciPy's to the bit. fir's plan carries them as its kernel (AxisPlan::weights) where their
  /// length is the axis's 2 radius + 1 (a tolerance's shorter fir computes its own).
  std::array<std::vector<double>, 3> weights{};

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
/// A sigma at or below this leaves its axis alone (scipy.ndimage's rule: gaussian_filter skips an
/// axis whose sigma is not above 1e-15). The one place the cutoff is written.
inline constexpr double kSigmaCutoff = 1e-15;

/// The radius used along `axis` for this spec: explicit radius or int(truncate*sigma + 0.5), or 0 for
/// an axis with sigma 0. Throws InvalidArgument for a bad sigma, truncate or radius.
int effective_radius(const BlurSpec& spec, int axis);

/// Whether spec asks for a derivative (an order > 0 on an axis with sigma > 0). Throws
/// InvalidArgument for an order outside 0..64.
bool has_derivative(const BlurSpec& spec);

/// Sets the algorithm parameter `key` (AlgorithmInfo::parameters; e.g. "box_passes") after checking
/// the value's kind and range. Throws InvalidArgument naming the key and its range.
void set_parameter(BlurSpec& spec, std::string_view key, const ParameterValue& value);
/// The same from text, as the command line gives it ("3", "0.5,1.5,2.5", "deriche", "true").
void set_parameter_text(BlurSpec& spec, std::string_view key, std::string_view text);
/// Whether the spec's algorithm takes the parameter `key`: only its own parameters count, and the
/// automatic choice takes none (the planner sets its candidates' parameters itself). Front ends
/// refuse a parameter the caller gave that would otherwise be ignored. Throws InvalidArgument for
/// an unknown key.
bool parameter_applies(const BlurSpec& spec, std::string_view key);
/// The algorithm whose parameter `key` is. Throws InvalidArgument for an unknown key.
Algorithm parameter_owner(std::string_view key);
/// Throws InvalidArgument for an option in spec that its algorithm does not take (another
/// algorithm's, or any with the automatic choice), naming the option and its owner: make_plan
/// refuses what it would otherwise ignore, for every front end.
void check_options_apply(const BlurSpec& spec);
/// The value of the parameter `key` in spec. Throws InvalidArgument for an unknown key.
ParameterValue get_parameter(const BlurSpec& spec, std::string_view key);

/// Blurs src into dst (see the contract above).
void blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur
