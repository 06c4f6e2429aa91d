// The planner. Errors are predicted from each candidate's exact 1D equivalent kernel; costs from a
// per-pixel operation model calibrated on the CPU backend (see bench/RESULTS.md).
#include "fastblur/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <string>

#include "cpu/box.hpp"
#include "cpu/downsample.hpp"
#include "cpu/dual_kawase.hpp"
#include "cpu/kawase.hpp"
#include "cpu/mip_poisson.hpp"
#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "fastblur/kernel_iir.hpp"
#include "fastblur/kernel_sliding_dct.hpp"

namespace fastblur {
namespace {

// Cost model per pixel, channel and axis, in units of one fir tap pair (about 0.034 ns with 2
// threads on the Zen 5 VM of bench/RESULTS.md), fitted to the per-algorithm rows of
// bench/cpu_bench.cpp (algo/*/1920x1080/s5, s20, s50; the fit and its residuals are in RESULTS.md).
// fir: 5 + (r + 1) units (passes fused through a ring of rows up to radius 32).
constexpr double kFirFixed = 5.0;
constexpr double kFirPerTapPair = 1.0;
// Deriche on float data runs in SIMD across lines (lane driver): a transfer in and out of the lane
// buffer, then the four complex recursions per padded sample.
constexpr double kLaneDriver = 15.8;
constexpr double kDericheLanesPerSample = 5.5;
// The scalar line driver (one line at a time in double: strided gather, border extension,
// scatter) runs box, kawase, downsample, sliding-dct, fft, Young-van Vliet and Deriche on f64.
constexpr double kLineDriver = 100.0;
constexpr double kBoxPerPass = 2.7;
constexpr double kKawasePerPass = 2.75;
// sliding-dct: per cosine term one recurrence step and one output multiply-add per sample.
constexpr double kSlidingDctPerTerm = 11.5;
// downsample: the low-resolution fir runs in the line driver too (double, scalar).
constexpr double kDownsamplePerLowTapPair = 10.0;
// dual-kawase (planar, counted half on x and half on y): a base cost per axis, plus the passes of
// each level (each a quarter of the one above, on a padded copy of the image).
constexpr double kDualKawaseBase = 20.0;
constexpr double kDualKawasePerLevel = 3.5;
// mip-poisson (planar, half per axis): per sample a rotation and two trilinear fetches.
constexpr double kMipPoissonBase = 20.0;
constexpr double kMipPoissonPerSample = 32.0;
// fft: transforms cost about k log2(n) per sample; FFTW's real-to-real DCTs (reflect, mirror) are
// not vectorised, about 2.5 times the real-to-complex transforms of the other borders.
constexpr double kFftPerLog2 = 2.8;
constexpr double kDctPerLog2 = 7.0;
constexpr double kLargeSigma = 64.0;

// An axis's equivalent 1D kernel next to the Gaussian it approximates, both centred, the Gaussian
// one sample longer on each side (beyond the kernel's reach the error is the Gaussian itself).
struct AxisKernel {
  std::vector<double> k, g;
};

AxisKernel axis_kernel(const std::vector<double>& k, double sigma) {
  const int half = static_cast<int>(k.size() / 2);
  std::vector<double> padded(k.size() + 2, 0.0);
  std::copy(k.begin(), k.end(), padded.begin() + 1);
  return {std::move(padded), analysis::reference_gaussian(sigma, half + 1)};
}

// Max |k - g| / max g along one axis.
double error_1d(const AxisKernel& a) {
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < a.k.size(); ++i) {
    worst = std::max(worst, std::abs(a.k[i] - a.g[i]));
    peak = std::max(peak, a.g[i]);
  }
  return worst / peak;
}

// Max |kx ky - gx gy| / max(gx gy): the exact error of a separable 2D response.
double error_2d(const AxisKernel& x, const AxisKernel& y) {
  double worst = 0.0, px = 0.0, py = 0.0;
  for (double v : x.g) px = std::max(px, v);
  for (double v : y.g) py = std::max(py, v);
  for (std::size_t j = 0; j < y.k.size(); ++j)
    for (std::size_t i = 0; i < x.k.size(); ++i)
      worst = std::max(worst, std::abs(x.k[i] * y.k[j] - x.g[i] * y.g[j]));
  return worst / (px * py);
}

bool axis_active(const BlurSpec& spec, const View& src, int a) {
  const auto i = static_cast<std::size_t>(a);
  return spec.sigma[i] > 1e-15 && effective_radius(spec, a) >= 0 &&
         (src.extent[i] > 1 || spec.border[i] == Border::constant);
}

// The Vulkan backend's cost model, in image passes (one read and one write of the image) per axis,
// counted from each algorithm's passes and fetches (planar algorithms: half per axis). Memory
// traffic decides on a GPU; arithmetic matters only at hundreds of taps.
double gpu_axis_cost(const BlurSpec& spec, const View& src, int a) {
  const auto i = static_cast<std::size_t>(a);
  switch (spec.algorithm) {
    case Algorithm::fir:  // shared-memory tiles: one pass, taps from shared memory
      return 1.0 + 0.02 * (effective_radius(spec, a) + 1);
    case Algorithm::fir_incremental: return 1.0 + 0.03 * (effective_radius(spec, a) + 1);
    case Algorithm::fir_linear:  // a padding pass shared by the axes, then half the taps as texture fetches
      return 1.5 + 0.04 * (effective_radius(spec, a) / 2 + 1);
    case Algorithm::box:  // the line into scratch, each pass through it, back out
      return 2.0 + 0.5 * (spec.box_passes ? spec.box_passes : 3);
    case Algorithm::iir: return 3.0;  // a thread per line, two sweeps: little parallelism
    case Algorithm::downsample: {
      const int f = cpu::downsample_factor_for(spec, a);
      return 2.0 + (1.0 + 0.02 * (kernel::radius_from_truncate(
                                      kernel::downsample_low_sigma(spec.sigma[i], f, spec.truncate), spec.truncate) + 1)) / f;
    }
    case Algorithm::kawase:  // padding, then per pass four fetches and a write (shared by the axes)
      return 0.5 + 0.6 * static_cast<double>(cpu::kawase_offsets_for(spec, a).size());
    case Algorithm::dual_kawase: return 1.0;   // padding, a few passes over ever smaller levels
    case Algorithm::mip_poisson:
      return 0.7 + 0.01 * (spec.mip_poisson_samples ? spec.mip_poisson_samples : kernel::kMipPoissonDefaultSamples);
    default: return 1e9;  // not run by this backend
  }
}

// How much longer a line is with `pad` samples of border extension on each side (modes that
// extend the line; nearest and constant start from their steady state where the filter allows).
double padded(const View& src, int a, double pad) {
  const double n = static_cast<double>(std::max<std::int64_t>(1, src.extent[static_cast<std::size_t>(a)]));
  return (n + 2.0 * pad) / n;
}

double axis_cost(const BlurSpec& spec, const View& src, int a, Backend backend) {
  if (backend == Backend::vulkan) return gpu_axis_cost(spec, src, a);
  const auto i = static_cast<std::size_t>(a);
  const double sigma = spec.sigma[i];
  switch (spec.algorithm) {
    case Algorithm::fft: {
      const bool dct = spec.border[i] == Border::reflect || spec.border[i] == Border::mirror;
      const double n = static_cast<double>(src.extent[i]) + (dct ? 0.0 : 2.0 * effective_radius(spec, a));
      return kLineDriver + (dct ? kDctPerLog2 : kFftPerLog2) * std::log2(std::max(2.0, n));
    }
    case Algorithm::fir:
    case Algorithm::fir_incremental:
    case Algorithm::fir_linear: return kFirFixed + kFirPerTapPair * (effective_radius(spec, a) + 1);
    case Algorithm::box: {
      const int passes = spec.box_passes ? spec.box_passes : 3;
      // Each pass extends the line by its radius + 1; a pass's radius is about sigma sqrt(3 / n).
      const double pad = passes * (sigma * std::sqrt(3.0 / passes) + 1.0);
      return (kLineDriver + kBoxPerPass * passes) * padded(src, a, pad);
    }
    case Algorithm::kawase: {
      const std::vector<double> offsets = cpu::kawase_offsets_for(spec, a);
      double pad = 0.0;
      for (double d : offsets) pad += std::floor(d) + 1.0;
      return (kLineDriver + kKawasePerPass * static_cast<double>(offsets.size())) * padded(src, a, pad);
    }
    case Algorithm::iir: {
      // Both variants decay to 1e-8 within about 11 sigma, the length the symmetric borders and
      // wrap extend each side by; nearest and constant start from their steady state.
      const bool extends = spec.border[i] != Border::nearest && spec.border[i] != Border::constant;
      const double pad = extends ? 11.0 * sigma : 0.0;
      const bool lanes = spec.iir_variant == IirVariant::deriche && src.type != ElementType::f64;
      if (lanes) return kLaneDriver + kDericheLanesPerSample * padded(src, a, pad);
      const double per_sample = spec.iir_variant == IirVariant::deriche ? 8.0 : 6.0;
      return (kLineDriver + per_sample) * padded(src, a, pad);
    }
    case Algorithm::dual_kawase: {
      int levels = spec.dual_kawase_levels;
      if (levels <= 0) {
        try {
          levels = kernel::dual_kawase_levels_for(sigma);
        } catch (const Error&) {
          levels = kernel::kDualKawaseMaxLevels;
        }
      }
      return kDualKawaseBase + kDualKawasePerLevel * levels;
    }
    case Algorithm::mip_poisson:
      return kMipPoissonBase +
             kMipPoissonPerSample / 2 * (spec.mip_poisson_samples ? spec.mip_poisson_samples : kernel::kMipPoissonDefaultSamples);
    case Algorithm::downsample: {
      // Block average, the low-resolution fir (one tap pair per f samples), the interpolation.
      const int f = cpu::downsample_factor_for(spec, a);
      const double low = kernel::downsample_low_sigma(sigma, f, spec.truncate);
      return kLineDriver + f + kDownsamplePerLowTapPair * (kernel::radius_from_truncate(low, spec.truncate) + 1) / f + 3.0;
    }
    case Algorithm::sliding_dct: {
      const int order = spec.sliding_dct_order ? spec.sliding_dct_order : kernel::kSlidingDctDefaultOrder;
      // The window reaches about 4.4 sigma each side (kernel::sliding_dct_kernel's radius).
      return (kLineDriver + 3.0 + kSlidingDctPerTerm * (order + 1)) * padded(src, a, 4.4 * sigma + 1.0);
    }
    case Algorithm::automatic: break;
  }
  return 0.0;
}

struct Evaluated {
  BlurSpec spec;
  double error = 0.0, cost = 0.0;
};

std::optional<AxisKernel> equivalent_kernel(const BlurSpec& spec, int a);

// Planar (non-separable) algorithms have no 1D equivalent kernel: their error is DESIGN.md's 2D max
// error of their impulse response (analysis::measure_impulse), at each axis's sigma (isotropic),
// clamped to kLargeSigma unless the spec's own parameters do not reach the clamped sigma.
double planar_error(const BlurSpec& spec) {
  double worst = 0.0;
  for (int a = 0; a < 2; ++a) {
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    if (a == 1 && sigma == spec.sigma[0]) break;
    analysis::ImpulseMetrics m;
    try {
      m = analysis::measure_impulse(spec, std::min(sigma, kLargeSigma));
    } catch (const InvalidArgument&) {
      m = analysis::measure_impulse(spec, sigma);
    }
    worst = std::max(worst, m.max_error_2d);
  }
  return worst;
}

// The error of the whole response: exact for two axes whose kernels are short enough, otherwise
// the bound prod(1 + e_axis) - 1 (|kx ky - gx gy| <= |dx| gy + |dy| gx + |dx dy|).
Evaluated evaluate(const BlurSpec& spec, const View& src, Backend backend) {
  Evaluated e{spec, 0.0, 0.0};
  std::vector<int> axes;
  for (int a = 0; a < 3; ++a)
    if (axis_active(spec, src, a)) axes.push_back(a), e.cost += axis_cost(spec, src, a, backend);
  if (algorithm_info(spec.algorithm).planar) {
    e.error = planar_error(spec);
    return e;
  }
  if (axes.size() == 2) {
    const auto x = equivalent_kernel(spec, axes[0]), y = equivalent_kernel(spec, axes[1]);
    if (x && y && x->k.size() * y->k.size() <= (1u << 22)) {
      e.error = error_2d(*x, *y);
      return e;
    }
  }
  double product = 1.0;
  for (int a : axes) product *= 1.0 + predicted_axis_error(spec, a);
  e.error = product - 1.0;
  return e;
}

std::string line(const Evaluated& e) {
  char buf[256];
  std::string name(to_string(e.spec.algorithm));
  if (e.spec.algorithm == Algorithm::box) name += " " + std::to_string(e.spec.box_passes) + " passes";
  if (e.spec.algorithm == Algorithm::sliding_dct)
    name += " order " + std::to_string(e.spec.sliding_dct_order ? e.spec.sliding_dct_order
                                                                : kernel::kSlidingDctDefaultOrder);
  if (e.spec.algorithm == Algorithm::iir)
    name += e.spec.iir_variant == IirVariant::deriche ? " deriche" : " young-van-vliet";
  if (e.spec.algorithm == Algorithm::fir || e.spec.algorithm == Algorithm::fft) {
    name += " radius";
    for (int a = 0; a < 3; ++a)
      if (e.spec.sigma[static_cast<std::size_t>(a)] > 1e-15) name += " " + std::to_string(effective_radius(e.spec, a));
  }
  std::snprintf(buf, sizeof buf, "%-28s predicted max error %.3g, cost %.1f", name.c_str(), e.error, e.cost);
  return buf;
}

}  // namespace

