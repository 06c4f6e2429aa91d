// fir: the exact separable convolution with the sampled, normalised Gaussian (every seed); the
// reference for everything else, and the only algorithm that computes derivatives.
#include <algorithm>
#include <cmath>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_passes.hpp"
#include "fastblur/kernel.hpp"
#include "core/cache_size.hpp"
#include "core/element.hpp"
#include "core/threads.hpp"
#include "kernel/certified_int.hpp"
#include "kernel/fixed_point.hpp"

namespace fastblur::algo {
namespace {

// CPU: 5 + (r + 1) units per axis (SIMD taps over packed rows; fused through a ring of rows at small radii).
constexpr double kFirFixed = 5.0;
constexpr double kFirPerTapPair = 1.0;
// Float taps against the lane algorithms and the 16-bit fixed-point path: refitted 2026-11-28
// (bench/RESULTS.md, issue 43, "fir's float cost refitted") after fir's y pass was blocked: RGBA32F
// 1080p at sigma 5.67 and 12, 2 threads, against sliding-dct, iir and box at their modelled costs
// (1.5 before: the planner left fir at sigma 4 for a sliding-dct 1.7x slower). (A volume's z pass
// costs fir more again, but an axis's choice may not depend on where its lines lie: a line alone
// and the same lines folded into a volume must get the same filter.)
constexpr double kFirFloat = 0.9;
// SciPy's order into float64 (double taps, no conversion, rows read and written where they lie):
// refitted 2026-11-28 against iir at its modelled cost (float64 1400x1600, sigma 2-12, 2 threads;
// bench/RESULTS.md, issue 43, "faster options slower than the default"): 1.05-1.27, so 1.15 (1.5
// before: tolerances took iir at sigma 3 for 4.7-6.7 ms where the exact default took 3.8-4.4).
constexpr double kScipyOrderIntoDouble = 1.15;
// Up to this radius the 2D passes are fused through a ring of rows. Measured at 1080p RGBA, 2
// threads (bench/RESULTS.md, "fir: fused passes"): fused is 1.5x faster at radius 3, even at 8-12,
// and 1.3x slower at 20-24, where the y pass over the ring's 2r + 1 rows costs more than the
// intermediate image it saves.
constexpr int kFusedMaxRadius = 10;
// x rows of fewer values than this (a few vectors) are filtered across rows (Schedule::x_across_rows).
constexpr std::int64_t kShortRow = 32;
// z kernels read from the source's planes where they lie up to this many taps (Schedule::z_source_planes).
constexpr int kSourcePlanesMaxTaps = 24;
// An integer volume to nearest runs on SciPy's fused planes (rounded once) up to this many z taps
// (sigma 2 at truncate 4): longer, an 8- or 16-bit one on the float32 passes (their twice as many
// lanes are the faster), a 32-bit one with z's pass into doubles first (its ring of planes is dearer).
constexpr int kRoundedOnceMaxTaps = 17;

// SciPy's order fused over each plane's y and x (Schedule::fused_axes): the most the ring of the y kernel's rows
// of doubles may hold.
constexpr double kScipyRingBytes = 4.0 * (1 << 20);

// The column strip of a y or z pass: `taps` rows of it should stay in L2 (about 256 KiB); 48 is a
// multiple of 1 to 4 channels.
std::int64_t strip_for(int radius, ElementType intermediate) {
  const std::size_t size = intermediate == ElementType::f64 ? 8 : 4;
  const std::size_t taps = 2 * static_cast<std::size_t>(radius) + 1;
  return static_cast<std::int64_t>(std::clamp<std::size_t>((256 * 1024 / size) / taps, 48, 4096) / 48 * 48);
}

// 8-bit 2D images blur in 16-bit fixed point (CpuDriver::fixed_point) where both kernels fit Q15.
bool fixed_point_possible(const Plan& plan) {
  if (!(plan.axes[0].active && plan.axes[1].active) || plan.axes[2].active) return false;
  if (!(plan.spec.cval >= 0.0 && plan.spec.cval <= 255.0)) return false;
  for (std::size_t a = 0; a < 2; ++a)
    if (!plan.axes[a].weights || !kernel::fixed_point_half(*plan.axes[a].weights)) return false;
  return true;
}

// The sampled kernel's sigma, from the plan's weights (the Gaussian's, resolve_gaussian_radii).
double achieved_sigma(double sigma, int radius, const std::vector<double>& w) {
  if (radius == 0) return 0.0;
  if (radius > 4096) return sigma;  // the truncation no longer shows
  double v = 0.0;
  for (int k = -radius; k <= radius; ++k) v += w[static_cast<std::size_t>(k + radius)] * k * k;
  return std::sqrt(v);
}

class Fir final : public Descriptor {
 public:
  Fir()
      : Descriptor(
            {Algorithm::fir, "fir",
             "exact separable convolution with the sampled, normalised Gaussian (O(radius) per pixel)",
             "The reference of every other algorithm: scipy.ndimage's kernel (radius int(truncate sigma + 0.5)) "
             "convolved along each axis in SIMD, the 2D passes fused through a ring of rows at small radii. Computes "
             "Gaussian derivatives (order). Cost grows with the radius; fft computes the same convolution at a cost "
             "independent of it.",
             Capabilities{.separable = true, .max_dimensions = 3, .derivatives = true, .exact = true, .scipy_rounding = true}},
            {}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    resolve_gaussian_radii(spec, plan, /*fold=*/true);
    const bool derivative = has_derivative(spec);
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      // The truncated kernel's: the plan's weights, or for a derivative the Gaussian it is made from.
      const auto i = static_cast<std::size_t>(a);
      if (ax.folded_from > 0) {
        // resolve_gaussian_radii's: of the kernel before it was folded
      } else if (ax.radius > 0 && ax.radius <= 4096 && spec.order[i] != 0)
        ax.achieved_sigma = achieved_sigma(ax.sigma, ax.radius, kernel::gaussian_weights(ax.sigma, ax.radius));
      else
        ax.achieved_sigma = ax.weights ? achieved_sigma(ax.sigma, ax.radius, *ax.weights) : 0.0;
      if (derivative && ax.sigma > kSigmaCutoff) add_parameter(plan, "order", std::int64_t{spec.order[static_cast<std::size_t>(a)]}, a);
    }
  }

