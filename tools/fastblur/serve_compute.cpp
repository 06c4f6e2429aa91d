#include "serve_compute.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "fastblur/fastblur.hpp"
#include "plots.hpp"

namespace fastblur::cli {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string read_and_remove(const std::filesystem::path& path) {
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return bytes;
}

// Packed float pixels in [0, 1] as 8 bits, rounded half up (as lround rounds these non-negative
// values); a loop the compiler vectorises (lround's call per sample was 6% of a preview's time).
std::vector<std::uint8_t> to_8bit(const std::vector<float>& pixels) {
  std::vector<std::uint8_t> out(pixels.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float v = std::isfinite(pixels[i]) ? std::clamp(pixels[i], 0.0f, 1.0f) : 0.0f;
    out[i] = static_cast<std::uint8_t>(static_cast<int>(v * 255.0f + 0.5f));
  }
  return out;
}

// PNG bytes of packed 8-bit pixels (1 to 4 channels), through the CLI's writer.
std::string png_bytes(PrivateTempDir& temp, const std::vector<std::uint8_t>& pixels, std::int64_t w, std::int64_t h,
                      int channels) {
  io::Image im;
  im.width = w, im.height = h, im.channels = channels, im.type = ElementType::u8;
  im.pixels.resize(pixels.size());
  std::memcpy(im.pixels.data(), pixels.data(), pixels.size());
  const auto path = temp.fresh("preview", ".png");
  try {
    io::write_image(path, im);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    throw;
  }
  return read_and_remove(path);
}

// The difference view's colour scale (black, purple, orange, yellow: dark where the result is exact).
const float kColormap[][3] = {{0, 0, 0}, {0.34f, 0.06f, 0.43f}, {0.73f, 0.21f, 0.33f}, {0.98f, 0.55f, 0.04f},
                              {0.99f, 1.0f, 0.64f}};
constexpr int kColormapStops = 5;

void colour(float t, float* rgb) {
  t = std::clamp(t, 0.0f, 1.0f) * (kColormapStops - 1);
  const int i = std::min(kColormapStops - 2, static_cast<int>(t));
  const float f = t - static_cast<float>(i);
  for (int k = 0; k < 3; ++k) rgb[k] = kColormap[i][k] * (1 - f) + kColormap[i + 1][k] * f;
}

// Median milliseconds of `run`: repeated while cheap, so a fast blur is not one noisy sample.
double time_median(const std::function<void()>& run, int* runs) {
  std::vector<double> ms;
  const auto start = Clock::now();
  do {
    const auto t0 = Clock::now();
    run();
    ms.push_back(ms_since(t0));
  } while (ms.size() < 7 && ms_since(start) < 150.0);
  std::sort(ms.begin(), ms.end());
  *runs = static_cast<int>(ms.size());
  return ms[ms.size() / 2];
}

// The Gaussian's mass beyond `radius` (docs/DESIGN.md's truncation): 1 - the sum of the normalised
// sampled Gaussian over -radius..radius.
double truncated_mass(double sigma, int radius) {
  const std::vector<double> g = analysis::reference_gaussian(sigma, radius);
  double kept = 0.0;
  for (double v : g) kept += v;
  return std::max(0.0, 1.0 - kept);
}

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

}  // namespace

