// fastblur: blur images and volumes from the command line.
#include <cstdio>
#include <new>

#include "commands.hpp"
#include "fastblur/error.hpp"
#include "fastblur/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"fastblur " FASTBLUR_VERSION_STRING
               ": Gaussian blur of images and volumes, exact or as fast as a chosen error allows"};
  app.set_version_flag("--version", std::string("fastblur ") + FASTBLUR_VERSION_STRING);
  app.require_subcommand(1);
  const fastblur::cli::Command commands[] = {fastblur::cli::add_blur_command(app),
                                              fastblur::cli::add_demo_command(app),
                                              fastblur::cli::add_analyze_command(app),
                                              fastblur::cli::add_codegen_command(app),
                                              fastblur::cli::add_devices_command(app),
                                              fastblur::cli::add_bench_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "fastblur: error: %s (run 'fastblur --help' for usage)\n", e.what());
    return 2;
  }
  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 2;
  } catch (const fastblur::InvalidArgument& e) {
    std::fprintf(stderr, "fastblur: error: %s\n", e.what());
    return 2;
  } catch (const fastblur::Error& e) {
    std::fprintf(stderr, "fastblur: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "fastblur: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fastblur: error: %s\n", e.what());
    return 1;
  }
}
