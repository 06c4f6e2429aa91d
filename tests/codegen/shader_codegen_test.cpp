// Emitted shaders: the numbers in the text reproduce the CPU algorithms, and the GLSL compiles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "fastblur/codegen.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "support/test_support.hpp"

namespace fastblur::codegen {
namespace {

// The numbers of the array named `name` in the emitted code.
std::vector<double> parse_array(const std::string& code, const std::string& name) {
  const std::regex decl(name + R"(\[\d+\] = (?:float\[\d+\])?[({]([^)}]*)[)}])");
  std::smatch m;
  if (!std::regex_search(code, m, decl)) return {};
  std::vector<double> out;
  std::stringstream ss(m[1].str());
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::stod(item));
  return out;
}

double lerp_at(const std::vector<double>& s, double x) {
  const double i = std::floor(x), t = x - i;
  const auto k = static_cast<std::size_t>(i);
  return t == 0.0 ? s[k] : (1 - t) * s[k] + t * s[k + 1];
}

TEST(Codegen, LinearWeightsInTheTextReproduceFir) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> signal(600);
  for (double& v : signal) v = u(rng);
  for (Language lang : {Language::glsl, Language::hlsl})
    for (double sigma : {0.8, 2.7, 6.0, 19.5}) {
      const Shader s = generate(Method::linear, lang, sigma);
      const auto offsets = parse_array(s.code, "FASTBLUR_OFFSETS"), weights = parse_array(s.code, "FASTBLUR_WEIGHTS");
      ASSERT_EQ(offsets.size(), s.offsets.size());
      ASSERT_EQ(weights.size(), s.weights.size());
      const int r = kernel::radius_for_precision(sigma, 0.5 / 255);
      const auto w = kernel::gaussian_weights(sigma, r);
      for (int x = 200; x < 400; ++x) {
        double direct = 0.0, shader = 0.0;
        for (int k = -r; k <= r; ++k) direct += w[k + r] * signal[x + k];
        for (std::size_t i = 0; i < offsets.size(); ++i) shader += weights[i] * lerp_at(signal, x + offsets[i]);
        ASSERT_NEAR(shader, direct, 1e-7) << sigma;  // nine printed digits
      }
      EXPECT_LE(s.max_error, 0.01);  // the 8-bit precision rule keeps the kernel within 1%
      EXPECT_EQ(s.fetches_per_pixel, 2 * static_cast<int>(offsets.size()));
    }
}

TEST(Codegen, KawaseOffsetsInTheTextReproduceTheCpuAlgorithm) {
  auto rng = test::rng_for_test();
  for (double sigma : {1.5, 5.0, 12.0}) {
    const Shader s = generate(Method::kawase, Language::glsl, sigma);
    const auto offsets = parse_array(s.code, "FASTBLUR_KAWASE_OFFSETS");
    ASSERT_EQ(offsets.size(), kernel::kawase_schedule(sigma).size());
    auto src = test::make_buffer(ElementType::f64, 61, 47, 1, 1);
    test::fill_random(src.view, rng);
    auto a = test::make_buffer(ElementType::f64, 61, 47, 1, 1), b = test::make_buffer(ElementType::f64, 61, 47, 1, 1);
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.algorithm = Algorithm::kawase;
    blur(src.view, a.view, spec);  // the solved schedule
    set_parameter(spec, "kawase_offsets", std::vector<double>(offsets));  // the printed one
    blur(src.view, b.view, spec);
    for (std::int64_t y = 0; y < 47; ++y)
      for (std::int64_t x = 0; x < 61; ++x) ASSERT_NEAR(test::get(a.view, x, y, 0, 0), test::get(b.view, x, y, 0, 0), 1e-7);
    EXPECT_NEAR(s.max_error, kernel::kawase_schedule_error(kernel::kawase_schedule(sigma), sigma), 1e-12);
  }
}

