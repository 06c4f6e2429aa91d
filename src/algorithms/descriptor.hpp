#pragma once
// One descriptor per algorithm (src/algorithms/NAME.cpp): its parameters and capabilities (the
// public AlgorithmInfo), how its parameters resolve for a sigma into a plan, its equivalent kernel
// (the planner's error prediction), its cost per backend and driver, its reach (the halo of pieces)
// and the variants it offers the planner. Everything that needs to know about an algorithm - the
// planner, the front door, the command line, the bindings, the benchmarks, the tests - asks its
// descriptor; backends execute the plans it resolves (executors registered by id).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "fastblur/algorithm.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {

// The resolved parameters of each algorithm derive from this (plan.hpp keeps it opaque).
struct ResolvedParameters {
  virtual ~ResolvedParameters() = default;
};

namespace algo {

struct GpuProfile;

/// What a plan depends on besides the spec: the data's shape and types, and the backend with the
/// traits of its device that change a plan.
/// An x axis of up to this many values is a pixel's (RGB(A) under one sigma: the channel axis), not
/// a piece of an image's rows (Schedule::pixels_image; fir's rounded-once rule).
inline constexpr std::int64_t kMostPixelValues = 4;

struct Shape {
  std::array<std::int64_t, 3> extent{1, 1, 1};
  int channels = 1;
  ElementType source = ElementType::f32, destination = ElementType::f32;
  Backend backend = Backend::cpu;
  /// CPU: the call writes over its source (the fused drivers then keep a ring of what they overwrite).
  bool in_place = false;
  bool software_device = false;  ///< Vulkan on the CPU (lavapipe): workgroup barriers are costly
  bool device_float64 = true;    ///< the Vulkan device computes in float64
  std::uint64_t piece_bytes = 0;  ///< Vulkan: the most a piece may hold as float32 (0: no limit known)
  std::int64_t max_image_2d = 0;  ///< Vulkan: the largest 2D image side (0: no limit known)
  std::uint64_t shared_memory_bytes = 0;  ///< Vulkan: a workgroup's shared memory (0: not known; a GPU's 48 KiB)
  /// Vulkan, the caller's buffers: both float32, on the device's storage-buffer alignment and apart,
  /// so the passes can read and write them where they are (Schedule::gpu_io).
  bool caller_buffers_bindable = false;
  /// CUDA arrays: the handoff the device and the CUDA driver allow (none: not a CUDA array).
  CudaHandoff cuda_handoff = CudaHandoff::none;
  /// Vulkan: the device's measured profile (gpu_profile.hpp), null where it has none: costs from the model.
  std::shared_ptr<const GpuProfile> profile;

  /// Data float cannot hold exactly (f64, 32- and 64-bit integers): computed in double.
  bool wants_double() const noexcept { return needs_double(source) || needs_double(destination); }
  /// 3 for volumes (depth > 1), else 2.
  int dimensions() const noexcept { return extent[2] > 1 ? 3 : 2; }
  std::int64_t elements() const noexcept { return extent[0] * extent[1] * extent[2] * channels; }
};

/// Access to one parameter's value in a BlurSpec (option(): BlurSpec::options).
struct Parameter {
  ParameterInfo info;
  std::function<ParameterValue(const BlurSpec&)> get;
  std::function<void(BlurSpec&, const ParameterValue&)> set;  ///< value already checked against info
};

/// A parameter held in BlurSpec::options under its key (a key not set reads as the kind's zero: 0,
/// false, the first choice, an empty list).
Parameter option(ParameterInfo info);
/// The value of an option parameter as its kind's type (std::int64_t, double, bool, std::string or
/// std::vector<double>), or that zero where the spec does not set it.
template <class T>
T option_value(const BlurSpec& spec, std::string_view key) {
  for (const auto& [k, v] : spec.options) {
    if (k != key) continue;
    if (const T* t = std::get_if<T>(&v)) return *t;
    // A number of the other kind (a value that bypassed set_parameter; check() refuses a bad one).
    if constexpr (std::is_same_v<T, std::int64_t>) {
      if (const double* d = std::get_if<double>(&v); d && std::abs(*d) < 9e18) return static_cast<std::int64_t>(*d);
    } else if constexpr (std::is_same_v<T, double>) {
      if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
    }
  }
  return T{};
}
/// An integer option as int (the descriptors' ranges keep them small).
inline int option_int(const BlurSpec& spec, std::string_view key) {
  return static_cast<int>(std::clamp<std::int64_t>(option_value<std::int64_t>(spec, key), -(1 << 30), 1 << 30));
}
/// Writes an option unchecked: a descriptor filling in the value it chose (plan.spec).
void set_option(BlurSpec& spec, std::string_view key, ParameterValue value);

/// Checks `value` against `info` (kind, range, multiple, choices) and converts it to the kind's own
/// type (an integer for a whole real, ...). Throws InvalidArgument naming the key and the range.
ParameterValue checked_value(const ParameterInfo& info, const ParameterValue& value);

/// An algorithm's exact 1D equivalent kernel (centred, odd length) and the sigma of the Gaussian it
/// is compared with (NaN for a kernel that is no Gaussian's shape: its predicted error is NaN).
struct EquivalentKernel {
  std::vector<double> weights;
  double sigma = 0.0;
};

/// The max error of a 1D kernel (docs/DESIGN.md, Quality metrics): max |k - g| / max g, g the sampled Gaussian of its sigma
/// normalised over +-8 sigma, compared one sample beyond the kernel on each side.
double max_error_1d(const EquivalentKernel& k);

/// Sigma at which the O(1) algorithms' shape error is evaluated: their shape error has reached its
/// asymptote there, and larger sigmas would only cost time.
inline constexpr double kLargeSigma = 64.0;

/// A GPU sampler's bilinear filter with 8 sub-texel bits places each fetch within 1/512 of a texel,
/// moving a tap's weight between its two texels by up to 1/512 of it; a pass's taps together, at
/// most twice the kernel's peak, by up to 1/256 of the peak. Added per filtered axis to the
/// prediction of algorithms with Capabilities::texture_filtering on a hardware Vulkan device.
inline constexpr double kSubTexelError = 1.0 / 256;

/// An 8-bit normalized image (GpuPass::real u8: the image algorithms' unorm8-images) stores each value
/// as one of the two multiples of 1/255 of the range nearest it - Vulkan lets the implementation
/// choose which (its conversion to normalized fixed point), so up to 1/255 on every pass's result but
/// the last's, which goes to a buffer (lavapipe: 1.24 levels after one stored pass and the final
/// rounding, where the nearest multiple would allow 1.0) - and the next pass filters those 8-bit
/// texels with 8-bit weights even on a device that filters float texels exactly, a tap's weight off
/// by up to 1/512: half a level more where neighbours differ by the range (lavapipe: dual-kawase
/// 1.506 levels where 1.5 were allowed, KawaseImagesIn8BitStayWithinTheirBound). Added to the
/// prediction once for each such pass (Descriptor::image_roundings).
inline constexpr double kUnorm8Rounding = 1.5 / 255;

class Descriptor {
 public:
  Descriptor(AlgorithmInfo info, std::vector<Parameter> parameters);
  virtual ~Descriptor() = default;
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  const AlgorithmInfo& info() const noexcept { return info_; }
  const std::vector<Parameter>& parameters() const noexcept { return parameters_; }
  Algorithm id() const noexcept { return info_.id; }
  std::string name() const { return std::string(info_.name); }

