// The planner: every algorithm weighed through its descriptor. Errors are predicted from each
// candidate's exact 1D equivalent kernel (or the 2D response of the planar ones); costs from the
// descriptors' per-pixel models (CPU: fitted on the CPU backend, bench/RESULTS.md; GPU: image passes).
#include "fastblur/plan.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/overlap.hpp"
#include "core/threads.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/validate.hpp"
#include "algorithms/gpu_passes.hpp"
#include "algorithms/gpu_profile.hpp"
#include "algorithms/gpu_variants.hpp"
#include "plan/pixels_image.hpp"
#include "plan/planner.hpp"
#include "tiling/pieces.hpp"

namespace fastblur {

std::string_view to_string(CpuDriver driver) noexcept {
  switch (driver) {
    case CpuDriver::fused_rows: return "fused-rows";
    case CpuDriver::axis_passes: return "axis-passes";
    case CpuDriver::lanes: return "lanes";
    case CpuDriver::chain: return "chain";
    case CpuDriver::lines: return "lines";
    case CpuDriver::planar: return "planar";
    case CpuDriver::fixed_point: return "fixed-point";
    case CpuDriver::scipy_order: return "scipy-order";
  }
  return "?";
}

std::string_view to_string(GpuIo io) noexcept {
  switch (io) {
    case GpuIo::converted: return "converted";
    case GpuIo::direct: return "direct";
  }
  return "?";
}

std::string_view to_string(CudaHandoff handoff) noexcept {
  switch (handoff) {
    case CudaHandoff::none: return "none";
    case CudaHandoff::host_waits: return "host-waits";
    case CudaHandoff::semaphores: return "semaphores";
    case CudaHandoff::host_then_semaphore: return "host-then-semaphore";
    case CudaHandoff::semaphore_then_host: return "semaphore-then-host";
  }
  return "?";
}

namespace planner {
namespace {

using algo::Descriptor;
using algo::Shape;

// The request's own fields, checked once for every entry point.
void check_request(const BlurSpec& spec) {
  // The common options' rules, stated once (validate.hpp) for the core and every front end. SciPy
  // takes any cval (NaN and Inf spread where the constant border reaches); fastblur's own requests
  // need a finite one.
  check_threads(spec.threads);
  check_cval(spec.cval, spec.rounding);
  check_options_apply(spec);  // another algorithm's option would be ignored
  check_tolerance(spec.tolerance);
  for (int a = 0; a < 3; ++a) (void)effective_radius(spec, a);  // sigma, truncate, radius
  (void)has_derivative(spec);                                     // orders
  std::array<bool, 3> seen{};
  for (int a : spec.axis_order) {
    if (a < 0 || a > 2 || seen[static_cast<std::size_t>(a)])
      throw InvalidArgument("axis_order must list x, y and z (0, 1, 2) once each");
    seen[static_cast<std::size_t>(a)] = true;
  }
  for (int a = 0; a < 3; ++a) {
    const std::vector<double>& w = spec.weights[static_cast<std::size_t>(a)];
    if (w.empty() || !(spec.sigma[static_cast<std::size_t>(a)] > kSigmaCutoff)) continue;
    const int r = effective_radius(spec, a);
    if (w.size() != 2 * static_cast<std::size_t>(r) + 1)
      throw InvalidArgument(std::string("weights along ") + "xyz"[a] + " has " + std::to_string(w.size()) +
                            " values: expected 2 radius + 1 = " + std::to_string(2 * static_cast<std::int64_t>(r) + 1));
    for (double v : w)
      if (!std::isfinite(v)) throw InvalidArgument(std::string("weights along ") + "xyz"[a] + " must be finite");
  }
}

// Rounding::scipy is asked of SciPy's request: the exact filter on the CPU. Any other request (a
// tolerance, another algorithm, a Vulkan device) is not SciPy's filter and rounds to nearest.
BlurSpec with_rounding_resolved(const BlurSpec& spec, const Shape& shape) {
  BlurSpec s = spec;
  s.rounding = resolved_rounding(spec, shape.backend);
  return s;
}

// Max |kx ky - gx gy| / max(gx gy): the exact error of a separable 2D response.
double error_2d(const algo::EquivalentKernel& x, const algo::EquivalentKernel& y) {
  const auto padded = [](const algo::EquivalentKernel& k) {
    std::vector<double> p(k.weights.size() + 2, 0.0);
    std::copy(k.weights.begin(), k.weights.end(), p.begin() + 1);
    return p;
  };
  const std::vector<double> kx = padded(x), ky = padded(y);
  const std::vector<double> gx = kernel::reference_gaussian(x.sigma, static_cast<int>(kx.size() / 2));
  const std::vector<double> gy = kernel::reference_gaussian(y.sigma, static_cast<int>(ky.size() / 2));
  const double px = *std::max_element(gx.begin(), gx.end()), py = *std::max_element(gy.begin(), gy.end());
  double worst = 0.0;
  for (std::size_t j = 0; j < ky.size(); ++j)
    for (std::size_t i = 0; i < kx.size(); ++i) worst = std::max(worst, std::abs(kx[i] * ky[j] - gx[i] * gy[j]));
  return worst / (px * py);
}

// The 1D error of the descriptor's kernel along an axis; the truncation alone where the kernel is
// too long to compute.
double axis_error(const Descriptor& d, const BlurSpec& spec, int axis) {
  if (!(spec.sigma[static_cast<std::size_t>(axis)] > kSigmaCutoff)) return 0.0;
  if (const auto k = d.equivalent_kernel(spec, axis))  // NaN for a kernel that is no Gaussian's shape
    return k->sigma > 0.0 ? algo::max_error_1d(*k) : std::nan("");
  return kernel::dropped_weight(spec.sigma[static_cast<std::size_t>(axis)], effective_radius(spec, axis));
}

// docs/DESIGN.md's max error of the whole response: the planar algorithms' own; exact for two axes whose
// kernels are short enough; otherwise the bound prod(1 + e_axis) - 1 (|kx ky - gx gy| <= |dx| gy +
// |dy| gx + |dx dy|).
void predict_error(const Descriptor& d, Plan& plan) {
  std::vector<int> axes;
  for (int a = 0; a < 3; ++a)
    if (plan.axes[static_cast<std::size_t>(a)].active) axes.push_back(a);
  if (!d.info().capabilities.separable) {
    const bool any = plan.spec.sigma[0] > kSigmaCutoff || plan.spec.sigma[1] > kSigmaCutoff;
    plan.predicted_max_error = any ? d.planar_error(plan.spec) : 0.0;
    for (int a : axes) plan.axes[static_cast<std::size_t>(a)].predicted_error = plan.predicted_max_error;
    return;
  }
  for (int a : axes) plan.axes[static_cast<std::size_t>(a)].predicted_error = axis_error(d, plan.spec, a);
  if (axes.size() == 2) {
    const auto x = d.equivalent_kernel(plan.spec, axes[0]), y = d.equivalent_kernel(plan.spec, axes[1]);
    if (x && y && x->sigma > 0.0 && y->sigma > 0.0 && x->weights.size() * y->weights.size() <= (1u << 22)) {
      plan.predicted_max_error = error_2d(*x, *y);
      return;
    }
  }
  double product = 1.0;
  for (int a : axes) product *= 1.0 + plan.axes[static_cast<std::size_t>(a)].predicted_error;
  plan.predicted_max_error = product - 1.0;
}

// The pieces of a Vulkan plan: the whole image where it fits the device, else tiles with the plan's
// halos, starting on multiples of its block grid.
void schedule_pieces(const Descriptor& d, Plan& plan, const Shape& shape) {
  const auto [halo, align] = tiling::piece_grid(plan);
  const bool textures = d.info().capabilities.vulkan && !d.info().capabilities.vulkan_volumes;
  const auto fits = [&](std::array<std::int64_t, 3> e) {
    const double floats = static_cast<double>(e[0]) * static_cast<double>(e[1]) * static_cast<double>(e[2]) * shape.channels;
    if (shape.piece_bytes > 0 && floats * 4 > static_cast<double>(shape.piece_bytes)) return false;
    // Texture algorithms pad their image by their own reach again (a tile's halo is image data to
    // them), within the device's largest 2D image.
    if (textures && shape.max_image_2d > 0)
      for (std::size_t a = 0; a < 2; ++a)
        if (e[a] + 2 * (plan.axes[a].support + 1) > shape.max_image_2d) return false;
    return true;
  };
  plan.schedule.tile = tiling::choose_tile(shape.extent, halo, align, fits);
  plan.schedule.pieces = static_cast<std::int64_t>(tiling::pieces(shape.extent, plan.schedule.tile, halo).size());
  // One piece travels in parts of rows (packing overlaps the copies); tiles travel whole.
  const std::uint64_t count = static_cast<std::uint64_t>(shape.elements());
  const std::uint64_t bytes = std::max(algo::wire_bytes(count, shape.source), algo::wire_bytes(count, shape.destination));
  plan.schedule.transfer_parts = plan.schedule.pieces == 1 ? algo::transfer_parts(bytes, shape.extent[1] * shape.extent[2]) : 1;
  // Per-line scratch interleaved across lines on a GPU (coalesced), line by line on a CPU device.
  plan.schedule.gpu_interleave_scratch = !shape.software_device;
  // The caller's float32 buffers are read and written where they are (no conversion passes) where
  // they can be bound as they lie and the image is one piece.
  const bool floats = shape.source == ElementType::f32 && shape.destination == ElementType::f32;
  plan.schedule.gpu_io = shape.caller_buffers_bindable && floats && plan.schedule.pieces == 1 ? GpuIo::direct : GpuIo::converted;
  plan.schedule.cuda_handoff = shape.cuda_handoff;
}

// On a device with a measured profile: the algorithm's fastest measured variant, its modelled cost
// corrected by what it measured (the model's where the profile has no case of it).
void cost_from_profile(Plan& p, const Shape& shape) {
  double sigma = 0.0;
  for (const AxisPlan& ax : p.axes)
    if (ax.active) sigma = std::max(sigma, ax.sigma);
  std::vector<algo::GpuVariant> variants = algo::gpu_variants(p.algorithm);
  if (variants.empty()) variants.push_back({p.algorithm, "", nullptr, nullptr});
  std::optional<double> best;
  const algo::GpuVariant* fastest = nullptr;
  for (const algo::GpuVariant& v : variants)
    if (const auto c = shape.profile->correction(p.algorithm, v.name, shape, sigma); c && (!best || *c < *best))
      best = c, fastest = &v;
  if (!best) return;
  if (fastest->apply) fastest->apply(p, shape);
  p.predicted_cost *= *best;
  const algo::GpuProfile& g = *shape.profile;
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.3g", *best);
  p.cost_profile = "the measured profile of " + g.device + " (" + g.source + (g.commit.empty() ? "" : ", commit " + g.commit) +
                   "): " + std::string(to_string(p.algorithm)) + (fastest->name.empty() ? "" : " " + std::string(fastest->name)) +
                   " measured " + factor + "x its model";
}

// What computing in float lanes adds to an axis's error, relative to the impulse response's peak.
constexpr double kFloatLaneRounding = 1e-7;

// A named algorithm's plan: checked, resolved, scheduled, costed; its error predicted unless only the
// cost is wanted.
Plan resolved_plan(const BlurSpec& spec, const Shape& shape, bool predict = true) {
  const Descriptor& d = algo::descriptor(spec.algorithm);
  d.check(spec, shape);
  Plan p;
  p.algorithm = spec.algorithm;
  p.spec = spec;
  p.extent = shape.extent;
  p.channels = shape.channels;
  p.source = shape.source;
  p.destination = shape.destination;
  for (int a = 0; a < 3; ++a) {
    AxisPlan& ax = p.axes[static_cast<std::size_t>(a)];
    ax.sigma = spec.sigma[static_cast<std::size_t>(a)] > kSigmaCutoff ? spec.sigma[static_cast<std::size_t>(a)] : 0.0;
    ax.border = spec.border[static_cast<std::size_t>(a)];
    ax.active = algo::axis_active(spec, shape, a);
  }
  d.resolve(spec, shape, p);
  p.schedule.backend = shape.backend;
  p.schedule.intermediate = shape.wants_double() ? ElementType::f64 : ElementType::f32;
  d.schedule(p, shape);
  if (shape.backend == Backend::cpu && (p.schedule.driver == CpuDriver::lanes || p.schedule.driver == CpuDriver::chain))
    p.schedule.intermediate = ElementType::f32;  // the lanes and the chain compute in float
  for (int a = 0; a < 3; ++a)
    if (p.axes[static_cast<std::size_t>(a)].active) p.predicted_cost += d.axis_cost(p, shape, a);
  if (shape.backend == Backend::cpu) {
    const double elements = static_cast<double>(shape.elements());
    p.schedule.threads = core::threads_for(elements * std::max(1.0, p.predicted_cost), spec.threads);
    // x rows of a few values filtered last in SciPy's order: z and y as the image of x's pixels,
    // planned as one (its fused rows: 1000x1700x3 uint8 sigma 2 14.2 -> 8 ms, bench/RESULTS.md), x's
    // pass on each of its output rows while in cache.
    if (const auto image = pixels_image(p, shape)) {
      Plan sub = resolved_plan(image->spec, image->shape, false);
      // x's pass reads each of the image's output rows back while in cache: none streamed past it.
      sub.schedule.stream_destination = false;
      if (sub.schedule.driver == CpuDriver::scipy_order) p.schedule.pixels_image = std::make_shared<const Plan>(std::move(sub));
    }
  } else {
    schedule_pieces(d, p, shape);
    if (shape.profile) cost_from_profile(p, shape);
    algo::schedule_gpu_batches(p, shape);
  }
  if (predict) {
    predict_error(d, p);
    // An error every filtered axis adds on top of the algorithm's own.
    const auto add_per_axis = [&p](double error) {
      int active = 0;
      for (AxisPlan& ax : p.axes)
        if (ax.active) ax.predicted_error += error, ++active;
      p.predicted_max_error += error * active;
    };
    // float64 data in float lanes (a tolerance was given): float's rounding on top, measured at up
    // to 7e-8 of the peak over two axes (tests/plan/plan_test.cpp).
    if (shape.wants_double() && p.schedule.intermediate == ElementType::f32) add_per_axis(kFloatLaneRounding);
    if (shape.backend == Backend::vulkan && !shape.software_device && d.info().capabilities.texture_filtering)
      add_per_axis(algo::kSubTexelError);
    if (shape.backend == Backend::vulkan && p.schedule.gpu[0].real == ElementType::u8) {
      // 8-bit normalized images: every pass's result but the last's is stored rounded.
      const std::array<int, 3> stored = d.image_roundings(p);
      for (std::size_t a = 0; a < 3; ++a) {
        const double e = stored[a] * algo::kUnorm8Rounding;
        p.axes[a].predicted_error += e, p.predicted_max_error += e;
      }
    }
  } else {
    p.predicted_max_error = NAN;
    for (AxisPlan& ax : p.axes) ax.predicted_error = NAN;
  }
  return p;
}

// One line of --explain: the algorithm with its parameters, its prediction.
std::string line(const Plan& p) {
  std::string name(to_string(p.algorithm));
  const AlgorithmInfo& info = algorithm_info(p.algorithm);
  std::string radius;
  for (const PlanParameter& q : p.parameters) {
    if (q.key == "radius" && q.axis >= 0) radius += " " + std::to_string(std::get<std::int64_t>(q.value));
    if (q.axis >= 0) continue;
    for (const ParameterInfo& param : info.parameters)
      if (param.key == q.key) {
        if (const auto* b = std::get_if<bool>(&q.value)) {
          if (*b) name += " " + std::string(param.flag);
        } else if (const auto* i = std::get_if<std::int64_t>(&q.value)) {
          name += " " + std::string(param.flag) + " " + std::to_string(*i);
        } else if (const auto* s = std::get_if<std::string>(&q.value)) {
          name += " " + *s;
        } else if (const auto* d = std::get_if<double>(&q.value)) {
          char number[32];
          std::snprintf(number, sizeof number, "%g", *d);
          name += " " + std::string(param.flag) + " " + number;
        }
      }
  }
  // A per-axis integer option the same on every axis it was resolved for (downsample's factor).
  for (const ParameterInfo& param : info.parameters) {
    std::optional<std::int64_t> value;
    bool same = true;
    for (const PlanParameter& q : p.parameters)
      if (q.axis >= 0 && q.key == param.key)
        if (const auto* i = std::get_if<std::int64_t>(&q.value)) {
          same = same && (!value || *value == *i);
          value = *i;
        }
    if (value && same) name += " " + std::string(param.flag) + " " + std::to_string(*value);
  }
  if (!radius.empty()) name += " radius" + radius;
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-28s predicted max error %.3g, cost %.1f", name.c_str(), p.predicted_max_error,
                p.predicted_cost);
  return buf;
}

Plan plan_uncached(const BlurSpec& request, const Shape& shape, Prediction prediction) {
  const BlurSpec spec = with_rounding_resolved(request, shape);
  check_request(spec);
  if (spec.algorithm != Algorithm::automatic) {
    Plan p = resolved_plan(spec, shape, prediction == Prediction::full);
    p.reason = "the algorithm was named";
    p.considered.push_back(line(p));
    return p;
  }
  if (spec.rounding == Rounding::scipy) {
    Plan p = resolved_plan(algo::with_algorithm(spec, Algorithm::fir), shape);
    p.reason = "rounding scipy asks for scipy.ndimage's bits: fir with SciPy's weights, its summation order in "
               "double and the output type after each axis";
    p.considered.push_back(line(p));
    return p;
  }
  if (has_derivative(spec)) {
    Plan p = resolved_plan(algo::with_algorithm(spec, Algorithm::fir), shape);
    p.reason = "derivatives are computed by fir only";
    p.considered.push_back(line(p));
    return p;
  }
  const int dims = shape.dimensions();
  const auto runs = [&](const Descriptor& d) { return d.info().runs_on(shape.backend, dims); };
  // Exact: fir with the spec's own radius, or the same convolution by another exact algorithm where
  // that is cheaper.
  std::vector<std::string> considered;
  Plan best = resolved_plan(algo::with_algorithm(spec, Algorithm::fir), shape);
  considered.push_back(line(best));
  for (const Descriptor* d : algo::registry()) {
    if (d->id() == Algorithm::fir || !runs(*d)) continue;
    for (const BlurSpec& c : d->exact_candidates(spec, shape)) {
      Plan e = resolved_plan(c, shape);
      considered.push_back(line(e));
      if (e.predicted_cost < best.predicted_cost) best = std::move(e);
    }
  }
  std::string reason = spec.tolerance == 0.0
                           ? "tolerance 0 asks for the exact result (fir, or what equals it within 1e-5: fft, "
                             "sliding-dct fitted to fir's kernel; whichever is cheapest)"
                           : "nothing cheaper meets the tolerance";
  if (spec.tolerance > 0.0) {
    for (const Descriptor* d : algo::registry()) {
      if ((d->info().capabilities.exact && d->id() != Algorithm::fir) || !runs(*d)) continue;
      for (const BlurSpec& c : d->candidates(spec, shape)) {
        if (!d->info().capabilities.separable && best.predicted_max_error <= spec.tolerance) {
          // A planar candidate's error is computed from its 2D impulse response: skip that where
          // its cost alone already loses.
          const Plan cost_only = resolved_plan(c, shape, false);
          if (cost_only.predicted_cost >= best.predicted_cost) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%-28s not cheaper (cost %.1f): error not measured", d->name().c_str(),
                          cost_only.predicted_cost);
            considered.push_back(buf);
            continue;
          }
        }
        Plan e = resolved_plan(c, shape);
        considered.push_back(line(e));
        // Within tolerance and cheaper - or within tolerance where the exact result is not (its
        // truncation alone exceeds a tight tolerance).
        if (e.predicted_max_error <= spec.tolerance &&
            (e.predicted_cost < best.predicted_cost || best.predicted_max_error > spec.tolerance)) {
          best = std::move(e);
          reason = "the cheapest candidate within tolerance " + std::to_string(spec.tolerance);
        }
      }
    }
  }
  best.reason = reason;
  best.considered = std::move(considered);
  return best;
}

