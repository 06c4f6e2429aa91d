#pragma once
// Each subcommand registers its options on the app and returns the function that runs it.
#include <CLI/CLI.hpp>
#include <functional>

namespace fastblur::cli {

struct Command {
  CLI::App* app;             ///< the subcommand
  std::function<int()> run;  ///< runs it once parsed; returns the exit code
};
Command add_blur_command(CLI::App& app);
Command add_demo_command(CLI::App& app);
Command add_analyze_command(CLI::App& app);
Command add_codegen_command(CLI::App& app);
Command add_devices_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_serve_command(CLI::App& app);

}  // namespace fastblur::cli
