#pragma once
/// @file
/// The bundled test scene and image error metrics (docs/DESIGN.md, quality metrics).
#include <cstdint>
#include <string>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/view.hpp"

namespace fastblur::analysis {

/// A generated RGBA float image: shapes with hard edges, fine detail (a zone plate and one-pixel
/// lines), a 12x12 white block on black (seed 002's cross-section test) and one HDR-bright spot
/// (value 64) that makes halo errors visible.
struct TestScene {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::vector<float> rgba;  ///< width * height * 4, packed
  View view();
};
/// Builds the scene at any size >= 16x16. Deterministic: the same size gives the same pixels.
TestScene make_test_scene(std::int64_t width = 512, std::int64_t height = 512);

/// Differences between a result and a reference of the same shape (any element types; compared as
/// double).
struct ImageError {
  double max_abs = 0.0;   ///< largest |a - b|
  double mean_abs = 0.0;  ///< mean |a - b|
  double psnr_db = 0.0;   ///< 10 log10(peak^2 / MSE); +infinity when identical
};
/// `peak` is the signal range used for PSNR (1 for float images in [0,1], 255 for u8...).
ImageError compare(const View& result, const View& reference, double peak);

/// The quality metrics of docs/DESIGN.md for one algorithm at one sigma, from its impulse response.
struct ImpulseMetrics {
  double sigma = 0.0;            ///< the requested sigma
  double effective_sigma = 0.0;  ///< sqrt of the second moment of the 1D impulse response
  double max_error = 0.0;        ///< max |h - g| / max g, g the sampled Gaussian normalised over +-8 sigma
  double l1_error = 0.0;         ///< sum |h - g| (1D)
  double anisotropy = 0.0;       ///< 2D: diagonal over axial contour radius minus one, worst of 1e-1, 1e-2, 1e-3
  double max_error_2d = 0.0;     ///< 2D: max |H - G| / max G over the 2D response, G = g(x) g(y)
};

/// The sampled Gaussian of `sigma` at offsets -half..half, normalised over +-8 sigma (the
/// reference shape every approximation is measured against).
std::vector<double> reference_gaussian(double sigma, int half);

/// The 1D impulse response of `spec`'s algorithm at `sigma`, at offsets -half..half of a line far from
/// any border (constant 0 beyond): the response to a unit impulse for separable algorithms; for planar
/// ones the marginal (the column sums of the 2D response to a 2D impulse, which for a separable filter
/// is its 1D response). The one definition behind measure_impulse and analyze's plots.
std::vector<double> impulse_response_1d(const BlurSpec& spec, double sigma, int half);

/// 1D metrics of `spec` (its algorithm and options; sigma from `sigma`) from the blur of a unit
/// impulse on a line long enough that no border is reached, and the 2D anisotropy and 2D max error
/// from the blur of a 2D impulse (skipped when `with_anisotropy` is false: it costs a (16 sigma)^2
/// image). For planar (non-separable) algorithms the 1D response is the marginal of the 2D one (the
/// response to a line impulse), which for a separable filter is its 1D response.
ImpulseMetrics measure_impulse(const BlurSpec& spec, double sigma, bool with_anisotropy = true);

/// What `fastblur analyze`, `fastblur.analyze()` report of an algorithm at a sigma, computed once here.
struct Analysis {
  Plan plan;               ///< spec planned for the bundled 512x512 RGBA float32 scene on the CPU (auto resolved)
  ImpulseMetrics metrics;  ///< of the planned spec; anisotropy and max_error_2d NaN where not measured
  double psnr_db = 0.0;    ///< its float32 result on the scene against float64 fir, peak 1; NaN where not measured
};
/// Plans `spec` at `sigma` on both axes for the bundled scene and measures the planned spec: the
/// impulse metrics (the 2D ones with `with_anisotropy`) and, with `with_psnr`, the PSNR on the scene.
Analysis analyze(const BlurSpec& spec, double sigma, bool with_anisotropy = true, bool with_psnr = true);
/// An Analysis as one JSON object: algorithm (as planned), sigma, effective_sigma, max_error,
/// l1_error, max_error_2d, anisotropy, psnr_db (null where not measured, or infinite), predicted_max_error,
/// predicted_cost. The CLI's `analyze --json` and Python's dict.
std::string analysis_json(const Analysis& analysis);

/// The radius at which the image first falls below `level` along the ray from pixel (cx, cy) in
/// the grid direction (dx, dy), each -1, 0 or 1 (an axis or a diagonal). Between grid samples the
/// crossing is found on a quadratic through the logarithms of three samples, which is exact for a
/// Gaussian; samples <= 0 fall back to linear interpolation.
double contour_radius(const std::vector<double>& image, int width, int height, int cx, int cy, int dx, int dy,
                      double level);

/// One curve of a line chart.
struct Series {
  std::string name;
  std::vector<double> x, y;
  std::string color = "#1f77b4";
  bool dashed = false;
};
/// A line chart as a standalone SVG document. With log_y, values <= 0 are drawn at the bottom.
std::string line_chart_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<Series>& series, bool log_y);
/// Contour lines (marching squares) of a w x h image at the given levels, as SVG. The optional
/// reference image is drawn dashed at the same levels, for comparison.
std::string contour_svg(const std::string& title, const std::vector<double>& image, int w, int h,
                        const std::vector<double>& levels, const std::vector<double>* reference = nullptr);

}  // namespace fastblur::analysis