  // SciPy's two passes of a 2D image as one through a ring of rows (cpu/scipy_order_rows.cpp): y then
  // x filtered (SciPy's order for an image), no z, and the ring of the y kernel's rows of doubles
  // within kScipyRingBytes (L2 and a little; beyond it the ring's rows come from L3 at every output).
  // y then x last in SciPy's order, both filtered, the ring small enough: each plane's y and x
  // passes fused (after z's own pass, where z is filtered).
  static bool scipy_fused_axes(const Plan& plan, const Shape& shape) {
    const auto& ax = plan.axes;
    if (!(ax[0].sigma > 0.0) || !(ax[1].sigma > 0.0)) return false;
    const auto& order = plan.spec.axis_order;
    const auto at = [&](int a) { return std::find(order.begin(), order.end(), a) - order.begin(); };
    if (at(1) > at(0) || (ax[2].sigma > 0.0 && at(2) > at(1))) return false;
    const double ring = static_cast<double>(2 * plan.axes[1].radius + 1) * static_cast<double>(shape.extent[0]) *
                        shape.channels * sizeof(double);
    return ring <= kScipyRingBytes;
  }

  // A uint8, bool, uint16 or int8 2D image into its own type (SciPy's npy_bool is an unsigned char)
  // apart from it, both kernels SciPy's symmetric positive ones (order 0) and a cval of the type:
  // SciPy's sums certified in float32 on rows of integers (Schedule::scipy_int_certified; measured
  // in bench/RESULTS.md, issue 43, "8-bit photos' SciPy order certified in float32" and "int8, int16
  // and uint16 images' sums certified in float32"). Not int16, whose sums the certified rows make
  // too: there the sign's truncation cost more than the double driver's (a CT slice 0.91-0.93x).
  static bool scipy_int_certified(const Plan& plan, const Shape& shape) {
    return kernel::certified_int_types(shape.source, shape.destination) && shape.source != ElementType::i16 &&
           !shape.in_place && shape.extent[2] == 1 &&
           !(plan.axes[2].sigma > 0.0) && kernel::cval_fits_certified_int(shape.source, plan.spec.cval) &&
           plan.axes[0].weights && plan.axes[1].weights && kernel::certified_int_possible(*plan.axes[0].weights) &&
           kernel::certified_int_possible(*plan.axes[1].weights);
  }

  // A float32, 8- or 16-bit source apart from its output, a z kernel of up to kSourcePlanesMaxTaps and
  // no cval plane: z's sums can read the source's planes where they lie, widened as loaded
  // (Schedule::z_source_planes; measured in bench/RESULTS.md, issue 43, "float32 sources summed where
  // they lie": 230x200x180 sigma 1 / 2 / 4 1.35x / 1.23x / 1.04x the pass per axis, sigma 8 0.61x;
  // "int16 volumes' planes where they lie").
  static bool z_source_planes(const Plan& plan, const Shape& shape) {
    const auto& w = plan.axes[2].weights;
    return core::widens_to_double_as_loaded(shape.source) && !shape.in_place && plan.spec.border[2] != Border::constant &&
           w && static_cast<int>(w->size()) <= kSourcePlanesMaxTaps;
  }