  /// Checks the spec's values of this algorithm's parameters, its sigma limits, and that the
  /// shape's backend runs it on this shape (derivatives included). Throws InvalidArgument for a bad
  /// value, Unsupported for what the backend or shape cannot do. Overrides add their own rules and
  /// call this first.
  virtual void check(const BlurSpec& spec, const Shape& shape) const;

  /// Resolves the spec's parameters for each axis's sigma: plan.axes[a] (radius, support, align,
  /// achieved_sigma), plan.parameters and plan.resolved; plan.axes[a].active, sigma and border are
  /// set by the planner beforehand. Called after check.
  virtual void resolve(const BlurSpec& spec, const Shape& shape, Plan& plan) const = 0;

  /// The algorithm's part of the schedule of a resolved plan: the CPU driver (and fir's strips), or
  /// the Vulkan variants (box's schedule per axis, iir's precision). The planner has set the backend
  /// and the intermediate type; it sets threads and tiles afterwards. Default: the line driver.
  virtual void schedule(Plan& plan, const Shape& shape) const;

  /// Vulkan, once the pieces and the GPU variant are chosen: the passes' batches (GpuPass::batch)
  /// and what else of them depends on a piece's size, for pieces of at most `piece` samples along
  /// each axis. Default: the algorithm's passes keep no per-line scratch.
  virtual void schedule_gpu_batches(Plan& plan, const Shape& shape, std::array<std::int64_t, 3> piece) const;

  /// The exact 1D equivalent kernel along `axis` at the axis's sigma, or at kLargeSigma where the
  /// shape error no longer changes. nullopt: none (planar algorithms, or a kernel too long to be
  /// worth computing, where the truncation alone decides).
  virtual std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const;

  /// Planar algorithms: the 2D max error (docs/DESIGN.md, Quality metrics) of the response at the spec's sigmas.
  virtual double planar_error(const BlurSpec& spec) const;

  /// How many results of the plan's GPU image passes are stored in its images before another pass
  /// reads them, counted on the axis whose error they add to (8-bit normalized images round each by
  /// kUnorm8Rounding). Default: each filtered axis's pass but the first's reads the one before it.
  virtual std::array<int, 3> image_roundings(const Plan& plan) const;
  /// `count` roundings, counted on the plan's first filtered axis (passes that filter every axis at once).
  static std::array<int, 3> on_first_filtered_axis(const Plan& plan, int count);

  /// Work along `axis` per pixel and channel for the plan's backend and driver: CPU units of one fir
  /// tap pair (bench/RESULTS.md's fit), GPU image passes. Planar algorithms count half on x and y.
  virtual double axis_cost(const Plan& plan, const Shape& shape, int axis) const = 0;