namespace {

// The response of `spec`'s algorithm along axis a to an impulse, at sigma s, for algorithms known
// by running them (recursive filters, resampling). With phases > 1 the algorithm is not shift-
// invariant: the impulse is tried at each phase of a block and the response farthest from the
// Gaussian is returned.
std::optional<AxisKernel> measured_kernel(const BlurSpec& spec, int a, double s, int phases) {
  const int half = static_cast<int>(std::ceil(12 * s)) + 8 * phases;
  std::optional<AxisKernel> worst;
  double worst_error = -1.0;
  for (int phase = 0; phase < phases; ++phase) {
    const int centre = 2 * half + phase;  // 2 half is a multiple of the phase count
    std::vector<double> line(static_cast<std::size_t>(4 * half + phases), 0.0);
    line[static_cast<std::size_t>(centre)] = 1.0;
    BlurSpec one = spec;
    one.sigma = {s, 0.0, 0.0};
    one.border = {Border::constant, Border::constant, Border::constant};
    one.cval = 0.0;
    if (spec.algorithm == Algorithm::downsample) one.downsample_factor = phases;
    const View v = View::packed(line.data(), ElementType::f64, static_cast<std::int64_t>(line.size()), 1);
    blur(v, v, one);
    AxisKernel k = axis_kernel(std::vector<double>(line.begin() + centre - half, line.begin() + centre + half + 1), s);
    const double e = error_1d(k);
    if (e > worst_error) worst_error = e, worst = std::move(k);
  }
  (void)a;
  return worst;
}

// The equivalent kernel of `spec` along axis a (O(1) algorithms at sigma <= kLargeSigma, where
// their shape error has reached its asymptote).
std::optional<AxisKernel> equivalent_kernel(const BlurSpec& spec, int a) {
  const double sigma = spec.sigma[static_cast<std::size_t>(a)];
  switch (spec.algorithm) {
    case Algorithm::automatic:
    case Algorithm::fir:
    case Algorithm::fir_incremental:  // the same kernel up to the recurrence's float error
    case Algorithm::fir_linear:       // the same kernel up to the sampler's sub-texel precision
    case Algorithm::fft: {  // the same kernel, exactly
      const int r = effective_radius(spec, a);
      if (r > 4096) return std::nullopt;  // the truncation alone decides; see predicted_axis_error
      return axis_kernel(r == 0 ? std::vector<double>{1.0} : kernel::gaussian_weights(sigma, r), sigma);
    }
    case Algorithm::box: {
      const double s = std::min(sigma, kLargeSigma);
      BlurSpec at = spec;
      at.sigma[static_cast<std::size_t>(a)] = s;
      return axis_kernel(kernel::box_kernel(cpu::box_passes_for(at, a, spec.box_passes ? spec.box_passes : 3)), s);
    }
    case Algorithm::kawase: {
      if (!spec.kawase_offsets.empty()) return axis_kernel(kernel::kawase_kernel(spec.kawase_offsets), sigma);
      const double s = std::min(sigma, kLargeSigma);
      return axis_kernel(kernel::kawase_kernel(kernel::kawase_schedule(s, spec.kawase_passes)), s);
    }
    case Algorithm::downsample:  // not shift-invariant: the worst phase of a block
      return measured_kernel(spec, a, std::min(sigma, kLargeSigma), cpu::downsample_factor_for(spec, a));
    case Algorithm::iir:
      return measured_kernel(spec, a, std::min(sigma, kLargeSigma), 1);
    case Algorithm::sliding_dct: {  // an FIR kernel exactly: its cosine series on the window
      const double s = std::min(sigma, kLargeSigma);
      return axis_kernel(kernel::sliding_dct_weights(kernel::sliding_dct_kernel(s, spec.sliding_dct_order)), s);
    }
    case Algorithm::dual_kawase:  // planar: see planar_error
    case Algorithm::mip_poisson:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

double predicted_axis_error(const BlurSpec& spec, int a) {
  if (!(spec.sigma[static_cast<std::size_t>(a)] > 1e-15)) return 0.0;
  if (algorithm_info(spec.algorithm).planar) return planar_error(spec);  // no error of its own per axis
  if (const auto k = equivalent_kernel(spec, a)) return error_1d(*k);
  return kernel::dropped_weight(spec.sigma[static_cast<std::size_t>(a)], effective_radius(spec, a));
}

namespace {

// Everything a plan depends on, as text: the spec's fields (floats exactly, in hex) and the
// image's shape and type (not its data or strides). A field added to BlurSpec must be added here
// (tests/plan/plan_test.cpp checks that changing any option changes the plan key's effect).
std::string plan_key(const BlurSpec& s, const View& src, Backend backend) {
  std::string k = backend == Backend::vulkan ? "vulkan|" : "cpu|";
  char buf[96];
  const auto add = [&](double v) {
    std::snprintf(buf, sizeof buf, "%a,", v);
    k += buf;
  };
  for (std::size_t a = 0; a < 3; ++a) {
    add(s.sigma[a]);
    add(static_cast<double>(s.border[a]));
    add(s.radius[a] ? *s.radius[a] : -1.0);
    add(s.order[a]);
    add(static_cast<double>(src.extent[a]));
  }
  for (double v : {s.cval, s.truncate, static_cast<double>(s.algorithm), s.tolerance, double(s.box_passes),
                   double(s.box_integer_widths), double(s.box_schedule), double(s.kawase_passes),
                   double(s.downsample_factor),
                   double(s.iir_variant), double(s.sliding_dct_order), double(s.dual_kawase_levels),
                   s.dual_kawase_offset, double(s.mip_poisson_samples), double(s.mip_poisson_frame),
                   double(s.threads),
                   double(src.type), double(src.channels)})
    add(v);
  k += "|";
  for (double d : s.kawase_offsets) add(d);
  return k;
}

Plan make_plan_uncached(const BlurSpec& spec, const View& src, Backend backend);

}  // namespace

// Planning weighs a dozen candidates by their exact 2D errors (milliseconds at large sigma), so
// plans are remembered: the same request on the same shape plans once.
Plan make_plan(const BlurSpec& spec, const View& src) { return make_plan(spec, src, Backend::cpu); }

Plan make_plan(const BlurSpec& spec, const View& src, Backend backend) {
  static std::mutex mutex;
  static std::unordered_map<std::string, Plan> cache;
  const std::string key = plan_key(spec, src, backend);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  Plan plan = make_plan_uncached(spec, src, backend);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 512) cache.clear();  // bounded; a full cache starts over
  cache.emplace(key, plan);
  return plan;
}

namespace {

// Whether `backend` runs `algorithm` on images of src's shape.
bool backend_runs(Algorithm algorithm, const View& src, Backend backend) {
  if (backend == Backend::cpu) return !algorithm_info(algorithm).gpu_only;
  switch (algorithm) {
    case Algorithm::fft:
    case Algorithm::sliding_dct: return false;
    case Algorithm::fir_linear:
    case Algorithm::kawase:
    case Algorithm::dual_kawase:
    case Algorithm::mip_poisson: return src.depth() == 1;
    default: return true;
  }
}

Plan make_plan_uncached(const BlurSpec& spec, const View& src, Backend backend) {
  if (!std::isfinite(spec.tolerance) || spec.tolerance < 0.0)
    throw InvalidArgument("tolerance is " + std::to_string(spec.tolerance) + ": expected a finite value >= 0");
  for (int a = 0; a < 3; ++a) (void)effective_radius(spec, a);  // validates sigma, truncate, radius
  Plan plan;
  if (spec.algorithm == Algorithm::automatic && has_derivative(spec)) {
    BlurSpec s = spec;
    s.algorithm = Algorithm::fir;
    const Evaluated e = evaluate(s, src, backend);
    plan.spec = s;
    plan.predicted_max_error = e.error;
    plan.predicted_cost = e.cost;
    plan.reason = "derivatives are computed by fir only";
    plan.considered.push_back(line(e));
    return plan;
  }
  if (spec.algorithm != Algorithm::automatic) {
    BlurSpec s = spec;
    if (s.algorithm == Algorithm::box && s.box_passes == 0) s.box_passes = 3;
    const Evaluated e = evaluate(s, src, backend);
    plan.spec = s;
    plan.predicted_max_error = e.error;
    plan.predicted_cost = e.cost;
    plan.reason = "the algorithm was named";
    plan.considered.push_back(line(e));
    return plan;
  }
  // Exact: fir with the spec's own radius, or the same convolution by fft where that is cheaper.
  BlurSpec exact = spec;
  exact.algorithm = Algorithm::fir;
  Evaluated best = evaluate(exact, src, backend);
  plan.considered.push_back(line(best));
  if (backend_runs(Algorithm::fft, src, backend)) {
    BlurSpec exact_fft = exact;
    exact_fft.algorithm = Algorithm::fft;
    const Evaluated fft = evaluate(exact_fft, src, backend);
    plan.considered.push_back(line(fft));
    if (fft.cost < best.cost) best = fft;
  }
  plan.reason = spec.tolerance == 0.0 ? "tolerance 0 asks for the exact result (fir or fft, whichever is cheaper)"
                                      : "nothing cheaper meets the tolerance";
  if (spec.tolerance > 0.0) {
    std::vector<BlurSpec> candidates;
    // fir, truncated as far as the tolerance allows: per axis the smallest radius whose error
    // keeps the product of (1 + e) within 1 + tolerance.
    int active = 0;
    for (int a = 0; a < 3; ++a) active += axis_active(spec, src, a);
    if (active > 0) {
      BlurSpec fir = exact;
      const double share = std::pow(1.0 + spec.tolerance, 1.0 / active) - 1.0;
      for (int a = 0; a < 3; ++a) {
        if (!axis_active(spec, src, a)) continue;
        // Up to the spec's radius, or beyond it where its truncation alone exceeds the tolerance.
        const int full = std::max(effective_radius(exact, a),
                                  static_cast<int>(std::ceil(8.0 * spec.sigma[static_cast<std::size_t>(a)])));
        int r = 1;
        for (; r < full; r = std::max(r + 1, r * 9 / 8)) {
          fir.radius[static_cast<std::size_t>(a)] = r;
          if (predicted_axis_error(fir, a) <= share) break;
        }
        fir.radius[static_cast<std::size_t>(a)] = std::min(r, full);
      }
      candidates.push_back(fir);
    }
    for (int n = 1; n <= 6; ++n) {
      BlurSpec box = spec;
      box.algorithm = Algorithm::box;
      box.box_passes = n;
      candidates.push_back(box);
    }
    BlurSpec kawase = spec;
    kawase.algorithm = Algorithm::kawase;
    candidates.push_back(kawase);
    bool downsample_fits = true;  // every active axis needs sigma above what the resampling adds
    for (int a = 0; a < 3; ++a)
      if (axis_active(spec, src, a))
        downsample_fits = downsample_fits && spec.sigma[static_cast<std::size_t>(a)] >
                                                 std::sqrt(kernel::downsample_added_variance(
                                                     kernel::downsample_factor_for(spec.sigma[static_cast<std::size_t>(a)])));
    if (downsample_fits) {
      BlurSpec down = spec;
      down.algorithm = Algorithm::downsample;
      candidates.push_back(down);
    }
    // dual-kawase: planar, for 2D images blurred along x and y (each sigma >= 1), z untouched.
    if (src.depth() == 1 && axis_active(spec, src, 0) && axis_active(spec, src, 1) && spec.sigma[2] == 0.0 &&
        std::min(spec.sigma[0], spec.sigma[1]) >= kernel::kDualKawaseMinSigma) {
      BlurSpec dual = spec;
      dual.algorithm = Algorithm::dual_kawase;
      // With its levels and offset both given, the chain has its own sigma and ignores the
      // requested one: a candidate only where the two are within a factor of 2 (otherwise it cannot
      // be within tolerance, and measuring a chain of many levels would take gigabytes).
      bool own_sigma_fits = true;
      if (spec.dual_kawase_levels >= 1 && spec.dual_kawase_levels <= kernel::kDualKawaseMaxLevels &&
          spec.dual_kawase_offset > 0.0 && spec.dual_kawase_offset <= kernel::kDualKawaseMaxOffset) {
        const double own = std::sqrt(kernel::dual_kawase_variance(spec.dual_kawase_levels, spec.dual_kawase_offset));
        for (int a = 0; a < 2; ++a)
          own_sigma_fits = own_sigma_fits && std::abs(std::log(own / spec.sigma[static_cast<std::size_t>(a)])) <= std::log(2.0);
      }
      if (own_sigma_fits) candidates.push_back(dual);
    }
    // mip-poisson: planar too, any sigma > 0.
    if (src.depth() == 1 && axis_active(spec, src, 0) && axis_active(spec, src, 1) && spec.sigma[2] == 0.0) {
      BlurSpec mip = spec;
      mip.algorithm = Algorithm::mip_poisson;
      candidates.push_back(mip);
    }
    bool iir_fits = true;  // the recursive filters are defined for sigma 0.5 to 1000
    for (int a = 0; a < 3; ++a)
      if (axis_active(spec, src, a))
        iir_fits = iir_fits && spec.sigma[static_cast<std::size_t>(a)] >= kernel::kIirMinSigma &&
                   spec.sigma[static_cast<std::size_t>(a)] <= kernel::kIirMaxSigma;
    if (iir_fits)
      for (IirVariant variant : {IirVariant::deriche, IirVariant::young_van_vliet}) {
        BlurSpec iir = spec;
        iir.algorithm = Algorithm::iir;
        iir.iir_variant = variant;
        candidates.push_back(iir);
      }
    for (int order = kernel::kSlidingDctMinOrder; order <= kernel::kSlidingDctMaxOrder; ++order) {
      BlurSpec sdct = spec;
      sdct.algorithm = Algorithm::sliding_dct;
      sdct.sliding_dct_order = order;
      candidates.push_back(sdct);
    }
    for (const BlurSpec& c : candidates) {
      if (!backend_runs(c.algorithm, src, backend)) continue;
      if (algorithm_info(c.algorithm).planar && best.error <= spec.tolerance) {
        // A planar candidate's error is measured by blurring a 2D impulse: skip that where its
        // cost alone already loses.
        Evaluated cost_only{c, 0.0, 0.0};
        for (int a = 0; a < 3; ++a)
          if (axis_active(c, src, a)) cost_only.cost += axis_cost(c, src, a, backend);
        if (cost_only.cost >= best.cost) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "%-28s not cheaper (cost %.1f): error not measured",
                        std::string(to_string(c.algorithm)).c_str(), cost_only.cost);
          plan.considered.push_back(buf);
          continue;
        }
      }
      const Evaluated e = evaluate(c, src, backend);
      plan.considered.push_back(line(e));
      // Within tolerance and cheaper - or within tolerance where the exact result is not (its
      // truncation alone exceeds a tight tolerance).
      if (e.error <= spec.tolerance && (e.cost < best.cost || best.error > spec.tolerance)) {
        best = e;
        plan.reason = "the cheapest candidate within tolerance " + std::to_string(spec.tolerance);
      }
    }
  }
  plan.spec = best.spec;
  plan.predicted_max_error = best.error;
  plan.predicted_cost = best.cost;
  return plan;
}

}  // namespace

