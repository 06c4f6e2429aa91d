// fastblur blur IN OUT --sigma S[,S[,S]] ...: images through OpenImageIO, arrays as .npy.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <atomic>
#include <mutex>
#include <thread>

#include "algorithm_options.hpp"
#include "band_blur.hpp"
#include "commands.hpp"
#include "fastblur/fastblur.hpp"
#include "io/atomic_file.hpp"
#include "io/image_file.hpp"
#include "io/npy.hpp"
#include "parse.hpp"
#include "progress.hpp"

namespace fastblur::cli {
namespace {

namespace fs = std::filesystem;

struct BlurOptions {
  std::vector<std::string> files;  ///< as given: INPUT OUTPUT, or (with --output) the inputs
  std::string batch_output;        ///< --output: a directory or a pattern with {stem}
  std::string input, output, sigma, border = "reflect", dtype, radius, device = "cpu";
  AlgorithmOptions algorithm;
  double cval = 0.0, truncate = 4.0;
  int threads = 0;
  std::int64_t band_rows = 0;  ///< --band-rows (hidden; tests): at most this many rows per band
  bool in_place = false, explain = false;
  io::WriteOptions write;
};

bool is_npy_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[6] = {};
  in.read(magic, 6);
  return in.gcount() == 6 && std::memcmp(magic, "\x93NUMPY", 6) == 0;
}

bool has_npy_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".npy";
}

// The spec for data with `ndim` axes in array order; `channel_axis` marks an image's trailing
// channel axis, which may only get sigma 0.
BlurSpec make_spec(const BlurOptions& o, int ndim, bool channel_axis) {
  BlurSpec spec;
  std::vector<double> sigma = parse_nonnegative_list(o.sigma, "--sigma");
  std::vector<Border> border = parse_border_list(o.border);
  std::vector<double> radius;
  if (!o.radius.empty()) radius = parse_nonnegative_list(o.radius, "--radius");
  for (double r : radius)
    if (r != std::floor(r)) throw InvalidArgument("--radius '" + o.radius + "' must be whole numbers");
  if (channel_axis) {  // images: (rows, columns[, channels]); arrays: (spatial axes..., channels)
    if (sigma.size() == static_cast<std::size_t>(ndim) + 1) {
      if (sigma[2] != 0.0)
        throw InvalidArgument("--sigma '" + o.sigma + "': the channels of an image are never blurred, so the third "
                              "value (the channel axis) must be 0");
      sigma.pop_back();
    }
    if (border.size() == static_cast<std::size_t>(ndim) + 1) border.pop_back();
    if (radius.size() == static_cast<std::size_t>(ndim) + 1) radius.pop_back();
  }
  spec.sigma = to_xyz(sigma, ndim, "--sigma", 0.0);
  spec.border = to_xyz(border, ndim, "--border", Border::reflect);
  if (!radius.empty()) {
    const auto r = to_xyz(radius, ndim, "--radius", 0.0);
    for (int a = 0; a < 3; ++a) spec.radius[a] = static_cast<int>(std::min(r[a], double(kMaxRadius) + 1));
  }
  if (!std::isfinite(o.cval)) throw InvalidArgument("--cval must be finite");
  spec.cval = o.cval;
  if (!std::isfinite(o.truncate) || o.truncate < 0) throw InvalidArgument("--truncate must be a finite value >= 0");
  spec.truncate = o.truncate;
  o.algorithm.apply(spec);
  if (o.threads < 0) throw InvalidArgument("--threads must be >= 0");
  spec.threads = o.threads;
  // Validate radii and sigmas now, before any output exists.
  for (int a = 0; a < 3; ++a) (void)effective_radius(spec, a);
  return spec;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

// The plan the blur will run on `device`; printed with --explain.
void explain(const BlurOptions& o, const BlurSpec& spec, const View& src, const Device& device) {
  if (o.explain) std::printf("%s", describe(make_plan(spec, src, device)).c_str());
}

// --device: Device::parse's names, with the option named in the message.
Device parse_device(const std::string& text) {
  try {
    return Device::parse(text);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string("--device: ") + e.what() + " (see `fastblur devices`)");
  }
}