Preview blur_preview(const BlurRequest& request, StoredImage& image, const Device& device,
                     const std::function<bool()>& superseded) {
  const auto check = [&] {
    if (superseded()) throw Superseded{};
  };
  const double scale = image.scale;
  // The user's blur: their sigma on the whole image, as a download runs it. Every panel speaks of
  // it (its plan, its metrics; the page's plots and shader ask for its algorithm); the preview runs
  // the same algorithm at the preview's scale, and says so.
  const BlurSpec user = request_spec(request, 1.0);
  if (!(user.sigma[0] > 0) && !(user.sigma[1] > 0)) throw InvalidArgument("'sigma' is 0 along both axes: nothing to blur");
  const io::Image& o = image.original;
  const Plan plan = make_plan(user, View::packed(nullptr, o.type, o.width, o.height, 1, image.channels), device);
  BlurSpec spec = request_spec(request, scale);
  const Algorithm asked = spec.algorithm;
  spec.algorithm = plan.algorithm;  // auto resolved once: the preview shows the user's algorithm
  const View src = image.preview_view();
  std::string preview_note;
  Plan preview_plan;
  try {
    preview_plan = make_plan(spec, src, device);
  } catch (const Unsupported& e) {
    // The scaled sigma is outside what that algorithm takes (downsample below its own resampling's
    // width): the preview is what the request plans at that scale, and the page says so.
    spec.algorithm = asked;
    preview_plan = make_plan(spec, src, device);
    preview_note = std::string(to_string(plan.algorithm)) + " cannot run the preview's sigma (" + e.what() +
                   "): previewed with " + std::string(to_string(preview_plan.algorithm));
  }
  check();

  std::vector<float> result(image.preview.size());
  const View dst = View::packed(result.data(), ElementType::f32, image.width, image.height, 1, image.channels);
  if (!device.is_cpu()) blur(src, dst, preview_plan, device);  // the first GPU run compiles and allocates: not timed
  int runs = 0;
  const double ms = time_median([&] { blur(src, dst, preview_plan, device); }, &runs);
  check();

  // The exact blur (fir, CPU) of the same sigma and border, timed in this request as the result is
  // (the median of warm runs), so the two compare.
  const BlurSpec fir = exact_spec(spec);
  std::vector<float> exact(image.preview.size());
  const View exact_view = View::packed(exact.data(), ElementType::f32, image.width, image.height, 1, image.channels);
  int exact_runs = 0;
  const double exact_ms = time_median([&] { blur(src, exact_view, fir); }, &exact_runs);
  check();

  const analysis::ImageError err = analysis::compare(dst, exact_view, 1.0);

  // docs/DESIGN.md's metrics of the user's kernel at the user's sigma (x, or y where x is 0).
  const double sigma = user.sigma[0] > 0 ? user.sigma[0] : user.sigma[1];
  json metrics = {{"sigma", sigma}, {"psnr_db", finite_or_null(err.psnr_db)}, {"image_max_abs", err.max_abs},
                  {"image_mean_abs", err.mean_abs}};
  try {
    const bool with_anisotropy = sigma <= 32.0;  // a (16 sigma)^2 image: kept interactive
    const analysis::ImpulseMetrics m = analysis::measure_impulse(plan.spec, sigma, with_anisotropy);
    metrics["effective_sigma"] = m.effective_sigma;
    metrics["max_error"] = m.max_error;
    metrics["l1_error"] = m.l1_error;
    metrics["max_error_2d"] = with_anisotropy ? json(m.max_error_2d) : json();
    metrics["anisotropy"] = with_anisotropy ? json(m.anisotropy) : json();
  } catch (const Unsupported& e) {
    metrics["error"] = e.what();  // GPU-only techniques have no CPU impulse response
  }
  const int radius = plan.axes[0].active ? plan.axes[0].radius : plan.axes[1].radius;
  metrics["truncation_mass"] = radius > 0 ? json(truncated_mass(sigma, radius)) : json();
  metrics["exact_truncation_mass"] = truncated_mass(sigma, effective_radius(exact_spec(user), user.sigma[0] > 0 ? 0 : 1));
  check();

  // |result - exact| over the colour channels, coloured on a scale from 0.
  const int c = image.channels;
  const int colours = c == 4 || c == 2 ? c - 1 : c;
  const std::size_t pixels = static_cast<std::size_t>(image.width * image.height);
  std::vector<float> diff(pixels);
  float top = 0.0f;
  for (std::size_t p = 0; p < pixels; ++p) {
    float d = 0.0f;
    for (int k = 0; k < colours; ++k) d = std::max(d, std::abs(result[p * c + k] - exact[p * c + k]));
    diff[p] = std::isfinite(d) ? d : 0.0f;
    top = std::max(top, diff[p]);
  }
  // The scale ends at the 99.9th percentile, not the largest difference: one HDR highlight would
  // otherwise leave the rest black. Brighter differences show as the top colour.
  std::vector<float> sorted = diff;
  const std::size_t at = sorted.size() - 1 - sorted.size() / 1000;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(at), sorted.end());
  const float scale_top = sorted[at] > 0 ? sorted[at] : top;
  std::vector<float> diff_rgb(pixels * 3);
  for (std::size_t p = 0; p < pixels; ++p) colour(scale_top > 0 ? diff[p] / scale_top : 0.0f, &diff_rgb[p * 3]);
  json colormap = json::array();
  for (const auto& stop : kColormap) colormap.push_back({stop[0], stop[1], stop[2]});

  json out;
  out["image"] = {{"name", image.name},     {"width", image.original.width}, {"height", image.original.height},
                  {"channels", image.original.channels}, {"type", std::string(to_string(image.original.type))},
                  {"preview_width", image.width}, {"preview_height", image.height}, {"scale", image.scale}};
  out["sigma"] = {user.sigma[0], user.sigma[1]};
  out["sigma_run"] = {spec.sigma[0], spec.sigma[1]};
  out["preview_algorithm"] = std::string(to_string(preview_plan.algorithm));
  out["preview_note"] = preview_note;
  out["device"] = device.description();
  out["time_ms"] = ms;
  out["time_runs"] = runs;
  out["exact_ms"] = exact_ms;
  out["exact_runs"] = exact_runs;
  out["plan"] = json::parse(fastblur::plan_json(plan));  // the core's serialiser (serialize.hpp)
  out["metrics"] = metrics;
  out["diff"] = {{"max", top}, {"scale_max", scale_top}, {"colormap", colormap}};
  check();
  auto pictures = std::make_shared<PreviewPictures>();
  pictures->width = image.width, pictures->height = image.height, pictures->channels = c;
  pictures->result = to_8bit(result), pictures->exact = to_8bit(exact), pictures->diff = to_8bit(diff_rgb);
  return {std::move(out), std::move(pictures)};
}

