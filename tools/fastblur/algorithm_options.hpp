#pragma once
// The options that choose and tune an algorithm, declared once for every command that blurs.
#include <CLI/CLI.hpp>
#include <string>

#include "fastblur/blur.hpp"

namespace fastblur::cli {

struct AlgorithmOptions {
  std::string algorithm = "auto", offsets, iir_variant = "deriche";
  double tolerance = 0.0;
  int passes = 0, factor = 0, order = 0, levels = 0, samples = 0, frame = 0;
  double offset = 0.0;
  bool integer_widths = false;

  /// Registers --algorithm, --tolerance, --passes, --integer-widths, --offsets, --iir-variant, --factor,
  /// --sdct-order, --levels, --offset, --samples, --frame on `sub`.
  void add_to(CLI::App& sub);
  /// Validates and copies them into `spec`. Throws InvalidArgument.
  void apply(BlurSpec& spec) const;
};

}  // namespace fastblur::cli