void require_image_output(const std::string& output) {
  if (!io::is_writable_image_path(output))
    throw IoError("cannot write '" + output + "': unknown image format for its extension (use .png, .jpg, .tif, "
                  ".exr, .hdr, ... or .npy for arrays)");
}

// Conversions: an image's pixels as a .npy array of shape (H, W[, C]), and back.
void write_as_npy(const std::string& path, const io::Image& im) {
  io::NpyArray a;
  a.type = im.type;
  a.shape = {im.height, im.width};
  if (im.channels > 1) a.shape.push_back(im.channels);
  a.data = im.pixels;
  io::write_file_atomically(path, io::encode_npy(a));
}

int run_npy(const BlurOptions& o, std::optional<ElementType> out_type, bool image_out) {
  if (image_out) require_image_output(o.output);
  const Device device = parse_device(o.device);
  io::NpyArray in = io::read_npy(o.input);
  const int ndim = static_cast<int>(in.shape.size());
  BlurSpec spec = make_spec(o, ndim, false);
  io::NpyArray out;
  out.type = out_type.value_or(in.type);
  out.shape = in.shape;
  out.data.resize(static_cast<std::size_t>(in.element_count()) * element_size(out.type));
  // The array/channel rule the Python module applies too: a trailing axis of 1-4 left unblurred is
  // channels (an HxWx4 array with --sigma 8,8,0 is an RGBA image, not a volume of depth W).
  const std::size_t rank = in.shape.size();
  std::unique_ptr<bool[]> blurred(new bool[rank]);  // not vector<bool>: channel_axis takes a span
  std::vector<std::ptrdiff_t> s_strides(rank), d_strides(rank);
  std::ptrdiff_t s_step = static_cast<std::ptrdiff_t>(element_size(in.type)), d_step = static_cast<std::ptrdiff_t>(element_size(out.type));
  for (std::size_t d = rank; d-- > 0;) {
    blurred[d] = spec.sigma[rank - 1 - d] > 0.0;
    s_strides[d] = s_step, d_strides[d] = d_step;
    s_step *= in.shape[d], d_step *= in.shape[d];
  }
  const int channels_at = channel_axis(in.shape, s_strides, element_size(in.type), d_strides, element_size(out.type),
                                       std::span<const bool>(blurred.get(), rank));
  int channels = 1;
  if (ndim >= 2 && channels_at == ndim - 1 && in.shape.back() > 1) {
    channels = static_cast<int>(in.shape.back());
    spec = make_spec(o, ndim - 1, true);
  }
  if (image_out && ndim - (channels > 1 ? 1 : 0) > 2)
    throw InvalidArgument("'" + o.input + "' is a volume (" + std::to_string(ndim) +
                          " spatial axes): it can be written as .npy, not as an image file");
  explain(o, spec, in.view(channels), device);
  blur(in.view(channels), out.view(channels), spec, device);
  if (!image_out) {
    io::write_file_atomically(o.output, io::encode_npy(out));
    return 0;
  }
  io::Image im;
  const View v = out.view(channels);
  im.width = v.width();
  im.height = v.height();
  im.channels = channels;
  im.type = out.type;
  im.pixels = std::move(out.data);
  io::write_image(o.output, im, std::nullopt, o.write);
  return 0;
}