  /// The variants the planner weighs for spec (algorithm automatic, spec.tolerance > 0), this
  /// algorithm named and its free parameters chosen; empty where it is no candidate. Algorithms with
  /// capabilities().exact are also weighed at tolerance 0.
  virtual std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const;

  /// The variants the planner weighs at tolerance 0 besides fir: those whose result equals fir's
  /// within kExactAgreement (relative to the impulse response's peak). Default: candidates() for
  /// algorithms with capabilities().exact, none for the others.
  virtual std::vector<BlurSpec> exact_candidates(const BlurSpec& spec, const Shape& shape) const;

 private:
  AlgorithmInfo info_;
  std::vector<Parameter> parameters_;
};

/// The resolved parameters of a plan as the algorithm's own type (what its executors read).
template <class T>
const T& resolved_as(const Plan& plan) {
  const auto* r = dynamic_cast<const T*>(plan.resolved.get());
  if (!r) throw std::logic_error("the plan's resolved parameters are not this algorithm's");
  return *r;
}

/// Every algorithm's descriptor, in the registry's stable order (automatic has none).
const std::vector<const Descriptor*>& registry();
/// The descriptor of `algorithm`; throws InvalidArgument for automatic.
const Descriptor& descriptor(Algorithm algorithm);

// Shared pieces of descriptors.

/// The spec with `algorithm` named (a candidate), keeping only that algorithm's own options.
BlurSpec with_algorithm(const BlurSpec& spec, Algorithm algorithm);
/// Whether the axis is filtered: sigma > 0, and more than one sample unless the border is constant.
bool axis_active(const BlurSpec& spec, const Shape& shape, int axis);
/// A plan parameter entry (whole plan: axis -1).
void add_parameter(Plan& plan, std::string key, ParameterValue value, int axis = -1);
/// The sampled Gaussian of the axis's sigma and radius (fir's kernel), as an equivalent kernel;
/// nullopt beyond radius 4096 (the truncation alone decides: kernel::dropped_weight).
std::optional<EquivalentKernel> gaussian_equivalent_kernel(const BlurSpec& spec, int axis);
/// The correlation weights of fir's kernel along `axis` at `radius`: the spec's own weights where it
/// gives them, else the sampled Gaussian, or its derivative of the spec's order as a correlation.
std::vector<double> gaussian_axis_weights(const BlurSpec& spec, int axis, int radius);
/// Resolves the algorithms that convolve with the sampled Gaussian (fir and its GPU variants, fft):
/// each axis's radius (its support where it is filtered), achieved sigma and weights (every axis
/// with a sigma: gaussian_axis_weights).
/// `fold`: a radius beyond the axis is folded onto what the border reads (algorithms/folded_kernel.hpp),
/// for the algorithms that run the plan's weights as they are (fir, fft); fir-linear and
/// fir-incremental derive their taps from the radius and sigma on the device, unfolded.
void resolve_gaussian_radii(const BlurSpec& spec, Plan& plan, bool fold = false);
/// A planar algorithm's 2D response to a unit impulse at pixel (n/2, n/2) of an n x n image (n odd,
/// zero beyond its edges) for `spec` (its sigma along x and y equal), computed in the kernel layer as
/// its executor computes it (kernel::dual_kawase_impulse_response, mip_poisson_impulse_response).
using PlanarResponse = std::function<std::vector<double>(const BlurSpec& spec, int n)>;
/// The 2D max error (docs/DESIGN.md, Quality metrics) of a planar algorithm's response to an impulse
/// at each axis's sigma clamped to kLargeSigma (at its own sigma where the spec's parameters do not
/// reach the clamped one); the worse of x and y. The same figure as analysis::measure_impulse's
/// max_error_2d of a blur, without the blur: no plan, no front door.
double measured_planar_error(const BlurSpec& spec, const PlanarResponse& response);
/// A line's length with `pad` samples of border extension on each side, relative to the line
/// (costs of drivers that extend lines).
double padded_ratio(const Shape& shape, int axis, double pad);

/// "Exact" (docs/DESIGN.md, Contracts): an impulse response within this of fir's own, relative to its peak - float
/// rounding's order, far below fir's truncation (2e-4 at truncate 4).
inline constexpr double kExactAgreement = 1e-5;

/// The tolerance from which float64 data may run in float SIMD lanes: float's rounding (about 6e-8
/// of the data's range) is then under 1% of what the caller allows.
inline constexpr double kFloatLanesTolerance = 1e-5;
/// Whether the data may be computed in float lanes: float (and integer) data always; float64 data
/// only where an approximation was asked for (tolerance >= kFloatLanesTolerance), since tolerance 0
/// promises float64 data a double computation.
bool float_lanes_allowed(const BlurSpec& spec, const Shape& shape);

/// Whether a CPU driver that writes float32 rows itself streams them past the caches
/// (Schedule::stream_destination): a float32 destination of at least half the last-level cache - a
/// cached store first reads each line from memory, and the caches could not keep such an output.
bool streams_float_destination(const Shape& shape);

}  // namespace algo
}  // namespace fastblur
