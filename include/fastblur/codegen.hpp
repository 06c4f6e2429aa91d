#pragma once
/// @file
/// Shader code for real-time engines (seed 002 generated sizes 4n-1 only; this covers any real
/// sigma): the weights and offsets, the sampling function, and the error of what is emitted.
#include <string>
#include <vector>

namespace fastblur::codegen {

enum class Method {
  linear,  ///< separable Gaussian with linear-sampling pairs (seeds 002, 003): two passes
  kawase,  ///< a Kawase schedule solved for sigma (seed 002): its passes in sequence
  dual_kawase,  ///< Bjorge's dual filtering with levels and offset solved for sigma
                ///< (kernel_dual_kawase.hpp): down passes to 1/2, 1/4, ..., then up passes back
};
enum class Language { glsl, hlsl };

struct Shader {
  std::string code;              ///< constants and functions, ready to paste
  std::vector<double> offsets;   ///< linear: fetch offsets in texels; kawase: pass offsets;
                                 ///< dual_kawase: the offset along x and along y (half texels)
  std::vector<double> weights;   ///< linear: fetch weights (empty for the others)
  int levels = 0;                ///< dual_kawase: levels of the chain (0 for the others)
  double max_error = 0.0;        ///< of the emitted 1D kernel, relative to the Gaussian's peak
                                 ///< (dual_kawase: its worst phase, kernel::dual_kawase_error)
  double fetches_per_pixel = 0;  ///< texture fetches per full-resolution pixel over all passes
};

/// Generates the shader for sigma. `radius` < 0 picks seed 003's precision rule at 8-bit
/// (radius_for_precision(sigma, 1/255/2)) for `linear`; `passes` <= 0 lets kawase_schedule choose,
/// and for dual_kawase is the number of levels (0: kernel::dual_kawase_levels_for; sigma >= 1).
/// Throws InvalidArgument.
Shader generate(Method method, Language language, double sigma, int radius = -1, int passes = 0);

Method parse_method(const std::string& name);
Language parse_language(const std::string& name);

}  // namespace fastblur::codegen
