// sliding-dct (Sugimoto and Kamata 2013, beyond the seeds): the Gaussian on a window as a short
// cosine series, each term slid along the line by a second-order recurrence; O(order) per sample
// whatever the sigma, more accurate than Deriche at order 5.
#include "algorithms/sliding_dct.hpp"

#include <algorithm>
#include <compare>
#include <map>
#include <mutex>
#include <cmath>
#include <memory>

#include "algorithms/cost_model.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::algo {
namespace {

// CPU per cosine term and sample: one recurrence step and one output multiply-add, in double one line
// at a time or in double lanes (several lines per vector).
constexpr double kPerTermLines = 11.5;
constexpr double kPerTermLanes = 1.5;  // fitted to algo/sliding-dct/RGBA32F/1920x1080/s5-s50

int order_of(const BlurSpec& spec) {
  const int order = option_int(spec, "sliding_dct_order");
  return order ? order : kernel::kSlidingDctDefaultOrder;
}

bool fits_fir(const BlurSpec& spec) { return option_value<std::string>(spec, "sliding_dct_fit") == "fir"; }

// The series along an axis: of the Gaussian, or of fir's kernel at the spec's radius. Each is fitted
// by a search (up to 49 windows or 65 periods, a kernel and its error each), and the planner asks for
// the same ones for a candidate's cost, its prediction and its plan: they are kept, process-wide (at
// most 256, forgotten all at once when full).
kernel::SlidingDctKernel series(const BlurSpec& spec, double sigma, int radius) {
  struct Key {
    bool fir;
    double sigma;
    int order, radius;
    auto operator<=>(const Key&) const = default;
  };
  static std::mutex mutex;
  static std::map<Key, kernel::SlidingDctKernel> memo;
  const bool fir = fits_fir(spec);
  const Key key{fir, sigma, option_int(spec, "sliding_dct_order"), fir ? radius : 0};
  {
    const std::lock_guard lock(mutex);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
  }
  kernel::SlidingDctKernel k = fir ? kernel::sliding_dct_kernel_matching_fir(sigma, key.order, radius)
                                   : kernel::sliding_dct_kernel(sigma, key.order);
  const std::lock_guard lock(mutex);
  if (memo.size() >= 256) memo.clear();
  memo.emplace(key, k);
  return k;
}

// fir's radius along `axis` at sigma `s` (<= the axis's own, kLargeSigma's clamp): scaled with the
// sigma, so the clamped kernel keeps the truncation's shape.
int radius_at(const BlurSpec& spec, int axis, double s) {
  return std::max(1, static_cast<int>(std::lround(effective_radius(spec, axis) * (s / spec.sigma[static_cast<std::size_t>(axis)]))));
}

// The orders tried for the exact blur: 6 is within 1e-5 of fir at truncate 4 (about 4e-6), 7 and 8
// where a longer truncation needs them.
constexpr int kExactOrders[] = {6, 7, 8};

// Per term and sample the split recurrence (a period longer than the window) has one more FMA.
constexpr double kSplitEnds = 1.25;

// The GPU's chunks: outputs a thread makes at least.
constexpr std::int64_t kGpuChunk = 128;
// The GPU's cost an axis (the units of fir's 1 + 0.02 (r + 1)): a thread per chunk and lane, four
// loads and about 5 double operations a term and output - above iir's 3.0, below exact fir's from
// radius 150 (sigma 37 at truncate 4). A prediction until a device's profile measures it.
constexpr double kGpuAxisCost = 4.0;

class SlidingDct final : public Descriptor {
 public:
  SlidingDct()
      : Descriptor(
            {Algorithm::sliding_dct, "sliding-dct",
             "the Gaussian as a short cosine series on a window, each term slid by a second-order recurrence "
             "(Sugimoto-Kamata); O(order) per pixel, max error 7e-5 at the default order 5",
             "The Gaussian on a window of 2R+1 samples written as its first K+1 DFT terms; convolving a line with "
             "one term obeys a second-order recurrence (the shift property of DCT-5), restarted directly every 4096 "
             "samples since it is marginally stable. Max error 2.3e-3 at order 3, 5e-4 at 4, 7e-5 at 5, 2e-5 at 6. "
             "With --sdct-fit fir the series is fir's own kernel (truncated at the radius) on cosines longer than "
             "the window: within 4e-6 of fir at order 6, so the planner takes it as the exact blur where it is "
             "cheaper than fir (large sigma). Every border is exact (the line driver extends lines). On a Vulkan "
             "device with float64 the recurrences run in double over chunks of every line in parallel.",
             Capabilities{.separable = true, .max_dimensions = 3, .cpu = true, .vulkan = true}},
            {option({.key = "sliding_dct_order", .flag = "sdct-order", .kind = ParameterInfo::Kind::integer,
                    .doc = "cosine terms after the constant one (max error 2.3e-3 at 3, 5e-4 at 4, 7e-5 "
                           "at 5, 2e-5 at 6)",
                    .default_text = "5", .min = kernel::kSlidingDctMinOrder, .max = kernel::kSlidingDctMaxOrder,
                    .zero_chooses = true}),
             option({.key = "sliding_dct_fit", .flag = "sdct-fit", .kind = ParameterInfo::Kind::choice,
                        .doc = "what the series approximates: gaussian (the Gaussian itself, the window chosen for "
                               "the least error) or fir (fir's kernel truncated at the radius: the exact blur, "
                               "within 4e-6 of fir at order 6, 6e-7 at 7, 6e-8 at 8, at a cost independent of sigma)",
                        .default_text = "gaussian", .choices = {"gaussian", "fir"}})}) {}

