// Shader generation from the kernel layer: the numbers come from fastblur::kernel, never a copy.
#include <cmath>
#include <cstdio>
#include <string>

#include "fastblur/analysis.hpp"
#include "fastblur/codegen.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/version.hpp"

namespace fastblur::codegen {
namespace {

// Nine significant digits survive float parsing exactly enough (float has about 7.2).
std::string f(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string array(Language lang, const char* name, const std::vector<double>& v) {
  std::string body;
  for (std::size_t i = 0; i < v.size(); ++i) body += (i ? ", " : "") + f(v[i]);
  const std::string n = std::to_string(v.size());
  return lang == Language::glsl ? "const float " + std::string(name) + "[" + n + "] = float[" + n + "](" + body + ");\n"
                                : "static const float " + std::string(name) + "[" + n + "] = {" + body + "};\n";
}

// Max |k - g| / max g of a centred 1D kernel, the Gaussian's tail beyond it included.
double kernel_error(const std::vector<double>& k, double sigma) {
  const int half = static_cast<int>(k.size() / 2);
  const auto g = analysis::reference_gaussian(sigma, half + 1);
  double worst = std::max(g.front(), g.back()), peak = 0.0;
  for (std::size_t i = 0; i < k.size(); ++i) {
    worst = std::max(worst, std::abs(k[i] - g[i + 1]));
    peak = std::max(peak, g[i + 1]);
  }
  return worst / peak;
}

Shader linear(Language lang, double sigma, int radius) {
  if (radius < 0) radius = kernel::radius_for_precision(sigma, 0.5 / 255.0);
  Shader s;
  const auto taps = kernel::linear_sampling_gaussian(sigma, radius);
  for (const auto& t : taps) s.offsets.push_back(t.offset), s.weights.push_back(t.weight);
  s.max_error = kernel_error(kernel::gaussian_weights(sigma, radius), sigma);
  s.fetches_per_pixel = 2 * static_cast<int>(taps.size());
  const std::string n = std::to_string(taps.size());
  char head[512];
  std::snprintf(head, sizeof head,
                "// fastblur %s codegen: separable Gaussian, sigma %s, radius %d, %zu linear fetches per pass\n"
                "// (two passes: direction = one texel along x, then along y). Max error of the kernel against the\n"
                "// Gaussian: %.3g of its peak. Requires a linear-filtering sampler.\n",
                FASTBLUR_VERSION_STRING, f(sigma).c_str(), radius, taps.size(), s.max_error);
  s.code = head;
  s.code += "#define FASTBLUR_TAPS " + n + "\n";
  s.code += array(lang, "FASTBLUR_OFFSETS", s.offsets);
  s.code += array(lang, "FASTBLUR_WEIGHTS", s.weights);
  if (lang == Language::glsl) {
    s.code +=
        "vec4 fastblur_gaussian_pass(sampler2D tex, vec2 uv, vec2 direction) {\n"
        "  vec4 sum = vec4(0.0);\n"
        "  for (int i = 0; i < FASTBLUR_TAPS; ++i)\n"
        "    sum += FASTBLUR_WEIGHTS[i] * textureLod(tex, uv + direction * FASTBLUR_OFFSETS[i], 0.0);\n"
        "  return sum;\n"
        "}\n";
  } else {
    s.code +=
        "float4 fastblur_gaussian_pass(Texture2D tex, SamplerState linear_clamp, float2 uv, float2 direction) {\n"
        "  float4 sum = float4(0.0, 0.0, 0.0, 0.0);\n"
        "  [unroll] for (int i = 0; i < FASTBLUR_TAPS; ++i)\n"
        "    sum += FASTBLUR_WEIGHTS[i] * tex.SampleLevel(linear_clamp, uv + direction * FASTBLUR_OFFSETS[i], 0.0);\n"
        "  return sum;\n"
        "}\n";
  }
  return s;
}

Shader kawase(Language lang, double sigma, int passes) {
  Shader s;
  s.offsets = kernel::kawase_schedule(sigma, passes > 0 ? passes : 0);
  s.max_error = kernel::kawase_schedule_error(s.offsets, sigma);
  s.fetches_per_pixel = 4 * static_cast<int>(s.offsets.size());
  char head[512];
  std::snprintf(head, sizeof head,
                "// fastblur %s codegen: Kawase blur for sigma %s, %zu passes of four diagonal bilinear fetches\n"
                "// (pass i reads the previous pass's output with offset FASTBLUR_KAWASE_OFFSETS[i] texels; texel =\n"
                "// 1 / texture size). The variances sum to sigma^2 exactly; max error of the kernel against the\n"
                "// Gaussian: %.3g of its peak. Requires a linear-filtering sampler.\n",
                FASTBLUR_VERSION_STRING, f(sigma).c_str(), s.offsets.size(), s.max_error);
  s.code = head;
  s.code += "#define FASTBLUR_KAWASE_PASSES " + std::to_string(s.offsets.size()) + "\n";
  s.code += array(lang, "FASTBLUR_KAWASE_OFFSETS", s.offsets);
  if (lang == Language::glsl) {
    s.code +=
        "vec4 fastblur_kawase_pass(sampler2D tex, vec2 uv, vec2 texel, float offset) {\n"
        "  vec2 d = texel * offset;\n"
        "  return 0.25 * (textureLod(tex, uv + vec2(-d.x, -d.y), 0.0) + textureLod(tex, uv + vec2(d.x, -d.y), 0.0) +\n"
        "                 textureLod(tex, uv + vec2(-d.x, d.y), 0.0) + textureLod(tex, uv + vec2(d.x, d.y), 0.0));\n"
        "}\n";
  } else {
    s.code +=
        "float4 fastblur_kawase_pass(Texture2D tex, SamplerState linear_clamp, float2 uv, float2 texel, float offset) {\n"
        "  float2 d = texel * offset;\n"
        "  return 0.25 * (tex.SampleLevel(linear_clamp, uv + float2(-d.x, -d.y), 0.0) +\n"
        "                 tex.SampleLevel(linear_clamp, uv + float2(d.x, -d.y), 0.0) +\n"
        "                 tex.SampleLevel(linear_clamp, uv + float2(-d.x, d.y), 0.0) +\n"
        "                 tex.SampleLevel(linear_clamp, uv + float2(d.x, d.y), 0.0));\n"
        "}\n";
  }
  return s;
}

}  // namespace

Shader generate(Method method, Language language, double sigma, int radius, int passes) {
  if (!(sigma > 0.0) || !std::isfinite(sigma) || sigma > 1000.0)
    throw InvalidArgument("codegen: sigma must be in (0, 1000], got " + std::to_string(sigma));
  if (radius > 4096) throw InvalidArgument("codegen: radius must be at most 4096 for a shader");
  return method == Method::linear ? linear(language, sigma, radius) : kawase(language, sigma, passes);
}

Method parse_method(const std::string& name) {
  if (name == "linear") return Method::linear;
  if (name == "kawase") return Method::kawase;
  throw InvalidArgument("unknown codegen method '" + name + "': expected linear or kawase");
}

Language parse_language(const std::string& name) {
  if (name == "glsl") return Language::glsl;
  if (name == "hlsl") return Language::hlsl;
  throw InvalidArgument("unknown shader language '" + name + "': expected glsl or hlsl");
}

}  // namespace fastblur::codegen