  // A volume filtered z, then y and x fused (SciPy's order), whose ring of z's planes (its taps and a
  // group of 3 more, in double) over the most threads the plan may get fits half the last-level
  // cache, and whose output does not (below that z's result stays in the cache for the planes: 128^3
  // float32 0.99x): z's pass plane by plane, each output plane's y and x while in cache
  // (Schedule::fused_z). Measured in bench/RESULTS.md (issue 43, "z fused with the planes"). Where z
  // sums the source's planes where they lie (z_source_planes) there is no ring: only the group's count,
  // and no output size too small - z's own pass writes and re-reads a volume the fused planes never
  // make (issue 43, "z over the source's planes below half the cache": 0.82-0.99x from 32^3 to 128^3).
  // Rounded once into an integer type (integers_rounded_once) the other way is not z's pass of
  // SciPy's order but the pass per axis, which writes and re-reads the volume per axis: no output size
  // too small either. (float64 out rounds nothing: the default's rule.)
  static bool scipy_fused_z(const Plan& plan, const Shape& shape) {
    const auto& ax = plan.axes;
    if (!plan.schedule.fused_axes || !(ax[2].sigma > kSigmaCutoff) || shape.extent[2] < 2 || !ax[2].weights) return false;
    const auto& order = plan.spec.axis_order;
    if (order[0] != 2) return false;  // z first (fused_axes has y then x last)
    const double plane = static_cast<double>(shape.extent[0] * shape.extent[1] * shape.channels) * sizeof(double);
    const bool source_planes = z_source_planes(plan, shape);
    const double held = source_planes ? 4.0 : static_cast<double>(ax[2].weights->size() + 3 + 4);
    const double ring = held * plane;  // the ring and the group's planes
    const int workers = core::threads_for(1e300, plan.spec.threads);  // the most the planner may give
    const double half_cache = static_cast<double>(core::last_level_cache_bytes()) / 2;
    const double output = static_cast<double>(shape.elements()) * static_cast<double>(element_size(shape.destination));
    // Without a ring the group's planes may fill 3/4 of that half: measured float32 planes of 420^2
    // fused 1.07x faster (11.3 MB over two workers), of 512^2 0.79-0.91x (16.8 MB), LLC 32 MiB.
    const double budget = source_planes ? 0.75 * half_cache : half_cache;
    const bool rounded_via_doubles = plan.spec.rounding != Rounding::scipy && shape.destination != ElementType::f64;
    return ring * workers <= budget && (source_planes || rounded_via_doubles || output >= half_cache);
  }

  // Schedules integers to nearest on SciPy's order in double, rounded once (cpu::rounds_once): the
  // exact result, correctly rounded, at about the default's cost - 32-bit integers' images and volumes
  // (their other drivers run in double: int32 1080x1920 sigma 1 / 2 2.4x / 2.1x, 700x800 2.4x / 2.1x
  // faster, bench/options_vs_default.py; 100x150x200 sigma 2 2.1x, 64^3 sigma 1 1.9x), and 8- and
  // 16-bit volumes filtered along every axis whose z kernel has up to kRoundedOnceMaxTaps taps
  // (against the float32 passes per axis: int16 200^3 sigma 1 / 1.5 / 2 1.29x / 1.51x / 1.15x,
  // 80x170x150 0.98-1.02x here, where CI's machine ran the passes at 1.72x; 64^3 0.52x, the price
  // of one rule at every size). Whatever the
  // size, so that a piece of an array (dask's chunks, the CLI's bands) gets the whole call's bits:
  // the rows and planes fused where they fit, else z's pass (or every pass) into a float64 volume
  // first (bench/RESULTS.md, issue 43, "integer volumes to nearest through the fused planes").
  // 64-bit integers too (their other drivers work in double as well: int64 100x150x200 sigma 1 1.17x
  // the default on the passes in double, bench/RESULTS.md, issue 43, "int64 and bool rows").
  static bool integers_rounded_once(Plan& plan, const Shape& shape) {
    const ElementType to = shape.destination;
    const bool integers = core::integer_range(to) || to == ElementType::i64 || to == ElementType::u64;
    if (shape.backend != Backend::cpu || plan.spec.rounding != Rounding::nearest || !integers || to == ElementType::b8 ||
        has_derivative(plan.spec))
      return false;
    const bool in_double = plan.schedule.intermediate == ElementType::f64;
    const auto& ax = plan.axes;
    const bool volume = shape.extent[2] > 1 && ax[2].sigma > kSigmaCutoff && ax[2].weights;
    const bool short_z = volume && static_cast<int>(ax[2].weights->size()) <= kRoundedOnceMaxTaps;
    // 8- and 16-bit: volumes filtered along x and y too, whose x holds more than a pixel's values (an
    // RGB(A) array under one sigma keeps the float32 passes that filter it across its pixels).
    const bool xy = ax[0].sigma > kSigmaCutoff && ax[1].sigma > kSigmaCutoff &&
                    shape.extent[0] * shape.channels > kMostPixelValues;
    if (!in_double && !(short_z && xy)) return false;
    Schedule& s = plan.schedule;
    s.driver = CpuDriver::scipy_order;
    s.intermediate = ElementType::f64;
    s.fused_axes = !s.x_across_rows && scipy_fused_axes(plan, shape);
    // z's ring of a long kernel cost more than its pass into doubles (int32 80x170x150 / 100x150x200
    // sigma 4: 1.29x / 1.37x).
    s.fused_z = short_z && s.fused_axes && scipy_fused_z(plan, shape);
    s.z_source_planes = s.fused_z && z_source_planes(plan, shape);
    return true;
  }

