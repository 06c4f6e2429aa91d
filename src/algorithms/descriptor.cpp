// What every descriptor shares: parameter access and checking, the generic capability checks (one
// message for each refusal, whichever front door the request came through), and small helpers.
#include "algorithms/descriptor.hpp"
#include "algorithms/folded_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/cache_size.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur {

namespace {

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

const char* kind_name(ParameterInfo::Kind k) {
  switch (k) {
    case ParameterInfo::Kind::integer: return "an integer";
    case ParameterInfo::Kind::real: return "a number";
    case ParameterInfo::Kind::flag: return "true or false";
    case ParameterInfo::Kind::choice: return "a name";
    case ParameterInfo::Kind::real_list: return "a list of numbers";
  }
  return "a value";
}

}  // namespace

std::string ParameterInfo::range_text() const {
  std::string text;
  switch (kind) {
    case Kind::flag: return "true or false";
    case Kind::choice:
      for (std::size_t i = 0; i < choices.size(); ++i)
        text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i]);
      return text;
    case Kind::integer:
      if (multiple_of > 1 && (max - min) / static_cast<double>(multiple_of) < 2.5) {
        for (double v = min; v <= max; v += static_cast<double>(multiple_of))
          text += (text.empty() ? "" : v + static_cast<double>(multiple_of) > max ? " or " : ", ") + number(v);
      } else if (multiple_of > 1) {
        text = "a multiple of " + std::to_string(multiple_of) + " from " + number(min) + " to " + number(max);
      } else {
        text = number(min) + " to " + number(max);
      }
      break;
    case Kind::real: text = number(min) + " to " + number(max); break;
    case Kind::real_list: text = "values from " + number(min) + " to " + number(max); break;
  }
  if (zero_chooses) text += ", or 0 for " + std::string(default_text);
  return text;
}