int run_image(const BlurOptions& o, std::optional<ElementType> out_type, bool npy_out) {
  if (!npy_out) require_image_output(o.output);
  const Device device = parse_device(o.device);
  std::unique_ptr<io::ImageRowReader> reader = io::open_image_rows(o.input);
  const io::ImageHeader& h = reader->header();
  const BlurSpec spec = make_spec(o, 2, true);
  const ElementType type = out_type.value_or(h.type);
  // The plan of the whole image (every band runs it); views hold at most 4 channels, so wider
  // images are blurred in groups of 4.
  const View shape = View::packed(nullptr, h.type, h.width, h.height, 1, std::min(4, h.channels));
  Plan plan = make_plan(spec, shape, type, device);
  const std::int64_t row_bytes = h.width * h.channels * static_cast<std::int64_t>(element_size(h.type) + element_size(type));
  Bands bands = choose_bands(plan, h.height, row_bytes, o.band_rows);
  if (npy_out) bands = Bands{h.height, 0, "a .npy output is written whole"};
  // Streamed, the work is a band's window: the planner chooses for that shape (for a 40000x30000
  // scan it chose fft for the whole, while fir is 3x faster on its 240-row windows), and the bands
  // follow the chosen algorithm's support.
  for (int again = 0; again < 2 && bands.rows < h.height; ++again) {
    View window = shape;
    window.extent[1] = std::min(h.height, bands.rows + 2 * bands.halo);
    window.stride[2] = window.stride[1] * window.extent[1];
    Plan for_window = make_plan(spec, window, type, device);
    if (for_window.spec.algorithm == plan.spec.algorithm) break;
    plan = std::move(for_window);
    bands = choose_bands(plan, h.height, row_bytes, o.band_rows);
  }
  if (o.explain) {
    std::printf("%s", describe(plan).c_str());
    if (bands.rows < h.height)
      std::printf("streamed: bands of %lld rows, each read with %lld rows above and below\n",
                  static_cast<long long>(bands.rows), static_cast<long long>(bands.halo));
    else
      std::printf("whole image in memory%s%s\n", bands.whole_reason.empty() ? "" : ": ", bands.whole_reason.c_str());
  }
  if (npy_out) {
    io::Image in;
    in.width = h.width, in.height = h.height, in.channels = h.channels, in.type = h.type;
    in.pixels.resize(static_cast<std::size_t>(h.width * h.height * h.channels) * element_size(h.type));
    reader->read_rows(0, h.height, in.pixels.data());
    io::Image out = in;
    out.type = type;
    out.pixels.assign(static_cast<std::size_t>(h.width * h.height * h.channels) * element_size(type), std::byte{0});
    for (int first = 0; first < h.channels; first += 4) {
      const int count = std::min(4, h.channels - first);
      blur(in.channel_view(first, count), out.channel_view(first, count), plan.spec, device);
    }
    write_as_npy(o.output, out);
    return 0;
  }
  io::ImageHeader out_header = h;  // with the input's metadata (EXIF, ICC, ...)
  out_header.type = type;
  std::unique_ptr<io::ImageRowWriter> writer = io::create_image_rows(o.output, out_header, std::nullopt, o.write);
  blur_in_bands(*reader, *writer, plan, bands, type, device);
  writer->commit();
  return 0;
}

// One input to one output (the checks, then the blur of an image or an array).
int blur_one(const BlurOptions& opt) {
  std::error_code ec;
  if (!fs::exists(opt.input, ec)) throw IoError("cannot read '" + opt.input + "': no such file");
  if (fs::is_directory(opt.input, ec)) throw IoError("cannot read '" + opt.input + "': it is a directory");
  {
    std::ifstream probe(opt.input, std::ios::binary);
    if (!probe) throw IoError("cannot read '" + opt.input + "': permission denied or unreadable");
  }
  if (!opt.in_place && same_file(opt.input, opt.output))
    throw InvalidArgument("the output '" + opt.output + "' is the input file; pass --in-place to replace it");
  std::optional<ElementType> out_type;
  if (!opt.dtype.empty()) out_type = parse_element_type(opt.dtype);
  const bool npy_in = is_npy_file(opt.input) || has_npy_extension(opt.input);
  const bool npy_out = has_npy_extension(opt.output);
  if (npy_out && (opt.write.quality || !opt.write.compression.empty()))
    throw InvalidArgument("--quality and --compression are for image files; the output is a .npy array");
  // Either kind in, either kind out: an image written as .npy is (H, W[, C]); an array written as
  // an image must be 2D (with the channel rule's channels).
  return npy_in ? run_npy(opt, out_type, !npy_out) : run_image(opt, out_type, npy_out);
}

