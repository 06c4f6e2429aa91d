// analyze: an algorithm's plan and its docs/DESIGN.md metrics at one sigma, for every front end
// (the CLI's `analyze`, Python's `fastblur.analyze`).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"

namespace fastblur::analysis {
namespace {

// The PSNR of the planned spec's float32 result on the scene against float64 fir of the same sigma
// (the engine's double driver: the scalar reference took 8 s at sigma 100).
double scene_psnr(TestScene& scene, const BlurSpec& planned, double sigma) {
  std::vector<float> out(scene.rgba.size());
  const View out_view = View::packed(out.data(), ElementType::f32, scene.width, scene.height, 1, 4);
  blur(scene.view(), out_view, planned);
  std::vector<double> exact(scene.rgba.size());
  const View exact_view = View::packed(exact.data(), ElementType::f64, scene.width, scene.height, 1, 4);
  BlurSpec fir = BlurSpec::isotropic_2d(sigma);
  fir.algorithm = Algorithm::fir;
  blur(scene.view(), exact_view, fir);
  return compare(out_view, exact_view, 1.0).psnr_db;
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

Analysis analyze(const BlurSpec& spec, double sigma, bool with_anisotropy, bool with_psnr) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw InvalidArgument("analyze: sigma must be a finite value > 0");
  BlurSpec asked = spec;
  asked.sigma = {sigma, sigma, 0.0};
  TestScene scene = make_test_scene(512, 512);
  Analysis a;
  a.plan = make_plan(asked, scene.view());
  a.metrics = measure_impulse(a.plan.spec, sigma, with_anisotropy);
  if (!with_anisotropy) a.metrics.anisotropy = a.metrics.max_error_2d = NAN;
  a.psnr_db = with_psnr ? scene_psnr(scene, a.plan.spec, sigma) : NAN;
  return a;
}

std::string analysis_json(const Analysis& a) {
  const ImpulseMetrics& m = a.metrics;
  return "{\"algorithm\": \"" + std::string(to_string(a.plan.algorithm)) + "\", \"sigma\": " + number(m.sigma) +
         ", \"effective_sigma\": " + number(m.effective_sigma) + ", \"max_error\": " + number(m.max_error) +
         ", \"l1_error\": " + number(m.l1_error) + ", \"max_error_2d\": " + number(m.max_error_2d) +
         ", \"anisotropy\": " + number(m.anisotropy) + ", \"psnr_db\": " + number(a.psnr_db) +
         ", \"predicted_max_error\": " + number(a.plan.predicted_max_error) +
         ", \"predicted_cost\": " + number(a.plan.predicted_cost) + "}";
}

}  // namespace fastblur::analysis