// Everything a plan depends on, as bytes: the spec's fields and every algorithm parameter (floats
// exactly, their bits), the shape and types, the backend and the device's traits - generated from
// the registry, so a new parameter is part of the key without a line here. Bits, not text: a
// key is made for every blur, and printing its forty numbers cost 14 us a plan (bench/RESULTS.md).
std::string plan_key(const BlurSpec& s, const Shape& shape) {
  std::string k;
  k.reserve(512);
  const auto add = [&](double v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (std::size_t a = 0; a < 3; ++a) {
    add(s.sigma[a]);
    add(static_cast<double>(s.border[a]));
    add(s.radius[a] ? *s.radius[a] : -1.0);
    add(s.order[a]);
    add(static_cast<double>(shape.extent[a]));
  }
  for (int a : s.axis_order) add(a);
  // Lists of weights by their count and a 64-bit FNV-1a hash of their bits (a kernel of a million
  // taps would make a key of megabytes).
  const auto add_list = [&](const std::vector<double>& w) {
    std::uint64_t h = 1469598103934665603ull;
    for (double v : w) {
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      for (int b = 0; b < 8; ++b) h = (h ^ ((bits >> (8 * b)) & 0xffu)) * 1099511628211ull;
    }
    add(static_cast<double>(w.size()));
    k.append(reinterpret_cast<const char*>(&h), sizeof h);
  };
  for (const std::vector<double>& w : s.weights) add_list(w);
  for (double v : {s.cval, s.truncate, static_cast<double>(s.algorithm), s.tolerance, double(s.threads),
                   double(s.rounding),
                   double(s.threads == 0 ? omp_get_max_threads() : 0), double(shape.channels), double(shape.source),
                   double(shape.destination), double(shape.backend), double(shape.in_place), double(shape.software_device),
                   double(shape.device_float64), double(shape.piece_bytes), double(shape.max_image_2d),
                   double(shape.shared_memory_bytes), double(shape.caller_buffers_bindable),
                   double(shape.cuda_handoff)})
    add(v);
  if (shape.profile) k += "|profile " + shape.profile->device + "|" + shape.profile->source + "|" + shape.profile->commit;
  for (const ParameterInfo& p : all_parameters()) {
    k += "|";
    const ParameterValue v = get_parameter(s, p.key);
    if (const auto* i = std::get_if<std::int64_t>(&v)) add(static_cast<double>(*i));
    else if (const auto* d = std::get_if<double>(&v)) add(*d);
    else if (const auto* b = std::get_if<bool>(&v)) add(*b);
    else if (const auto* t = std::get_if<std::string>(&v)) add(static_cast<double>(t->size())), k += *t;
    else if (const auto* l = std::get_if<std::vector<double>>(&v))
      add_list(*l);
  }
  return k;
}

}  // namespace

