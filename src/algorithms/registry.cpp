// The registry: the list of descriptors (one line per algorithm), and the public views of it -
// algorithms(), names, and parameters by key.
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

#include "algorithms/descriptor.hpp"
#include "fastblur/error.hpp"

namespace fastblur {
namespace algo {

// Each defined in src/algorithms/ID.cpp.
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) const Descriptor& id##_descriptor();
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM

const std::vector<const Descriptor*>& registry() {
  static const std::vector<const Descriptor*> list{
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) &id##_descriptor(),
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM
  };
  return list;
}

const Descriptor& descriptor(Algorithm algorithm) {
  for (const Descriptor* d : registry())
    if (d->id() == algorithm) return *d;
  throw InvalidArgument("algorithm " + std::string(to_string(algorithm)) + " has no descriptor (auto is the planner)");
}

}  // namespace algo

namespace {

const algo::Parameter& parameter(std::string_view key) {
  for (const algo::Descriptor* d : algo::registry())
    for (const algo::Parameter& p : d->parameters())
      if (p.info.key == key) return p;
  std::string known;
  for (const ParameterInfo& p : all_parameters()) known += (known.empty() ? "" : ", ") + std::string(p.key);
  throw InvalidArgument("unknown option '" + std::string(key) + "': expected one of " + known);
}

// Text to a number, the whole text or nothing.
std::optional<double> parse_number(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

bool AlgorithmInfo::runs_on(Backend backend, int dimensions) const noexcept {
  if (id == Algorithm::automatic) return true;
  if (dimensions > capabilities.max_dimensions) return false;
  if (backend == Backend::cpu) return capabilities.cpu;
  return capabilities.vulkan && (dimensions < 3 || capabilities.vulkan_volumes);
}

const std::vector<AlgorithmInfo>& algorithms() {
  static const std::vector<AlgorithmInfo> list = [] {
    AlgorithmInfo planner;
    planner.id = Algorithm::automatic;
    planner.name = "auto";
    planner.summary = "the planner's choice; exact (fir, or fft or sliding-dct fitted to fir's kernel, equal to it within 1e-5) unless a tolerance allows an approximation";
    planner.description =
        "Weighs every algorithm the backend runs on this shape: exact at tolerance 0 (fir, or where cheaper what equals it within 1e-5: fft, or sliding-dct fitted to fir's kernel at a cost independent of sigma), "
        "otherwise the cheapest whose predicted max error is within the tolerance. --explain shows the candidates.";
    planner.capabilities.derivatives = true;
    planner.capabilities.exact = true;
    std::vector<AlgorithmInfo> out{planner};
    for (const algo::Descriptor* d : algo::registry()) out.push_back(d->info());
    return out;
  }();
  return list;
}

const AlgorithmInfo& algorithm_info(Algorithm algorithm) {
  for (const auto& a : algorithms())
    if (a.id == algorithm) return a;
  throw InvalidArgument("unknown algorithm id " + std::to_string(static_cast<int>(algorithm)));
}

std::vector<ParameterInfo> all_parameters() {
  std::vector<ParameterInfo> out;
  for (const algo::Descriptor* d : algo::registry())
    for (const algo::Parameter& p : d->parameters()) out.push_back(p.info);
  return out;
}

std::string_view to_string(Algorithm algorithm) noexcept {
  for (const auto& a : algorithms())
    if (a.id == algorithm) return a.name;
  return "?";
}

Algorithm parse_algorithm(std::string_view name) {
  std::string known;
  for (const auto& a : algorithms()) {
    if (a.name == name) return a.id;
    known += (known.empty() ? "" : ", ") + std::string(a.name);
  }
  throw InvalidArgument("unknown algorithm '" + std::string(name) + "': expected one of " + known);
}

Algorithm parameter_owner(std::string_view key) {
  (void)parameter(key);  // unknown keys: the same error as everywhere
  for (const algo::Descriptor* d : algo::registry())
    for (const algo::Parameter& p : d->parameters())
      if (p.info.key == key) return d->id();
  return Algorithm::automatic;
}

bool parameter_applies(const BlurSpec& spec, std::string_view key) {
  return spec.algorithm != Algorithm::automatic && parameter_owner(key) == spec.algorithm;
}

void check_options_apply(const BlurSpec& spec) {
  for (const auto& [key, value] : spec.options) {
    if (parameter_applies(spec, key)) continue;
    const std::string owner(to_string(parameter_owner(key)));
    throw InvalidArgument("option '" + key + "' is " + owner + "'s" +
                          (spec.algorithm == Algorithm::automatic
                               ? ": name the algorithm (auto chooses its candidates' parameters)"
                               : ", not " + std::string(to_string(spec.algorithm)) + "'s"));
  }
}

void set_parameter(BlurSpec& spec, std::string_view key, const ParameterValue& value) {
  const algo::Parameter& p = parameter(key);
  p.set(spec, algo::checked_value(p.info, value));
}

void set_parameter_text(BlurSpec& spec, std::string_view key, std::string_view text) {
  const algo::Parameter& p = parameter(key);
  const std::string k(key);
  switch (p.info.kind) {
    case ParameterInfo::Kind::integer:
    case ParameterInfo::Kind::real: {
      const auto v = parse_number(text);
      if (!v) throw InvalidArgument(k + " is '" + std::string(text) + "': expected " + p.info.range_text());
      set_parameter(spec, key, *v);
      return;
    }
    case ParameterInfo::Kind::flag: {
      if (text == "true" || text == "1" || text == "yes" || text == "on") return set_parameter(spec, key, true);
      if (text == "false" || text == "0" || text == "no" || text == "off") return set_parameter(spec, key, false);
      throw InvalidArgument(k + " is '" + std::string(text) + "': expected true or false");
    }
    case ParameterInfo::Kind::choice: set_parameter(spec, key, std::string(text)); return;
    case ParameterInfo::Kind::real_list: {
      std::vector<double> list;
      std::size_t start = 0;
      while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const auto v = parse_number(text.substr(start, comma - start));
        if (!v) throw InvalidArgument(k + " is '" + std::string(text) + "': expected comma-separated numbers");
        list.push_back(*v);
        start = comma + 1;
      }
      set_parameter(spec, key, list);
      return;
    }
  }
}

ParameterValue get_parameter(const BlurSpec& spec, std::string_view key) { return parameter(key).get(spec); }

}  // namespace fastblur
