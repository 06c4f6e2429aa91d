// fastblur codegen: shader code for engines, for any real sigma.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "fastblur/codegen.hpp"

namespace fastblur::cli {

Command add_codegen_command(CLI::App& app) {
  struct Options {
    double sigma = 0.0;
    std::string method = "linear", lang = "glsl";
    int radius = -1, passes = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("codegen", "Print shader code (weights, offsets, sampling function) for a Gaussian "
                                                "of any sigma, with the error of what it emits");
  sub->add_option("-s,--sigma", o->sigma, "Gaussian sigma in pixels")->required();
  sub->add_option("-m,--method", o->method, "linear (separable, linear-sampling pairs), kawase (a solved schedule) or dual-kawase "
                 "(Bjorge's down/up chain, levels and offset solved; sigma >= 1)")
      ->capture_default_str();
  sub->add_option("-l,--lang", o->lang, "glsl or hlsl")->capture_default_str();
  sub->add_option("-r,--radius", o->radius, "linear: kernel radius (default: seed 003's precision rule at 8 bits)");
  sub->add_option("--passes", o->passes, "kawase: number of passes; dual-kawase: levels (default: chosen)");
  return {sub, [o] {
            const codegen::Shader s = codegen::generate(codegen::parse_method(o->method), codegen::parse_language(o->lang),
                                                        o->sigma, o->radius, o->passes);
            std::fputs(s.code.c_str(), stdout);
            return 0;
          }};
}

}  // namespace fastblur::cli