// Planning weighs a dozen candidates by their exact 2D errors (milliseconds at large sigma), so plans
// are remembered: the same request on the same shape plans once.
Plan plan_for(const BlurSpec& spec, const Shape& shape, Prediction prediction) {
  static std::mutex mutex;
  static std::unordered_map<std::string, Plan> cache;
  // A named algorithm's full plan serves a blur too; a blur's plan does not serve make_plan.
  const bool named = spec.algorithm != Algorithm::automatic;
  const std::string key = plan_key(spec, shape) + (named && prediction == Prediction::to_run ? "|run" : "");
  if (named && prediction == Prediction::to_run) {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(plan_key(spec, shape)); it != cache.end()) return it->second;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  Plan plan = plan_uncached(spec, shape, prediction);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 512) cache.clear();  // bounded; a full cache starts over
  cache.emplace(key, plan);
  return plan;
}

Shape shape_of(const View& src, ElementType destination, Backend backend) {
  Shape s;
  s.extent = src.extent;
  s.channels = src.channels;
  s.source = src.type;
  s.destination = destination;
  s.backend = backend;
  return s;
}

Shape shape_of(const View& src, const View& dst, Backend backend) {
  Shape s = shape_of(src, dst.type, backend);
  s.in_place = core::views_overlap(src, dst) && core::same_layout(src, dst);  // else the front door copies an overlap
  return s;
}