  // x rows shorter than a vector are filtered across rows (Schedule::x_across_rows); the ring of
  // rows of the fused drivers would walk such rows one at a time, so they run a pass per axis.
  static bool x_across_rows(const Plan& plan, const Shape& shape) {
    return shape.backend == Backend::cpu && plan.axes[0].active && plan.axes[0].radius > 0 &&
           shape.extent[0] * shape.channels < kShortRow;
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    schedule_fir_gpu(plan, shape);  // the Vulkan passes (nothing on the CPU)
    const auto& ax = plan.axes;
    plan.schedule.x_across_rows = x_across_rows(plan, shape);
    if (plan.spec.rounding == Rounding::scipy && shape.backend == Backend::cpu) {  // SciPy's arithmetic, in double
      plan.schedule.driver = CpuDriver::scipy_order;
      plan.schedule.intermediate = ElementType::f64;
      plan.schedule.fused_axes = !plan.schedule.x_across_rows && scipy_fused_axes(plan, shape);
      plan.schedule.fused_z = shape.backend == Backend::cpu && scipy_fused_z(plan, shape);
      plan.schedule.z_source_planes = plan.schedule.fused_z && z_source_planes(plan, shape);
      plan.schedule.scipy_int_certified = plan.schedule.fused_axes && scipy_int_certified(plan, shape);
      // A 2D image's fused rows write float32 output rows themselves (cpu/scipy_order_rows.cpp):
      // streamed 1.10-1.12x at 1080p-4K. Not a volume's planes: after z's pass they are read back in
      // place, their lines in cache (streamed 0.91x), and planes alone streamed 0.94x (230x200x180).
      plan.schedule.stream_destination = plan.schedule.fused_axes && shape.extent[2] == 1 && streams_float_destination(shape);
      return;
    }
    // Integers to nearest on SciPy's order in double, the result rounded once as it is written
    // (integers_rounded_once says which).
    if (integers_rounded_once(plan, shape)) return;
    // float64 out in double arithmetic: SciPy's order is the faster double driver (a ring of rows, the
    // tap rows' loads shared, a plane's axes fused), and into float64 its store after each axis rounds
    // nothing - its sums are the exact result, rounded once. 2 threads, float64 2048x2048 sigma 2:
    // 7.6 ms against fused-rows' 12.1 ms (bench/RESULTS.md, issue 43). Not derivatives: their kernels
    // sum to 0, so SciPy's cval padding after the first axis is not the constant border of the image.
    if (shape.backend == Backend::cpu && shape.destination == ElementType::f64 &&
        plan.schedule.intermediate == ElementType::f64 && !has_derivative(plan.spec)) {
      plan.schedule.driver = CpuDriver::scipy_order;
      plan.schedule.fused_axes = !plan.schedule.x_across_rows && scipy_fused_axes(plan, shape);
      // z with the planes as the default does (float64 128^3 sigma 1: z's pass apart 1.10-1.19x).
      plan.schedule.fused_z = scipy_fused_z(plan, shape);
      plan.schedule.z_source_planes = plan.schedule.fused_z && z_source_planes(plan, shape);
      return;
    }
    if (has_derivative(plan.spec)) {  // the derivative kernels run on the line driver, in double
      plan.schedule.driver = CpuDriver::lines;
      plan.schedule.x_across_rows = false;  // the line driver interleaves lines of every axis itself
      return;
    }
    const int rx = ax[0].active ? ax[0].radius : 0;
    const bool fused = !(ax[2].active && ax[2].radius > 0) && ax[1].active && ax[1].radius > 0 &&
                       ax[1].radius <= kFusedMaxRadius && rx <= kFusedMaxRadius && !plan.schedule.x_across_rows;
    plan.schedule.driver = fused ? CpuDriver::fused_rows : CpuDriver::axis_passes;
    // 8-bit 2D images: 16-bit fixed point, twice float's lanes (within 1 of the rounded result).
    // Short rows too: its bits differ from float's (within 1), and a chunk of an image (dask) must
    // get the bits of the whole, whatever its width.
    if (shape.backend == Backend::cpu && shape.source == ElementType::u8 && shape.destination == ElementType::u8 &&
        fixed_point_possible(plan)) {
      plan.schedule.driver = CpuDriver::fixed_point;
      plan.schedule.x_across_rows = false;
    }
    // Short x rows with z filtered (an RGB array under one sigma): y and z as the x and y of the
    // image of (x, channels)-value pixels through the ring of rows, x across each source row's
    // pixels as it enters - the image read once and written once (cpu/fir.cpp's
    // fir_short_x; bench/RESULTS.md, issue 43, "one sigma on an RGB(A) array").
    plan.schedule.fused_axes = plan.schedule.driver == CpuDriver::axis_passes && plan.schedule.x_across_rows &&
                               ax[2].active && ax[2].radius > 0 && ax[2].radius <= kFusedMaxRadius &&
                               (!ax[1].active || ax[1].radius <= kFusedMaxRadius);
    // Short x rows: y runs as the x pass of an image of (x, channels)-value pixels and z as its y
    // pass, whose rows are a whole plane (cpu/fir.cpp's fir_short_x).
    const std::int64_t row = shape.extent[0] * shape.channels * (plan.schedule.x_across_rows ? shape.extent[1] : 1);
    for (int a = 1; a < 3; ++a)
      plan.schedule.strip[static_cast<std::size_t>(a)] =
          plan.schedule.x_across_rows && a == 1
              ? 0
              : std::min<std::int64_t>(strip_for(ax[static_cast<std::size_t>(a)].radius, plan.schedule.intermediate), row);
  }

  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    return gaussian_equivalent_kernel(spec, axis);
  }