std::string preview_picture_png(const PreviewPictures& pictures, const std::string& which, PrivateTempDir& temp) {
  const auto png = [&](const std::vector<std::uint8_t>& pixels, int channels) {
    return png_bytes(temp, pixels, pictures.width, pictures.height, channels);
  };
  if (which == "result") return png(pictures.result, pictures.channels);
  if (which == "exact") return png(pictures.exact, pictures.channels);
  if (which == "diff") return png(pictures.diff, 3);
  throw InvalidArgument("a preview's pictures are result, exact and diff");
}

std::string blur_for_download(const BlurRequest& request, const StoredImage& image, const Device& device,
                              PrivateTempDir& temp) {
  const BlurSpec spec = request_spec(request, 1.0);
  io::Image in = image.original;  // channel_view is not const; a copy keeps the stored image untouched
  io::Image out = in;
  // Views hold at most four channels: wider images are blurred in groups, as the CLI does.
  for (int first = 0; first < in.channels; first += 4) {
    const int n = std::min(4, in.channels - first);
    blur(in.channel_view(first, n), out.channel_view(first, n), spec, device);
  }
  const auto path = temp.fresh("download", image.extension);
  const bool float_to_png = image.extension == ".png" && (in.type == ElementType::f32 || in.type == ElementType::f16);
  try {
    io::write_image(path, out, float_to_png ? std::optional<ElementType>(ElementType::u8) : std::nullopt);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    throw;
  }
  return read_and_remove(path);
}

std::string plot_svg(const BlurRequest& request, const std::string& kind) {
  BlurRequest iso = request;
  iso.sigma[1] = iso.sigma[0];
  if (!(iso.sigma[0] > 0)) throw InvalidArgument("'sigma' must be > 0 for the plots");
  const BlurSpec spec = request_spec(iso);
  // As `fastblur analyze` plans: for the 512x512 scene on the CPU.
  const Plan plan = make_plan(spec, View::packed(nullptr, ElementType::f32, 512, 512, 1, 4));
  if (kind == "impulse") return impulse_log_svg(plan.spec, iso.sigma[0]);
  if (kind == "cross_section") return cross_section_svg(plan.spec, iso.sigma[0]);
  if (kind == "contours") return contours_svg(plan.spec, iso.sigma[0]);
  throw InvalidArgument("'kind' must be impulse, cross_section or contours");
}

std::string preview_png(const StoredImage& image, PrivateTempDir& temp) {
  return png_bytes(temp, to_8bit(image.preview), image.width, image.height, image.channels);
}

}  // namespace fastblur::cli
