// fastblur demo: the main job. Generates the bundled test scene, blurs it, checks the result
// against the double-precision reference, and writes both as PNG in the working directory.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "fastblur/fastblur.hpp"
#include "io/image_file.hpp"

namespace fastblur::cli {
namespace {

struct DemoOptions {
  double sigma = 8.0;
  int width = 1920, height = 1080, threads = 0, repeats = 5;
  std::string algorithm = "auto", output = "fastblur_scene_blurred.png", input_copy = "fastblur_scene.png";
};

io::Image as_image(const std::vector<float>& rgba, std::int64_t w, std::int64_t h) {
  io::Image im;
  im.width = w;
  im.height = h;
  im.channels = 4;
  im.type = ElementType::f32;
  im.pixels.resize(rgba.size() * sizeof(float));
  std::memcpy(im.pixels.data(), rgba.data(), im.pixels.size());
  return im;
}

int run_demo(const DemoOptions& o) {
  if (!(o.sigma > 0.0)) throw InvalidArgument("--sigma must be > 0");
  if (o.repeats < 1) throw InvalidArgument("--repeats must be >= 1");
  analysis::TestScene scene = analysis::make_test_scene(o.width, o.height);
  BlurSpec spec = BlurSpec::isotropic_2d(o.sigma);
  spec.algorithm = parse_algorithm(o.algorithm);
  check_threads(o.threads, OptionNames::command_line());  // the core's rule (validate.hpp)
  spec.threads = o.threads;
  std::vector<float> out(scene.rgba.size());
  const View out_view = View::packed(out.data(), ElementType::f32, o.width, o.height, 1, 4);

  std::vector<double> ms;
  for (int i = 0; i < o.repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    blur(scene.view(), out_view, spec);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];

  std::vector<double> exact(scene.rgba.size());
  const View exact_view = View::packed(exact.data(), ElementType::f64, o.width, o.height, 1, 4);
  const auto r0 = std::chrono::steady_clock::now();
  reference::separable_blur(scene.view(), exact_view, spec);
  const double ref_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count();
  const analysis::ImageError err = analysis::compare(out_view, exact_view, 1.0);

  const double mpix = static_cast<double>(o.width) * o.height / 1e6;
  const double gbs = 2.0 * static_cast<double>(scene.rgba.size() * sizeof(float)) / (median * 1e6);
  std::printf("fastblur %s demo: bundled test scene %dx%d RGBA float32, sigma %g (radius %d), border reflect, "
              "algorithm %s, %d threads\n",
              FASTBLUR_VERSION_STRING, o.width, o.height, o.sigma, effective_radius(spec, 0),
              std::string(to_string(spec.algorithm == Algorithm::automatic ? Algorithm::fir : spec.algorithm)).c_str(),
              o.threads > 0 ? o.threads : omp_get_max_threads());
  std::printf("  blur time: %.2f ms (median of %d), %.1f MPix/s, %.2f GB/s\n", median, o.repeats, mpix / (median / 1e3),
              gbs);
  std::printf("  error against the float64 reference (%.0f ms): max %.3g, mean %.3g, PSNR %.1f dB (peak 1)\n", ref_ms,
              err.max_abs, err.mean_abs, err.psnr_db);
  // PNG holds 8 bits: values are clamped to [0, 1] (the HDR spot saturates).
  io::write_image(o.input_copy, as_image(scene.rgba, o.width, o.height), ElementType::u8);
  io::write_image(o.output, as_image(out, o.width, o.height), ElementType::u8);
  std::printf("  wrote %s (input) and %s (blurred)\n", o.input_copy.c_str(), o.output.c_str());
  return 0;
}

}  // namespace

Command add_demo_command(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  CLI::App* sub = app.add_subcommand(
      "demo", "The main job: blur the bundled test scene (shapes, fine detail, the 12x12 white block of Intel's fast-blur article (seed 002), an HDR "
              "spot), report time and error against the float64 reference, write both images as PNG");
  sub->add_option("-s,--sigma", o->sigma, "Gaussian sigma in pixels")->capture_default_str();
  sub->add_option("--width", o->width, "Scene width")->capture_default_str();
  sub->add_option("--height", o->height, "Scene height")->capture_default_str();
  sub->add_option("-a,--algorithm", o->algorithm, "Algorithm (see 'fastblur blur --help')")->capture_default_str();
  sub->add_option("-j,--threads", o->threads, "Threads; 0 uses every core")->capture_default_str();
  sub->add_option("--repeats", o->repeats, "Timed runs; the median is reported")->capture_default_str();
  sub->add_option("-o,--output", o->output, "Blurred image path")->capture_default_str();
  sub->add_option("--input-copy", o->input_copy, "Where the unblurred scene is written")->capture_default_str();
  return {sub, [o] { return run_demo(*o); }};
}

}  // namespace fastblur::cli