void check_plan_fits(const Plan& plan, const View& src, const View& dst) {
  if (src.extent != plan.extent || dst.extent != plan.extent || src.channels != plan.channels ||
      dst.channels != plan.channels)
    throw InvalidArgument("the plan was made for a " + std::to_string(plan.extent[0]) + "x" +
                          std::to_string(plan.extent[1]) + "x" + std::to_string(plan.extent[2]) + "x" +
                          std::to_string(plan.channels) + " image, not this one");
}

}  // namespace planner

Rounding resolved_rounding(const BlurSpec& spec, Backend backend) {
  const bool scipy_request =
      backend == Backend::cpu && (spec.algorithm == Algorithm::automatic
                                      ? spec.tolerance == 0.0
                                      : algo::descriptor(spec.algorithm).info().capabilities.scipy_rounding);
  return spec.rounding == Rounding::scipy && !scipy_request ? Rounding::nearest : spec.rounding;
}

Plan make_plan(const BlurSpec& spec, const View& src) { return make_plan(spec, src, src.type, Backend::cpu); }

Plan make_plan(const BlurSpec& spec, const View& src, Backend backend) {
  return make_plan(spec, src, src.type, backend);
}

Plan make_plan(const BlurSpec& spec, const View& src, ElementType destination, Backend backend) {
  return planner::plan_for(spec, planner::shape_of(src, destination, backend));
}

double predicted_axis_error(const BlurSpec& spec, int axis) {
  const Algorithm a = spec.algorithm == Algorithm::automatic ? Algorithm::fir : spec.algorithm;
  const algo::Descriptor& d = algo::descriptor(a);
  if (!(spec.sigma[static_cast<std::size_t>(axis)] > kSigmaCutoff)) return 0.0;
  if (!d.info().capabilities.separable) return d.planar_error(spec);
  return planner::axis_error(d, spec, axis);
}

}  // namespace fastblur
