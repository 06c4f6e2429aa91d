// fastblur analyze: an algorithm's plan, its docs/DESIGN.md metrics, and plots a person can look at.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "algorithm_options.hpp"
#include "commands.hpp"
#include "fastblur/fastblur.hpp"
#include "io/atomic_file.hpp"
#include "plots.hpp"

namespace fastblur::cli {
namespace {

struct AnalyzeOptions {
  AlgorithmOptions algorithm;
  double sigma = 0.0;
  bool json = false;
  std::string plot_dir;
};

void write_text(const std::filesystem::path& path, const std::string& text) {
  io::write_file_atomically(path, std::span(reinterpret_cast<const std::byte*>(text.data()), text.size()));
}

int run_analyze(const AnalyzeOptions& o) {
  if (!(o.sigma > 0.0) || !std::isfinite(o.sigma)) throw InvalidArgument("--sigma must be a finite value > 0");
  if (o.sigma > 200) throw InvalidArgument("--sigma for analyze must be at most 200 (the plots are dense images)");
  BlurSpec spec = BlurSpec::isotropic_2d(o.sigma);
  o.algorithm.apply(spec);
  const analysis::Analysis a = analysis::analyze(spec, o.sigma);  // the core's, as Python's fastblur.analyze
  const Plan& plan = a.plan;
  const BlurSpec& planned = plan.spec;
  const analysis::ImpulseMetrics& m = a.metrics;

  std::vector<std::string> plots;
  if (!o.plot_dir.empty()) {
    const std::filesystem::path dir(o.plot_dir);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::is_directory(dir)) throw IoError("cannot create the plot directory '" + o.plot_dir + "'");
    write_text(dir / "cross_section.svg", cross_section_svg(planned, o.sigma));
    write_text(dir / "impulse_log.svg", impulse_log_svg(planned, o.sigma));
    write_text(dir / "contours.svg", contours_svg(planned, o.sigma));
    for (const char* f : {"cross_section.svg", "impulse_log.svg", "contours.svg"}) plots.push_back((dir / f).string());
  }

  if (o.json) {
    std::string json = analysis::analysis_json(a);
    json.pop_back();  // the object's '}': the plots written here follow
    json += ", \"plots\": [";
    for (std::size_t i = 0; i < plots.size(); ++i) {
      std::string path;
      for (char ch : plots[i]) path += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
      json += (i ? ", \"" : "\"") + path + "\"";
    }
    std::printf("%s]}\n", json.c_str());
    return 0;
  }
  std::printf("%s", describe(plan).c_str());
  std::printf("metrics (docs/DESIGN.md), sigma %g:\n", o.sigma);
  std::printf("  effective sigma  %.6f\n  max error        %.4g (of the Gaussian's peak, 1D)\n  L1 error         %.4g (1D)\n"
              "  max error 2D     %.4g (of the 2D Gaussian's peak)\n"
              "  anisotropy       %.4g (2D contours, worst of levels 1e-1, 1e-2, 1e-3)\n"
              "  PSNR             %.1f dB on the bundled scene against float64 fir (peak 1)\n",
              m.effective_sigma, m.max_error, m.l1_error, m.max_error_2d, m.anisotropy, a.psnr_db);
  for (const auto& p : plots) std::printf("  wrote %s\n", p.c_str());
  return 0;
}

}  // namespace

Command add_analyze_command(CLI::App& app) {
  auto o = std::make_shared<AnalyzeOptions>();
  CLI::App* sub = app.add_subcommand("analyze", "Show an algorithm's plan and accuracy at a sigma: effective sigma, max "
                                                "and L1 error, anisotropy, PSNR on the bundled scene, and SVG plots");
  sub->add_option("-s,--sigma", o->sigma, "Gaussian sigma in pixels")->required();
  o->algorithm.add_to(*sub);
  sub->add_flag("--json", o->json, "Print the metrics as one JSON object");
  sub->add_option("--plot", o->plot_dir, "Write cross_section.svg (seed 002's 12x12 white block), impulse_log.svg and "
                                         "contours.svg (seed 001's log-spaced contours) into this directory");
  return {sub, [o] { return run_analyze(*o); }};
}

}  // namespace fastblur::cli