TEST(Codegen, DualKawaseLevelsAndOffsetsInTheTextReproduceTheCpuAlgorithm) {
  auto rng = test::rng_for_test();
  for (double sigma : {1.0, 3.3, 9.0, 21.7}) {
    const Shader s = generate(Method::dual_kawase, Language::glsl, sigma);
    const auto offsets = parse_array(s.code, "FASTBLUR_DUAL_KAWASE_OFFSET");
    ASSERT_EQ(offsets.size(), 2u);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(s.code, m, std::regex(R"(#define FASTBLUR_DUAL_KAWASE_LEVELS (\d+))")));
    const int levels = std::stoi(m[1].str());
    const kernel::DualKawaseSchedule solved = kernel::dual_kawase_schedule(sigma, sigma);
    EXPECT_EQ(levels, solved.levels);
    EXPECT_EQ(offsets[0], offsets[1]);
    // The printed offset, run by the CPU algorithm, gives the solved blur (to the nine printed digits).
    const std::int64_t w = 83, h = 61;
    auto src = test::make_buffer(ElementType::f64, w, h, 1, 2);
    test::fill_random(src.view, rng);
    auto a = test::make_buffer(ElementType::f64, w, h, 1, 2), b = test::make_buffer(ElementType::f64, w, h, 1, 2);
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.algorithm = Algorithm::dual_kawase;
    blur(src.view, a.view, spec);
    set_parameter(spec, "dual_kawase_levels", static_cast<std::int64_t>(levels));
    set_parameter(spec, "dual_kawase_offset", static_cast<double>(offsets[0]));
    blur(src.view, b.view, spec);
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x)
        for (int c = 0; c < 2; ++c) ASSERT_NEAR(test::get(a.view, x, y, 0, c), test::get(b.view, x, y, 0, c), 1e-7) << sigma;
    // The achieved variance is sigma^2 and the stated error is the chain's.
    EXPECT_NEAR(kernel::dual_kawase_variance(levels, offsets[0]), sigma * sigma, 1e-6 * sigma * sigma);
    EXPECT_NEAR(s.max_error, kernel::dual_kawase_error(levels, offsets[0]), 1e-6);
    EXPECT_NE(s.code.find("fastblur_dual_kawase_down"), std::string::npos);
    EXPECT_NE(s.code.find("fastblur_dual_kawase_up"), std::string::npos);
    // 5 fetches per texel of each down level, 8 per texel of each up level: between 8 and 5/3 + 32/3.
    EXPECT_GT(s.fetches_per_pixel, 8.0);
    EXPECT_LT(s.fetches_per_pixel, 5.0 / 3 + 32.0 / 3);
  }
  const Shader two = generate(Method::dual_kawase, Language::hlsl, 12.0, -1, 2);
  EXPECT_EQ(two.levels, 2);
  EXPECT_NE(two.code.find("SampleLevel"), std::string::npos);
  EXPECT_THROW(generate(Method::dual_kawase, Language::glsl, 0.7), InvalidArgument);  // below the chain's minimum
}

#ifdef FASTBLUR_GLSLC
TEST(Codegen, EmittedGlslCompiles) {
  const auto dir = std::filesystem::temp_directory_path() / ("fastblur-codegen-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (Method m : {Method::linear, Method::kawase, Method::dual_kawase})
    for (double sigma : {1.0, 3.0, 40.0}) {
      const Shader s = generate(m, Language::glsl, sigma);
      const std::string call =
          m == Method::linear   ? "fastblur_gaussian_pass(tex, uv, vec2(1.0 / 512.0, 0.0))"
          : m == Method::kawase ? "fastblur_kawase_pass(tex, uv, vec2(1.0 / 512.0), FASTBLUR_KAWASE_OFFSETS[0])"
                                : "fastblur_dual_kawase_down(tex, uv, vec2(1.0 / 512.0)) + "
                                  "fastblur_dual_kawase_up(tex, uv, vec2(1.0 / 256.0))";
      std::ofstream(dir / "blur.frag") << "#version 450\nlayout(binding = 0) uniform sampler2D tex;\n"
                                          "layout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 color;\n"
                                       << s.code << "void main() { color = " << call << "; }\n";
      const std::string cmd = std::string(FASTBLUR_GLSLC) + " -o " + (dir / "blur.spv").string() + " " +
                              (dir / "blur.frag").string() + " 2>&1";
      EXPECT_EQ(std::system(cmd.c_str()), 0) << s.code;
    }
  std::filesystem::remove_all(dir);
}
#endif

TEST(Codegen, RejectsBadRequests) {
  EXPECT_THROW(generate(Method::linear, Language::glsl, -1.0), InvalidArgument);
  EXPECT_THROW(parse_method("box"), InvalidArgument);
  EXPECT_EQ(parse_method("dual-kawase"), Method::dual_kawase);
  EXPECT_THROW(parse_language("wgsl"), InvalidArgument);
}

}  // namespace
}  // namespace fastblur::codegen