// --output's target for one input: DIR/NAME, or the pattern with {stem}, {name}, {ext} filled in.
std::string batch_target(const std::string& pattern, const fs::path& input) {
  if (pattern.find('{') == std::string::npos) return (fs::path(pattern) / input.filename()).string();
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    bool done = false;
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"{stem}", input.stem().string()},
                                     {"{name}", input.filename().string()},
                                     {"{ext}", input.has_extension() ? input.extension().string().substr(1) : ""}})
      if (pattern.compare(i, key.size(), key) == 0) {
        out += value;
        i += key.size();
        done = true;
        break;
      }
    if (!done) out += pattern[i++];
  }
  return out;
}

int run_blur_command(const BlurOptions& o) {
  if (o.batch_output.empty()) {
    if (o.files.size() != 2)
      throw InvalidArgument("blur takes INPUT OUTPUT (" + std::to_string(o.files.size()) +
                            " paths given); for many inputs give --output DIR or a pattern with {stem}");
    BlurOptions one = o;
    one.input = o.files[0];
    one.output = o.files[1];
    return blur_one(one);
  }
  const bool pattern = o.batch_output.find('{') != std::string::npos;
  std::error_code ec;
  if (!pattern && !fs::is_directory(o.batch_output, ec))
    throw InvalidArgument("--output '" + o.batch_output + "' is neither a directory nor a pattern with {stem}");
  // Every input's target first: two inputs may not write one file.
  std::vector<std::string> targets;
  for (const std::string& in : o.files) {
    targets.push_back(batch_target(o.batch_output, in));
    for (std::size_t k = 0; k + 1 < targets.size(); ++k)
      if (targets[k] == targets.back())
        throw InvalidArgument("'" + o.files[k] + "' and '" + in + "' would both be written to '" + targets.back() + "'");
  }
  // Files in parallel, one per core: each file's read, blur and write already overlap, and a small
  // image's blur runs on one thread anyway. With several workers each blur gets one thread unless
  // --threads says otherwise.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int workers = static_cast<int>(std::min<std::size_t>(o.files.size(), static_cast<std::size_t>(cores)));
  Progress progress(static_cast<int>(o.files.size()), false);
  std::mutex report;  // progress and messages, one file at a time
  std::atomic<std::size_t> next{0};
  int failed = 0, refused = 0;  // refused: bad arguments (exit status 2 when every file was)
  const auto work = [&] {
    for (std::size_t k; (k = next++) < o.files.size();) {
      BlurOptions one = o;
      one.input = o.files[k];
      one.output = targets[k];
      if (workers > 1 && o.threads == 0) one.threads = 1;
      std::string error;
      bool bad_arguments = false;
      try {
        blur_one(one);
      } catch (const std::exception& e) {
        error = e.what();
        bad_arguments = dynamic_cast<const InvalidArgument*>(&e) != nullptr;
      }
      const std::lock_guard<std::mutex> lock(report);
      if (!error.empty()) {
        ++failed;
        refused += bad_arguments;
        if (progress.on_terminal()) std::fprintf(stderr, "\n");
        std::fprintf(stderr, "fastblur: error: %s: %s\n", one.input.c_str(), error.c_str());
      }
      progress.step(one.input);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failed > 0 || progress.on_terminal())
    std::fprintf(stderr, "fastblur: %zu of %zu files blurred%s\n", o.files.size() - static_cast<std::size_t>(failed),
                 o.files.size(), failed ? (", " + std::to_string(failed) + " failed").c_str() : "");
  return failed == 0 ? 0 : refused == static_cast<int>(o.files.size()) ? 2 : 1;
}

}  // namespace