std::string describe(const Plan& plan) {
  std::string out = "plan: " + line(Evaluated{plan.spec, plan.predicted_max_error, plan.predicted_cost}) + "\n";
  out += "  why: " + plan.reason + "\n";
  if (plan.spec.algorithm == Algorithm::box)
    for (int a = 0; a < 3; ++a) {
      if (!(plan.spec.sigma[static_cast<std::size_t>(a)] > 1e-15)) continue;
      const auto passes = cpu::box_passes_for(plan.spec, a, plan.spec.box_passes);
      char buf[160];
      std::snprintf(buf, sizeof buf, "  axis %c: %zu boxes of radius %d with end weight %.4f, achieved sigma %.6g\n",
                    "xyz"[a], passes.size(), passes.front().radius, passes.front().alpha, kernel::achieved_sigma(passes));
      out += buf;
    }
  if (plan.spec.algorithm == Algorithm::kawase)
    for (int a = 0; a < 3; ++a) {
      if (!(plan.spec.sigma[static_cast<std::size_t>(a)] > 1e-15)) continue;
      out += std::string("  axis ") + "xyz"[a] + ": offsets";
      for (double d : cpu::kawase_offsets_for(plan.spec, a)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.4g", d);
        out += buf;
      }
      out += "\n";
    }
  if (plan.spec.algorithm == Algorithm::dual_kawase) {
    const kernel::DualKawaseSchedule d = cpu::dual_kawase_schedule_for(plan.spec);
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %d levels, offsets %.4g (x) %.4g (y)\n", d.levels, d.offset[0], d.offset[1]);
    out += buf;
  }
  if (plan.spec.algorithm == Algorithm::mip_poisson) {
    const kernel::MipPoissonSchedule m = cpu::mip_poisson_schedule_for(plan.spec);
    char buf[200];
    std::snprintf(buf, sizeof buf, "  %zu samples, scale %.4g (x) %.4g (y) pixels per sigma unit, mip levels 0..%d\n",
                  m.samples.size(), m.scale[0], m.scale[1], m.max_level);
    out += buf;
  }
  out += "  considered:\n";
  for (const std::string& c : plan.considered) out += "    " + c + "\n";
  return out;
}

}  // namespace fastblur