  double axis_cost(const Plan& plan, const Shape&, int axis) const override {
    const int r = plan.axes[static_cast<std::size_t>(axis)].radius;
    if (plan.schedule.backend == Backend::vulkan) return 1.0 + 0.02 * (r + 1);  // taps from shared memory
    const double cost = kFirFixed + kFirPerTapPair * (r + 1);
    if (plan.schedule.driver == CpuDriver::scipy_order)  // double, a conversion per axis (none into float64 or rounded once)
      return (plan.destination == ElementType::f64 || plan.spec.rounding != Rounding::scipy ? kScipyOrderIntoDouble : 2.0) * cost;
    if (plan.schedule.driver == CpuDriver::fixed_point) return 0.5 * cost;  // 16-bit lanes
    return kFirFloat * cost;
  }

  // Truncated as far as the tolerance allows: per axis the smallest radius whose error keeps the
  // product of (1 + e) within 1 + tolerance (up to the spec's radius, or beyond it where its
  // truncation alone exceeds the tolerance).
  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape& shape) const override {
    if (spec.tolerance <= 0.0) return {};
    int active = 0;
    for (int a = 0; a < 3; ++a) active += axis_active(spec, shape, a);
    if (active == 0) return {};
    BlurSpec fir = with_algorithm(spec, Algorithm::fir);
    const double share = std::pow(1.0 + spec.tolerance, 1.0 / active) - 1.0;
    for (int a = 0; a < 3; ++a) {
      if (!axis_active(spec, shape, a)) continue;
      const auto i = static_cast<std::size_t>(a);
      const int full = std::max(effective_radius(spec, a), static_cast<int>(std::ceil(8.0 * spec.sigma[i])));
      int r = 1;
      for (; r < full; r = std::max(r + 1, r * 9 / 8)) {
        fir.radius[i] = r;
        if (predicted_axis_error(fir, a) <= share) break;
      }
      fir.radius[i] = std::min(r, full);
    }
    return {fir};
  }
};

}  // namespace

const Descriptor& fir_descriptor() {
  static const Fir d;
  return d;
}

}  // namespace fastblur::algo