Command add_blur_command(CLI::App& app) {
  auto o = std::make_shared<BlurOptions>();
  CLI::App* sub = app.add_subcommand("blur", "Blur an image file or a .npy array and write the result");
  sub->add_option("files", o->files,
                  "INPUT OUTPUT: an image (PNG, JPEG, TIFF, EXR, HDR, ...) or a .npy array, and the output path, "
                  "whose extension picks the format (an image may be written as .npy, shape (H, W[, C]), and a 2D "
                  "array as an image). Images are streamed: read, blurred and written in bands of rows (each with "
                  "a halo of the kernel's reach), so memory follows the width, not the height; the whole image is "
                  "held only for a wrap border along y, dual-kawase and mip-poisson, and .npy in or out. Written "
                  "to a temporary file and renamed, so it appears only when complete. "
                  "With --output, every FILE is an input")
      ->required();
  sub->add_option("-o,--output", o->batch_output,
                  "Many inputs in one process: a directory (each output keeps its input's name) or a pattern with "
                  "{stem} (the input's name without extension), {name} and {ext}, e.g. 'out/{stem}_blur.png'. Files "
                  "are blurred in parallel (one per core), each written atomically; a failing file is reported and "
                  "the rest continue; the exit status is 1 if any failed");
  sub->add_option("-s,--sigma", o->sigma,
                  "Gaussian standard deviation in pixels: one value for every axis, or one per axis in array order "
                  "(numpy's: rows first). For an HxWxC .npy, '2,2,0' blurs rows and columns and leaves the last axis "
                  "alone; for images, 'SY,SX' (a third value, the channel axis, must be 0: channels are never "
                  "blurred). 0 leaves an axis alone")
      ->required();
  sub->add_option("-b,--border", o->border,
                  "Border mode, as scipy.ndimage: reflect (d c b a|a b c d|d c b a, default), mirror "
                  "(d c b|a b c d|c b a), nearest, wrap, constant (uses --cval); one, or one per axis")
      ->capture_default_str();
  sub->add_option("--cval", o->cval, "Value outside the image for --border constant")->capture_default_str();
  auto* truncate = sub->add_option("-t,--truncate", o->truncate,
                                   "Kernel radius in sigmas: radius = int(truncate*sigma + 0.5), as scipy")
                       ->capture_default_str();
  auto* radius = sub->add_option("-r,--radius", o->radius, "Explicit kernel radius in pixels (one, or one per axis); "
                                                           "overrides --truncate");
  truncate->excludes(radius);
  o->algorithm.add_to(*sub);
  sub->add_flag("--explain", o->explain, "Print the plan (algorithm, parameters, predicted error and cost, the "
                                         "candidates weighed) before blurring");
  sub->add_option("-j,--threads", o->threads, "Threads; 0 uses every core")->capture_default_str();
  // What the Vulkan backend runs, from the registry.
  std::string cpu_only, images_only;
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic) continue;
    if (!a.capabilities.vulkan) cpu_only += (cpu_only.empty() ? "" : ", ") + std::string(a.name);
    else if (!a.capabilities.vulkan_volumes) images_only += (images_only.empty() ? "" : ", ") + std::string(a.name);
  }
  sub->add_option("-d,--device", o->device,
                  "Where to blur: cpu, vulkan (FASTBLUR_DEVICE, else the first discrete GPU, ...), vulkan:N or "
                  "vulkan:NAME; `fastblur devices` lists them. The Vulkan backend runs every algorithm but " +
                      cpu_only + " (2D only: " + images_only + ")")
      ->capture_default_str();
  sub->add_option("--dtype", o->dtype,
                  "Output element type: uint8, uint16, float16, float32, float64 (default: the input's). Integer "
                  "outputs are rounded to nearest and saturated");
  sub->add_option("--band-rows", o->band_rows, "At most this many rows per streamed band (for tests)")->group("");
  sub->add_flag("--in-place", o->in_place, "Allow the output to be the input file (it is still replaced atomically)");
  sub->add_option("--quality", o->write.quality, "JPEG / WebP / HEIF quality, 1 to 100 (default 95)");
  sub->add_option("--compression", o->write.compression,
                  "PNG: a zlib level 0-9 with adaptive filters (default: fast, Paeth prediction and run-length "
                  "deflate, about the size of level 6); TIFF: none (default), lzw, zip[:1-9], packbits; OpenEXR: "
                  "none, zip (default), piz, dwaa, ...");
  return {sub, [o]() -> int { return run_blur_command(*o); }};
}

}  // namespace fastblur::cli
