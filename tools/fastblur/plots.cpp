#include "plots.hpp"

#include <cmath>
#include <vector>

#include "fastblur/fastblur.hpp"

namespace fastblur::cli {
namespace {

std::string sigma_text(double sigma) { return std::to_string(sigma).substr(0, 6); }

// The Gaussian the plots compare against: fir truncated far out, constant border (nothing enters).
BlurSpec gaussian_of(double sigma) {
  BlurSpec gauss = BlurSpec::isotropic_2d(sigma);
  gauss.algorithm = Algorithm::fir;
  gauss.truncate = 8.0;
  gauss.with_border(Border::constant);
  return gauss;
}

BlurSpec with_constant_border(const BlurSpec& planned) {
  BlurSpec alg = planned;
  alg.with_border(Border::constant);
  return alg;
}

analysis::Series block_cross_section(const BlurSpec& spec, double sigma, const char* name, const char* color,
                                     bool dashed) {
  const int pad = static_cast<int>(std::ceil(6 * sigma)) + 8, n = 12 + 2 * pad;
  std::vector<double> img(static_cast<std::size_t>(n) * n, 0.0);
  for (int y = pad; y < pad + 12; ++y)
    for (int x = pad; x < pad + 12; ++x) img[static_cast<std::size_t>(y) * n + x] = 1.0;
  const View v = View::packed(img.data(), ElementType::f64, n, n);
  blur(v, v, spec);
  analysis::Series s{name, {}, {}, color, dashed};
  const int row = pad + 6;
  for (int x = 0; x < n; ++x) {
    s.x.push_back(x - pad - 5.5);
    s.y.push_back(img[static_cast<std::size_t>(row) * n + x]);
  }
  return s;
}

}  // namespace

std::string cross_section_svg(const BlurSpec& planned, double sigma) {
  const std::string name(to_string(planned.algorithm));
  return analysis::line_chart_svg("12x12 white block, cross-section: " + name + " vs Gaussian, sigma " + sigma_text(sigma),
                                  "x (pixels from the block's centre)", "value",
                                  {block_cross_section(with_constant_border(planned), sigma, name.c_str(), "#d62728", false),
                                   block_cross_section(gaussian_of(sigma), sigma, "Gaussian", "#1f77b4", true)},
                                  false);
}

std::string impulse_log_svg(const BlurSpec& planned, double sigma) {
  const std::string name(to_string(planned.algorithm));
  const int half = static_cast<int>(std::ceil(6 * sigma)) + 4;
  const auto line = analysis::impulse_response_1d(with_constant_border(planned), sigma, half);
  const auto g = analysis::reference_gaussian(sigma, half);
  analysis::Series hs{name, {}, {}, "#d62728", false}, gs{"Gaussian", {}, {}, "#1f77b4", true};
  for (int x = -half; x <= half; ++x) {
    hs.x.push_back(x), hs.y.push_back(line[static_cast<std::size_t>(x + half)]);
    gs.x.push_back(x), gs.y.push_back(g[static_cast<std::size_t>(x + half)]);
  }
  return analysis::line_chart_svg("1D impulse response (log scale), sigma " + sigma_text(sigma), "x (pixels)",
                                  "response", {hs, gs}, true);
}

std::string contours_svg(const BlurSpec& planned, double sigma) {
  const std::string name(to_string(planned.algorithm));
  const BlurSpec alg = with_constant_border(planned), gauss = gaussian_of(sigma);
  const int h2 = static_cast<int>(std::ceil(4.5 * sigma)) + 3, n2 = 2 * h2 + 1;
  std::vector<double> img(static_cast<std::size_t>(n2) * n2, 0.0), ref(img.size(), 0.0);
  img[static_cast<std::size_t>(h2) * n2 + h2] = ref[static_cast<std::size_t>(h2) * n2 + h2] = 1.0;
  blur(View::packed(img.data(), ElementType::f64, n2, n2), View::packed(img.data(), ElementType::f64, n2, n2), alg);
  blur(View::packed(ref.data(), ElementType::f64, n2, n2), View::packed(ref.data(), ElementType::f64, n2, n2), gauss);
  const double peak = ref[static_cast<std::size_t>(h2) * n2 + h2];
  std::vector<double> levels;
  for (double l = 0.5; l > 1e-5; l /= 10) levels.push_back(l * peak);
  return analysis::contour_svg("2D impulse response contours (levels 0.5 .. 5e-5 of the peak): " + name + ", sigma " +
                                   sigma_text(sigma),
                               img, n2, n2, levels, &ref);
}

}  // namespace fastblur::cli
