#include "app.hpp"

#include <new>

#include "commands.hpp"
#include "help_format.hpp"
#include "suggest.hpp"
#include "fastblur/error.hpp"
#include "fastblur/version.hpp"

namespace fastblur::cli {

int run(int argc, const char* const* argv, std::FILE* errors) {
  try {
    CLI::App app{"fastblur " FASTBLUR_VERSION_STRING
                 ": Gaussian blur of images and volumes, exact or as fast as a chosen error allows"};
    app.set_version_flag("--version", std::string("fastblur ") + FASTBLUR_VERSION_STRING);
    app.formatter(wrapping_formatter(help_width()));  // before the commands: they take the parent's
    app.require_subcommand(1);
    const Command commands[] = {add_blur_command(app), add_demo_command(app), add_analyze_command(app),
                                add_codegen_command(app), add_devices_command(app), add_bench_command(app),
                                add_serve_command(app)};
    if (const std::string unknown = unknown_word(app, argc, argv); !unknown.empty()) {
      std::fprintf(errors, "fastblur: error: %s\n", unknown.c_str());
      return 2;
    }
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
      return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
      return app.exit(e);
    } catch (const CLI::ParseError& e) {
      std::fprintf(errors, "fastblur: error: %s (run '%s' for usage)\n", e.what(), help_hint(app, argc, argv).c_str());
      return 2;
    }
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run();
    return 2;
  } catch (const InvalidArgument& e) {
    std::fprintf(errors, "fastblur: error: %s\n", e.what());
    return 2;
  } catch (const Error& e) {
    std::fprintf(errors, "fastblur: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(errors, "fastblur: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(errors, "fastblur: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace fastblur::cli
