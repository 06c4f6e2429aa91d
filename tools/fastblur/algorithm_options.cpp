#include "algorithm_options.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

#include "fastblur/error.hpp"
#include "fastblur/validate.hpp"

namespace fastblur::cli {
namespace {

struct Target {
  const AlgorithmInfo* algorithm;
  const ParameterInfo* parameter;
};

// Every algorithm parameter by its command-line flag (several algorithms may share one).
std::map<std::string, std::vector<Target>> parameters_by_flag() {
  std::map<std::string, std::vector<Target>> out;
  for (const AlgorithmInfo& a : algorithms())
    for (const ParameterInfo& p : a.parameters) out[std::string(p.flag)].push_back({&a, &p});
  return out;
}

std::string help_for(const std::vector<Target>& targets) {
  std::string help;
  for (const Target& t : targets) {
    if (!help.empty()) help += "; ";
    help += std::string(t.algorithm->name) + ": " + std::string(t.parameter->doc) + " (" + t.parameter->range_text();
    if (!t.parameter->zero_chooses && !t.parameter->default_text.empty())
      help += "; default " + std::string(t.parameter->default_text);
    help += ")";
  }
  return help;
}

}  // namespace

void AlgorithmOptions::add_to(CLI::App& sub) {
  std::string list;
  for (const auto& a : fastblur::algorithms()) list += "\n  " + std::string(a.name) + ": " + std::string(a.summary);
  sub.add_option("-a,--algorithm", algorithm, "Algorithm:" + list)->capture_default_str()->type_name("NAME")->group("Algorithm");
  sub.add_option("-e,--tolerance", tolerance,
                 "With --algorithm auto: the largest max error of the impulse response (relative to the Gaussian's "
                 "peak) to trade for speed; 0 = exact")
      ->capture_default_str()
      ->type_name("ERROR")
      ->group("Algorithm");
  for (const auto& [flag, targets] : parameters_by_flag()) {
    bool all_switches = true;
    for (const Target& t : targets) all_switches = all_switches && t.parameter->kind == ParameterInfo::Kind::flag;
    options_[flag] = all_switches ? sub.add_flag("--" + flag, switches_[flag], help_for(targets))
                                  : sub.add_option("--" + flag, values_[flag], help_for(targets))->type_name("VALUE");
    options_[flag]->group("Algorithm options");
  }
}

void apply_algorithm_choice(BlurSpec& spec, const std::string& algorithm, double tolerance,
                            const std::map<std::string, std::string>& given_by_flag, const OptionNames& names) {
  spec.algorithm = parse_algorithm(algorithm);
  check_tolerance(tolerance, names);
  spec.tolerance = tolerance;
  const auto by_flag = parameters_by_flag();
  for (const auto& [flag, text] : given_by_flag) {
    const auto found = by_flag.find(flag);
    if (found == by_flag.end()) throw InvalidArgument("--" + flag + " is not an option of any algorithm");
    const std::vector<Target>& targets = found->second;
    // The named algorithm's parameter (a flag may be shared: --passes is box's and kawase's).
    const Target* chosen = nullptr;
    for (const Target& t : targets)
      if (parameter_applies(spec, t.parameter->key)) chosen = &t;
    if (!chosen) {  // no option is silently ignored
      std::string owners;
      for (const Target& t : targets) owners += (owners.empty() ? "" : " and ") + std::string(t.algorithm->name);
      throw InvalidArgument("--" + flag + " is an option of " + owners +
                            (spec.algorithm == Algorithm::automatic
                                 ? ": name the algorithm with --algorithm (auto chooses its candidates' parameters)"
                                 : ", not of " + std::string(to_string(spec.algorithm))));
    }
    try {
      set_parameter_text(spec, chosen->parameter->key, text);
    } catch (const InvalidArgument&) {
      throw InvalidArgument("--" + flag + (targets.size() > 1 ? " for " + std::string(chosen->algorithm->name) : std::string()) +
                            " must be " + chosen->parameter->range_text() + "; got '" + text + "'");
    }
  }
}

void AlgorithmOptions::apply(BlurSpec& spec) const {
  std::map<std::string, std::string> given;
  for (const auto& [flag, option] : options_)
    if (option->count() > 0)
      given[flag] = switches_.count(flag) ? (switches_.at(flag) ? "true" : "false") : values_.at(flag);
  apply_algorithm_choice(spec, algorithm, tolerance, given, OptionNames::command_line());
}

}  // namespace fastblur::cli