  void resolve(const BlurSpec& spec, const Shape&, Plan& plan) const override {
    auto r = std::make_shared<SlidingDctResolved>();
    set_option(plan.spec, "sliding_dct_order", std::int64_t{order_of(spec)});
    add_parameter(plan, "sliding_dct_order", std::int64_t{order_of(spec)});
    add_parameter(plan, "sliding_dct_fit", std::string(fits_fir(spec) ? "fir" : "gaussian"));
    for (int a = 0; a < 3; ++a) {
      AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
      if (!(ax.sigma > kSigmaCutoff)) continue;
      const int fir_radius = effective_radius(spec, a);
      const kernel::SlidingDctKernel k = series(spec, ax.sigma, std::max(1, fir_radius));
      if (fits_fir(spec)) ax.radius = k.radius;
      ax.support = k.radius + 1;  // the recurrence reads one sample beyond the window
      ax.achieved_sigma = ax.sigma;
      add_parameter(plan, "window_radius", std::int64_t{k.radius}, a);
      if (fits_fir(spec)) add_parameter(plan, "period", k.period, a);
      r->axes[static_cast<std::size_t>(a)] = k;
    }
    plan.resolved = std::move(r);
  }

  // The recurrences run in double: float32's rounding would grow along a chunk.
  void check(const BlurSpec& spec, const Shape& shape) const override {
    Descriptor::check(spec, shape);
    if (shape.backend == Backend::vulkan && !shape.device_float64)
      throw Unsupported("sliding-dct on the Vulkan backend needs float64 shaders, which this device lacks; use iir or the CPU");
  }

  void schedule(Plan& plan, const Shape& shape) const override {
    plan.schedule.driver = float_lanes_allowed(plan.spec, shape) ? CpuDriver::lanes : CpuDriver::lines;
    if (shape.backend != Backend::vulkan) return;
    // A thread per chunk of every line and channel (sdct_chunks.comp) of 2 (2R + 1) outputs, at least
    // kGpuChunk: its direct start (2 (2R + 1) multiply-adds a term) about a fifth of the chunk's
    // recurrences (about 5 operations a term and output), and a 4K line still several chunks at
    // sigma 50 (thousands of threads an axis).
    const auto& r = resolved_as<SlidingDctResolved>(plan);
    for (std::size_t a = 0; a < 3; ++a) {
      GpuPass& g = plan.schedule.gpu[a];
      g = GpuPass{};
      if (!plan.axes[a].active || !r.axes[a]) continue;
      g.shader = "sdct_chunks";
      g.real = ElementType::f64;
      g.block = std::max<std::int64_t>(kGpuChunk, 2 * (2 * static_cast<std::int64_t>(r.axes[a]->radius) + 1));
    }
  }

