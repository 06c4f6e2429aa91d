#pragma once
// The options that choose and tune an algorithm, generated from the registry (algorithm.hpp) for
// every command that blurs: --algorithm and --tolerance, then one option per parameter flag, its help
// the descriptors' docs, ranges and defaults.
#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "fastblur/blur.hpp"
#include "fastblur/validate.hpp"

namespace fastblur::cli {

/// The one rule for choosing and tuning an algorithm, shared by every front end (the CLI's options, the
/// explorer's JSON): `algorithm` by name, `tolerance`, and parameters by their command-line flag ("passes")
/// with their text ("3", "true"). A flag shared by several algorithms sets the named algorithm's parameter;
/// a flag the algorithm does not take is refused. Throws InvalidArgument naming the flag and its range;
/// the tolerance is checked by the core's check_tolerance (validate.hpp), named as `names` spell it.
void apply_algorithm_choice(BlurSpec& spec, const std::string& algorithm, double tolerance,
                            const std::map<std::string, std::string>& given_by_flag, const OptionNames& names);

struct AlgorithmOptions {
  std::string algorithm = "auto";
  double tolerance = 0.0;

  /// Registers --algorithm, --tolerance and every algorithm parameter's flag on `sub`.
  void add_to(CLI::App& sub);
  /// Validates and copies them into `spec`: a flag shared by several algorithms sets the named
  /// algorithm's parameter (with auto, each one whose range admits the value). Throws InvalidArgument
  /// naming the flag and its range.
  void apply(BlurSpec& spec) const;

 private:
  std::map<std::string, std::string> values_;  // by flag: the text given
  std::map<std::string, bool> switches_;       // by flag: flags without a value
  std::map<std::string, CLI::Option*> options_;
};

}  // namespace fastblur::cli
