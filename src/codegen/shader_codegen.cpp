// Shader generation from the kernel layer: the numbers come from fastblur::kernel, never a copy.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fastblur/codegen.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
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
  const auto g = kernel::reference_gaussian(sigma, half + 1);
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

// The taps are those of kernel_dual_kawase.hpp, written in normalised coordinates: `uv` is the
// target texel's centre and `src_texel` one texel of the level read, so h = offset/2 source texels.
Shader dual_kawase(Language lang, double sigma, int levels) {
  Shader s;
  const kernel::DualKawaseSchedule d = kernel::dual_kawase_schedule(sigma, sigma, levels);
  s.levels = d.levels;
  s.offsets = {d.offset[0], d.offset[1]};
  s.max_error = kernel::dual_kawase_error(d.levels, d.offset[0]);
  // Down into level l reads 5 fetches per texel of level l, up into level l 8 per texel of level l.
  for (int l = 1; l <= d.levels; ++l) s.fetches_per_pixel += 5.0 / std::pow(4.0, l) + 8.0 / std::pow(4.0, l - 1);
  char head[768];
  std::snprintf(head, sizeof head,
                "// fastblur %s codegen: dual Kawase blur (Bjorge 2015) for sigma %s: %d down passes (each to half\n"
                "// the size of the level it reads) then %d up passes back to full size. Per pass, uv = the centre of\n"
                "// the texel being written, src_texel = 1 / (size of the level read). The offsets are solved so the\n"
                "// variance per axis, averaged over the 2^%d phases of the chain, is sigma^2; max error of the 1D\n"
                "// response against the Gaussian (worst phase): %.3g of its peak. Requires a linear-filtering\n"
                "// sampler with clamp-to-edge addressing.\n",
                FASTBLUR_VERSION_STRING, f(sigma).c_str(), d.levels, d.levels, d.levels, s.max_error);
  s.code = head;
  s.code += "#define FASTBLUR_DUAL_KAWASE_LEVELS " + std::to_string(d.levels) + "\n";
  s.code += array(lang, "FASTBLUR_DUAL_KAWASE_OFFSET", s.offsets);
  if (lang == Language::glsl) {
    s.code +=
        "vec4 fastblur_dual_kawase_down(sampler2D src, vec2 uv, vec2 src_texel) {\n"
        "  vec2 h = 0.5 * src_texel * vec2(FASTBLUR_DUAL_KAWASE_OFFSET[0], FASTBLUR_DUAL_KAWASE_OFFSET[1]);\n"
        "  return 0.5 * textureLod(src, uv, 0.0) +\n"
        "         0.125 * (textureLod(src, uv + vec2(-h.x, -h.y), 0.0) + textureLod(src, uv + vec2(h.x, -h.y), 0.0) +\n"
        "                  textureLod(src, uv + vec2(-h.x, h.y), 0.0) + textureLod(src, uv + vec2(h.x, h.y), 0.0));\n"
        "}\n"
        "vec4 fastblur_dual_kawase_up(sampler2D src, vec2 uv, vec2 src_texel) {\n"
        "  vec2 h = 0.5 * src_texel * vec2(FASTBLUR_DUAL_KAWASE_OFFSET[0], FASTBLUR_DUAL_KAWASE_OFFSET[1]);\n"
        "  return (1.0 / 12.0) * (textureLod(src, uv + vec2(-2.0 * h.x, 0.0), 0.0) + textureLod(src, uv + vec2(2.0 * h.x, 0.0), 0.0) +\n"
        "                         textureLod(src, uv + vec2(0.0, -2.0 * h.y), 0.0) + textureLod(src, uv + vec2(0.0, 2.0 * h.y), 0.0)) +\n"
        "         (1.0 / 6.0) * (textureLod(src, uv + vec2(-h.x, -h.y), 0.0) + textureLod(src, uv + vec2(h.x, -h.y), 0.0) +\n"
        "                        textureLod(src, uv + vec2(-h.x, h.y), 0.0) + textureLod(src, uv + vec2(h.x, h.y), 0.0));\n"
        "}\n";
  } else {
    s.code +=
        "float4 fastblur_dual_kawase_down(Texture2D src, SamplerState linear_clamp, float2 uv, float2 src_texel) {\n"
        "  float2 h = 0.5 * src_texel * float2(FASTBLUR_DUAL_KAWASE_OFFSET[0], FASTBLUR_DUAL_KAWASE_OFFSET[1]);\n"
        "  return 0.5 * src.SampleLevel(linear_clamp, uv, 0.0) +\n"
        "         0.125 * (src.SampleLevel(linear_clamp, uv + float2(-h.x, -h.y), 0.0) +\n"
        "                  src.SampleLevel(linear_clamp, uv + float2(h.x, -h.y), 0.0) +\n"
        "                  src.SampleLevel(linear_clamp, uv + float2(-h.x, h.y), 0.0) +\n"
        "                  src.SampleLevel(linear_clamp, uv + float2(h.x, h.y), 0.0));\n"
        "}\n"
        "float4 fastblur_dual_kawase_up(Texture2D src, SamplerState linear_clamp, float2 uv, float2 src_texel) {\n"
        "  float2 h = 0.5 * src_texel * float2(FASTBLUR_DUAL_KAWASE_OFFSET[0], FASTBLUR_DUAL_KAWASE_OFFSET[1]);\n"
        "  return (1.0 / 12.0) * (src.SampleLevel(linear_clamp, uv + float2(-2.0 * h.x, 0.0), 0.0) +\n"
        "                         src.SampleLevel(linear_clamp, uv + float2(2.0 * h.x, 0.0), 0.0) +\n"
        "                         src.SampleLevel(linear_clamp, uv + float2(0.0, -2.0 * h.y), 0.0) +\n"
        "                         src.SampleLevel(linear_clamp, uv + float2(0.0, 2.0 * h.y), 0.0)) +\n"
        "         (1.0 / 6.0) * (src.SampleLevel(linear_clamp, uv + float2(-h.x, -h.y), 0.0) +\n"
        "                        src.SampleLevel(linear_clamp, uv + float2(h.x, -h.y), 0.0) +\n"
        "                        src.SampleLevel(linear_clamp, uv + float2(-h.x, h.y), 0.0) +\n"
        "                        src.SampleLevel(linear_clamp, uv + float2(h.x, h.y), 0.0));\n"
        "}\n";
  }
  return s;
}

}  // namespace

Shader generate(Method method, Language language, double sigma, int radius, int passes) {
  if (!(sigma > 0.0) || !std::isfinite(sigma) || sigma > 1000.0)
    throw InvalidArgument("codegen: sigma must be in (0, 1000], got " + std::to_string(sigma));
  if (radius > 4096) throw InvalidArgument("codegen: radius must be at most 4096 for a shader");
  switch (method) {
    case Method::linear: return linear(language, sigma, radius);
    case Method::kawase: return kawase(language, sigma, passes);
    case Method::dual_kawase: return dual_kawase(language, sigma, std::max(passes, 0));
  }
  throw InvalidArgument("codegen: unknown method");
}

Method parse_method(const std::string& name) {
  if (name == "linear") return Method::linear;
  if (name == "kawase") return Method::kawase;
  if (name == "dual-kawase") return Method::dual_kawase;
  throw InvalidArgument("unknown codegen method '" + name + "': expected linear, kawase or dual-kawase");
}

Language parse_language(const std::string& name) {
  if (name == "glsl") return Language::glsl;
  if (name == "hlsl") return Language::hlsl;
  throw InvalidArgument("unknown shader language '" + name + "': expected glsl or hlsl");
}

}  // namespace fastblur::codegen