  // No scratch: a dispatch covers every lane of the piece.
  void schedule_gpu_batches(Plan& plan, const Shape& shape, std::array<std::int64_t, 3> piece) const override {
    const std::int64_t samples = piece[0] * piece[1] * piece[2];
    for (std::size_t a = 0; a < 3; ++a) {
      GpuPass& g = plan.schedule.gpu[a];
      if (!g.shader.empty()) g.batch = samples / piece[a] * shape.channels;
    }
  }

  // An FIR kernel exactly: its cosine series on the window.
  std::optional<EquivalentKernel> equivalent_kernel(const BlurSpec& spec, int axis) const override {
    const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
    const double s = std::min(sigma, kLargeSigma);
    return EquivalentKernel{kernel::sliding_dct_weights(series(spec, s, radius_at(spec, axis, s))), s};
  }

  double axis_cost(const Plan& plan, const Shape& shape, int axis) const override {
    if (plan.schedule.backend == Backend::vulkan) return kGpuAxisCost;
    if (plan.schedule.backend != Backend::cpu) return 1e9;
    const double terms = order_of(plan.spec) + 1;
    // The window reaches about 4.4 sigma each side (kernel::sliding_dct_kernel's radius), or fir's.
    const AxisPlan& ax = plan.axes[static_cast<std::size_t>(axis)];
    const double pad = fits_fir(plan.spec) ? ax.support : 4.4 * ax.sigma + 1.0;
    if (plan.schedule.driver == CpuDriver::lanes)
      return cost::lane_axis(shape.channels, axis,
                             kPerTermLanes * terms * (fits_fir(plan.spec) ? kSplitEnds : 1.0) * padded_ratio(shape, axis, pad),
                             shape.source, shape.destination);
    return (cost::kLineDriver + 3.0 + kPerTermLines * terms) * padded_ratio(shape, axis, pad);
  }

  // fir's kernel as a series, where it equals fir's within kExactAgreement on every filtered axis and
  // runs in float lanes (float64 data at tolerance 0 is promised a double computation: fir), or on a
  // Vulkan device with float64 (which computes every type in float32 between passes).
  std::vector<BlurSpec> exact_candidates(const BlurSpec& spec, const Shape& shape) const override {
    const bool gpu = shape.backend == Backend::vulkan;
    if ((gpu ? !shape.device_float64 : !float_lanes_allowed(spec, shape)) || has_derivative(spec)) return {};
    for (int order : kExactOrders) {
      BlurSpec s = with_algorithm(spec, Algorithm::sliding_dct);
      set_option(s, "sliding_dct_order", std::int64_t{order});
      set_option(s, "sliding_dct_fit", std::string("fir"));
      bool agrees = true;
      for (int a = 0; a < 3 && agrees; ++a) {
        if (!axis_active(spec, shape, a)) continue;
        const double clamped = std::min(spec.sigma[static_cast<std::size_t>(a)], kLargeSigma);
        const int radius = radius_at(spec, a, clamped);
        // Beyond truncate 8 the period must pass 13 sigma and no order reaches 1e-5: not tried.
        agrees = radius > order && radius <= 8.0 * clamped + 8.0 &&
                 kernel::sliding_dct_error_against(kernel::sliding_dct_kernel_matching_fir(clamped, order, radius),
                                                   kernel::gaussian_weights(clamped, radius)) <= kExactAgreement;
      }
      if (agrees) return {s};  // the lowest order that agrees is the cheapest
    }
    return {};
  }

  std::vector<BlurSpec> candidates(const BlurSpec& spec, const Shape&) const override {
    if (spec.tolerance <= 0.0) return {};
    std::vector<BlurSpec> out;
    for (int order = kernel::kSlidingDctMinOrder; order <= kernel::kSlidingDctMaxOrder; ++order) {
      BlurSpec s = with_algorithm(spec, Algorithm::sliding_dct);
      set_option(s, "sliding_dct_order", std::int64_t{order});
      out.push_back(s);
    }
    return out;
  }
};

}  // namespace

const Descriptor& sliding_dct_descriptor() {
  static const SlidingDct d;
  return d;
}

}  // namespace fastblur::algo