namespace algo {

ParameterValue checked_value(const ParameterInfo& info, const ParameterValue& value) {
  const std::string key(info.key);
  const auto bad = [&](const std::string& got) {
    return InvalidArgument(key + " is " + got + ": expected " + info.range_text());
  };
  const auto in_range = [&](double v) { return std::isfinite(v) && v >= info.min && v <= info.max; };
  switch (info.kind) {
    case ParameterInfo::Kind::integer: {
      double v;
      if (const auto* i = std::get_if<std::int64_t>(&value)) v = static_cast<double>(*i);
      else if (const auto* d = std::get_if<double>(&value)) v = *d;
      else throw InvalidArgument(key + " must be " + kind_name(info.kind));
      if (!std::isfinite(v) || v != std::floor(v)) throw bad(number(v));
      if (!(info.zero_chooses && v == 0.0) &&
          (!in_range(v) || std::fmod(v - info.min, static_cast<double>(info.multiple_of)) != 0.0))
        throw bad(number(v));
      return static_cast<std::int64_t>(v);
    }
    case ParameterInfo::Kind::real: {
      double v;
      if (const auto* i = std::get_if<std::int64_t>(&value)) v = static_cast<double>(*i);
      else if (const auto* d = std::get_if<double>(&value)) v = *d;
      else throw InvalidArgument(key + " must be " + kind_name(info.kind));
      if (!(info.zero_chooses && v == 0.0) && !in_range(v)) throw bad(number(v));
      return v;
    }
    case ParameterInfo::Kind::flag:
      if (const auto* b = std::get_if<bool>(&value)) return *b;
      if (const auto* i = std::get_if<std::int64_t>(&value); i && (*i == 0 || *i == 1)) return *i == 1;
      throw InvalidArgument(key + " must be true or false");
    case ParameterInfo::Kind::choice: {
      const auto* s = std::get_if<std::string>(&value);
      if (!s) throw InvalidArgument(key + " must be " + info.range_text());
      for (std::string_view c : info.choices)
        if (*s == c) return *s;
      throw bad("'" + *s + "'");
    }
    case ParameterInfo::Kind::real_list: {
      const auto* list = std::get_if<std::vector<double>>(&value);
      if (!list) throw InvalidArgument(key + " must be " + kind_name(info.kind));
      for (double v : *list)
        if (!in_range(v)) throw bad("a list holding " + number(v));
      return *list;
    }
  }
  throw InvalidArgument(key + ": unknown parameter kind");
}

void set_option(BlurSpec& spec, std::string_view key, ParameterValue value) {
  for (auto& [k, v] : spec.options)
    if (k == key) {
      v = std::move(value);
      return;
    }
  spec.options.emplace_back(std::string(key), std::move(value));
}

Parameter option(ParameterInfo info) {
  ParameterValue zero;
  switch (info.kind) {
    case ParameterInfo::Kind::integer: zero = std::int64_t{0}; break;
    case ParameterInfo::Kind::real: zero = 0.0; break;
    case ParameterInfo::Kind::flag: zero = false; break;
    case ParameterInfo::Kind::choice: zero = std::string(info.choices.empty() ? "" : info.choices.front()); break;
    case ParameterInfo::Kind::real_list: zero = std::vector<double>{}; break;
  }
  const std::string key(info.key);
  return {std::move(info),
          [key, zero](const BlurSpec& s) -> ParameterValue {
            for (const auto& [k, v] : s.options)
              if (k == key) return v;
            return zero;
          },
          [key](BlurSpec& s, const ParameterValue& v) { set_option(s, key, v); }};
}

Descriptor::Descriptor(AlgorithmInfo info, std::vector<Parameter> parameters)
    : info_(std::move(info)), parameters_(std::move(parameters)) {
  info_.parameters.clear();
  for (const Parameter& p : parameters_) info_.parameters.push_back(p.info);
  info_.planar = !info_.capabilities.separable;
  info_.gpu_only = !info_.capabilities.cpu;
}

namespace {

// "a, b and c": the registry's names of the algorithms for which `pick` holds.
template <class Pick>
std::string names_where(Pick pick) {
  std::vector<std::string> names;
  for (const Descriptor* d : registry())
    if (pick(d->info())) names.emplace_back(d->info().name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

}  // namespace

void Descriptor::check(const BlurSpec& spec, const Shape& shape) const {
  const std::string n = name();
  for (const Parameter& p : parameters_) (void)checked_value(p.info, p.get(spec));
  const Capabilities& c = info_.capabilities;
  if (shape.backend == Backend::cpu && !c.cpu)
    throw Unsupported("algorithm " + n + " runs on the Vulkan backend only (--device vulkan; Device::vulkan() in the "
                      "API); on the CPU, fir computes the same convolution");
  if (shape.backend == Backend::vulkan && !c.vulkan)
    throw Unsupported("algorithm " + n + " is not available on the Vulkan backend (it runs every algorithm but " +
                      names_where([](const AlgorithmInfo& a) { return !a.capabilities.vulkan; }) + "); use the CPU");
  if (shape.extent[2] > 1 && shape.backend == Backend::vulkan && !c.vulkan_volumes)
    throw Unsupported(n + " on the Vulkan backend blurs 2D images (it samples 2D textures); this one has depth " +
                      std::to_string(shape.extent[2]) + ": use " +
                      names_where([](const AlgorithmInfo& a) { return a.capabilities.vulkan && a.capabilities.vulkan_volumes; }) +
                      " for volumes");
  if (shape.extent[2] > 1 && c.max_dimensions < 3)
    throw InvalidArgument(n + " blurs 2D images only: the image's depth is " + std::to_string(shape.extent[2]) +
                          ", expected 1");
  if (has_derivative(spec)) {
    if (!c.derivatives)
      throw InvalidArgument("derivative orders need algorithm " +
                            names_where([](const AlgorithmInfo& a) { return a.capabilities.derivatives; }) +
                            " (or auto), not " + n);
    if (shape.backend == Backend::vulkan) throw Unsupported("derivative orders are not available on the Vulkan backend");
  }
  for (int a = 0; a < 3; ++a) {
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    if (!(sigma > kSigmaCutoff)) continue;
    if ((c.min_sigma > 0.0 && sigma < c.min_sigma) || (c.max_sigma > 0.0 && sigma > c.max_sigma))
      throw InvalidArgument(n + ": sigma along " + std::string(1, "xyz"[a]) + " is " + number(sigma) + ": expected 0 or " +
                            (c.max_sigma > 0.0 ? number(c.min_sigma) + " to " + number(c.max_sigma)
                                               : "at least " + number(c.min_sigma)) +
                            " (fir takes any sigma)");
  }
}

void Descriptor::schedule(Plan& plan, const Shape&) const { plan.schedule.driver = CpuDriver::lines; }

void Descriptor::schedule_gpu_batches(Plan&, const Shape&, std::array<std::int64_t, 3>) const {}

std::optional<EquivalentKernel> Descriptor::equivalent_kernel(const BlurSpec&, int) const { return std::nullopt; }

std::array<int, 3> Descriptor::on_first_filtered_axis(const Plan& plan, int count) {
  std::array<int, 3> stored{};
  for (std::size_t a = 0; a < 3; ++a)
    if (plan.axes[a].active) {
      stored[a] = count;
      break;
    }
  return stored;
}

std::array<int, 3> Descriptor::image_roundings(const Plan& plan) const {
  std::array<int, 3> stored{};
  bool first = true;
  for (std::size_t a = 0; a < 3; ++a) {
    if (!plan.axes[a].active) continue;
    stored[a] = first ? 0 : 1;
    first = false;
  }
  return stored;
}

double Descriptor::planar_error(const BlurSpec&) const {
  throw InvalidArgument("internal: " + name() + " is separable: its error comes from its 1D kernels");
}

std::vector<BlurSpec> Descriptor::candidates(const BlurSpec&, const Shape&) const { return {}; }

std::vector<BlurSpec> Descriptor::exact_candidates(const BlurSpec& spec, const Shape& shape) const {
  return info().capabilities.exact ? candidates(spec, shape) : std::vector<BlurSpec>{};
}

double max_error_1d(const EquivalentKernel& k) {
  const int half = static_cast<int>(k.weights.size() / 2);
  const std::vector<double> g = kernel::reference_gaussian(k.sigma, half + 1);
  double worst = 0.0, peak = 0.0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double w = i == 0 || i == g.size() - 1 ? 0.0 : k.weights[i - 1];
    worst = std::max(worst, std::abs(w - g[i]));
    peak = std::max(peak, g[i]);
  }
  return worst / peak;
}

BlurSpec with_algorithm(const BlurSpec& spec, Algorithm algorithm) {
  BlurSpec s = spec;
  s.algorithm = algorithm;
  // Only the new algorithm's own options travel: another's would mean nothing to it.
  std::erase_if(s.options, [&](const auto& option) { return !parameter_applies(s, option.first); });
  return s;
}

bool axis_active(const BlurSpec& spec, const Shape& shape, int axis) {
  const auto i = static_cast<std::size_t>(axis);
  return spec.sigma[i] > kSigmaCutoff && (shape.extent[i] > 1 || spec.border[i] == Border::constant);
}

void add_parameter(Plan& plan, std::string key, ParameterValue value, int axis) {
  plan.parameters.push_back({std::move(key), std::move(value), axis});
}

std::optional<EquivalentKernel> gaussian_equivalent_kernel(const BlurSpec& spec, int axis) {
  const int r = effective_radius(spec, axis);
  if (r > 4096) return std::nullopt;
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  return EquivalentKernel{r == 0 ? std::vector<double>{1.0} : kernel::gaussian_weights(sigma, r), sigma};
}

std::vector<double> gaussian_axis_weights(const BlurSpec& spec, int axis, int radius) {
  const auto a = static_cast<std::size_t>(axis);
  // The caller's (SciPy's own, from NumPy) where they are this radius's: a candidate truncated
  // further (a tolerance's fir) computes its own.
  if (spec.weights[a].size() == 2 * static_cast<std::size_t>(radius) + 1) return spec.weights[a];
  if (spec.order[a] == 0) return kernel::gaussian_weights(spec.sigma[a], radius);
  std::vector<double> w = kernel::gaussian_derivative_weights(spec.sigma[a], spec.order[a], radius);
  std::reverse(w.begin(), w.end());  // a convolution kernel, as a correlation
  return w;
}

void resolve_gaussian_radii(const BlurSpec& spec, Plan& plan, bool fold) {
  for (int a = 0; a < 3; ++a) {
    AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
    const auto i = static_cast<std::size_t>(a);
    ax.radius = effective_radius(spec, a);
    ax.support = ax.active ? ax.radius : 0;
    ax.achieved_sigma = ax.sigma;
    ax.weights.reset();
    ax.folded_from = 0;
    // A radius beyond the axis: folded onto what the border reads (not for SciPy's bits, whose sums
    // run over every tap in SciPy's order, nor derivatives and the caller's weights).
    if (fold && ax.sigma > kSigmaCutoff && spec.rounding != Rounding::scipy && spec.order[i] == 0 && spec.weights[i].empty())
      if (auto folded = fold_gaussian(ax.sigma, ax.radius, plan.extent[i], spec.border[i])) {
        ax.folded_from = ax.radius;
        ax.radius = folded->radius;
        ax.support = ax.active ? ax.radius : 0;
        ax.achieved_sigma = folded->achieved_sigma;
        add_parameter(plan, "radius", std::int64_t{ax.radius}, a);
        add_parameter(plan, "folded_from_radius", ax.folded_from, a);
        ax.weights = std::make_shared<const std::vector<double>>(std::move(folded->weights));
        continue;
      }
    if (ax.sigma > kSigmaCutoff) {
      add_parameter(plan, "radius", std::int64_t{ax.radius}, a);
      ax.weights = std::make_shared<const std::vector<double>>(gaussian_axis_weights(spec, a, ax.radius));
    }
  }
}

namespace {

// The 2D max error of the response at sigma along x and y: max |H - G| / max G over the (12 sigma +
// 17)^2 pixels around the impulse, G = g(x) g(y), g the sampled Gaussian normalised over +-8 sigma
// (analysis::measure_impulse's max_error_2d, on the same image).
double planar_error_at(const BlurSpec& spec, double sigma, const PlanarResponse& response) {
  if (!(sigma > 0.0)) throw InvalidArgument("a planar algorithm's error: sigma must be > 0");
  BlurSpec s = spec;
  s.sigma = {sigma, sigma, 0.0};
  const int half = static_cast<int>(std::ceil(6.0 * sigma)) + 8;
  const int n = 2 * half + 1;
  const std::vector<double> img = response(s, n);
  const std::vector<double> g = kernel::reference_gaussian(sigma, half);
  const double peak = g[static_cast<std::size_t>(half)] * g[static_cast<std::size_t>(half)];
  double worst = 0.0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double d = img[static_cast<std::size_t>(y) * n + x] - g[static_cast<std::size_t>(x)] * g[static_cast<std::size_t>(y)];
      worst = std::max(worst, std::abs(d) / peak);
    }
  return worst;
}

}  // namespace

double measured_planar_error(const BlurSpec& spec, const PlanarResponse& response) {
  double worst = 0.0;
  for (int a = 0; a < 2; ++a) {
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    if (a == 1 && sigma == spec.sigma[0]) break;
    double e;
    try {
      e = planar_error_at(spec, std::min(sigma, kLargeSigma), response);
    } catch (const InvalidArgument&) {
      e = planar_error_at(spec, sigma, response);
    }
    worst = std::max(worst, e);
  }
  return worst;
}

double padded_ratio(const Shape& shape, int axis, double pad) {
  const double n = static_cast<double>(std::max<std::int64_t>(1, shape.extent[static_cast<std::size_t>(axis)]));
  return (n + 2.0 * pad) / n;
}

}  // namespace algo
}  // namespace fastblur

namespace fastblur::algo {
bool float_lanes_allowed(const BlurSpec& spec, const Shape& shape) {
  return !shape.wants_double() || spec.tolerance >= kFloatLanesTolerance;
}

// Measured for downsample's chain: the crossover at 16 MiB of a 32 MiB cache (bench/RESULTS.md,
// 2026-11-27); for SciPy's fused rows, issue 43's entry.
bool streams_float_destination(const Shape& shape) {
  const auto bytes = static_cast<std::uint64_t>(shape.elements()) * sizeof(float);
  return shape.backend == Backend::cpu && shape.destination == ElementType::f32 &&
         bytes >= core::last_level_cache_bytes() / 2;
}
}  // namespace fastblur::algo
