// fastblur blur IN OUT --sigma S[,S[,S]] ...: images through OpenImageIO, arrays as .npy.
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
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
  std::string input, output, sigma, border = "reflect", dtype, radius, device = "cpu", rounding = "nearest";
  std::string nan = "propagate", mask, alpha = "stored";  ///< missing data: --nan, --mask, --alpha
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
  std::vector<double> sigma = parse_number_list(o.sigma, "--sigma");
  for (double v : sigma) check_sigma(v, OptionNames::command_line());  // the core's rule (validate.hpp)
  std::vector<Border> border = parse_border_list(o.border);
  std::vector<double> radius;
  if (!o.radius.empty()) radius = parse_number_list(o.radius, "--radius");
  for (double r : radius) check_radius(r, OptionNames::command_line());  // the core's rule (validate.hpp)
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
    for (int a = 0; a < 3; ++a) spec.radius[a] = static_cast<int>(r[a]);
  }
  spec.rounding = parse_rounding(o.rounding);
  spec.cval = o.cval;
  spec.truncate = o.truncate;
  spec.threads = o.threads;
  o.algorithm.apply(spec);
  check_common(spec, OptionNames::command_line());  // cval, truncate, threads, sigma: the core's rules
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

// --device: Device::parse's grammar, with the option named the command line's way.
Device parse_device(const std::string& text) {
  try {
    return Device::parse(text, OptionNames::command_line());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string(e.what()) + " (see `fastblur devices`)");
  }
}

void require_image_output(const std::string& output) {
  if (!io::is_writable_image_path(output))
    throw IoError("cannot write '" + output + "': unknown image format for its extension (use .png, .jpg, .tif, "
                  ".exr, .hdr, ... or .npy for arrays)");
}

// What is read: an image (rows, channels interleaved, its metadata) or a .npy array (slices of its
// first axis), either way as the bands see it.
struct Source {
  Banded data;
  ReadSlices read;
  std::vector<std::int64_t> npy_shape;  // the shape a .npy output gets
  std::shared_ptr<io::ImageRowReader> image;  // an image's header and metadata
  BlurSpec spec;
};

Source open_npy(const BlurOptions& o) {
  Source s;
  auto npy = std::make_shared<io::NpySliceReader>(o.input);
  const io::NpyHeader& h = npy->header();
  const std::size_t rank = h.shape.size();
  const int ndim = static_cast<int>(rank);
  s.spec = make_spec(o, ndim, false);
  // The array/channel rule the Python module applies too: a trailing axis of 1-4 left unblurred is
  // channels (an HxWx4 array with --sigma 8,8,0 is an RGBA image, not a volume of depth W).
  std::unique_ptr<bool[]> blurred(new bool[rank]);  // not vector<bool>: channel_axis takes a span
  std::vector<std::ptrdiff_t> strides(rank);
  std::ptrdiff_t step = static_cast<std::ptrdiff_t>(element_size(h.type));
  for (std::size_t d = rank; d-- > 0;) {
    blurred[d] = s.spec.sigma[rank - 1 - d] > 0.0;
    strides[d] = step;
    step *= h.shape[d];
  }
  const int channels_at = channel_axis(h.shape, strides, element_size(h.type), strides, element_size(h.type),
                                       std::span<const bool>(blurred.get(), rank));
  int channels = 1;
  if (ndim >= 2 && channels_at == ndim - 1 && h.shape.back() > 1) {
    channels = static_cast<int>(h.shape.back());
    s.spec = make_spec(o, ndim - 1, true);
  }
  const int spatial = ndim - (channels > 1 ? 1 : 0);
  for (int a = 0; a < spatial; ++a) s.data.extent[static_cast<std::size_t>(a)] = h.shape[static_cast<std::size_t>(spatial - 1 - a)];
  s.data.channels = channels;
  s.data.axis = std::max(0, spatial - 1);
  s.data.in = h.type;
  s.npy_shape = h.shape;
  s.read = [r = npy](std::int64_t first, std::int64_t end, std::byte* out) { r->read(first, end, out); };
  return s;
}

Source open_image(const BlurOptions& o) {
  Source s;
  s.image = io::open_image_rows(o.input);
  const io::ImageHeader& h = s.image->header();
  s.spec = make_spec(o, 2, true);
  s.data.extent = {h.width, h.height, 1};
  s.data.channels = h.channels;
  s.data.axis = 1;
  s.data.in = h.type;
  s.npy_shape = {h.height, h.width};
  if (h.channels > 1) s.npy_shape.push_back(h.channels);
  s.read = [r = s.image](std::int64_t first, std::int64_t end, std::byte* out) { r->read_rows(first, end, out); };
  return s;
}

// A .npy output written slice by slice into the temporary file of an atomic write.
class NpySliceWriter {
 public:
  NpySliceWriter(const std::string& path, ElementType type, const std::vector<std::int64_t>& shape) : file_(path) {
    out_.open(file_.temporary_path(), std::ios::binary);
    const std::vector<std::byte> header = io::encode_npy_header(type, shape);
    out_.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
    check();
  }
  void write(const std::byte* data, std::size_t bytes) {
    out_.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    check();
  }
  void commit() {
    out_.close();
    check();
    file_.commit();
  }

 private:
  void check() {
    if (!out_) throw IoError("cannot write '" + file_.target_path().string() + "': " + std::strerror(errno));
  }
  io::AtomicFile file_;
  std::ofstream out_;
};

// An element other than zero (floats: -0 is zero; NaN is not).
bool nonzero(ElementType type, const std::byte* p) {
  if (type == ElementType::f32) {
    float v;
    std::memcpy(&v, p, 4);
    return !(v == 0.0f);
  }
  if (type == ElementType::f64) {
    double v;
    std::memcpy(&v, p, 8);
    return !(v == 0.0);
  }
  if (type == ElementType::f16) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return (v & 0x7fff) != 0;
  }
  for (std::size_t i = 0; i < element_size(type); ++i)
    if (p[i] != std::byte{0}) return true;
  return false;
}

// --mask FILE: an image or .npy of the data's width and height (depth), one channel, nonzero =
// missing; read whole, as one byte a pixel.
std::vector<std::uint8_t> read_mask(const BlurOptions& o, const Banded& data) {
  BlurOptions mo = o;
  mo.input = o.mask;
  mo.nan = "propagate";
  std::error_code ec;
  if (!fs::exists(o.mask, ec)) throw IoError("cannot read the mask '" + o.mask + "': no such file");
  Source m = is_npy_file(o.mask) || has_npy_extension(o.mask) ? open_npy(mo) : open_image(mo);
  if (m.data.extent != data.extent || m.data.channels != 1)
    throw InvalidArgument("the mask '" + o.mask + "' is " + std::to_string(m.data.extent[0]) + "x" +
                          std::to_string(m.data.extent[1]) + "x" + std::to_string(m.data.channels) +
                          ": it must be one channel of the data's " + std::to_string(data.extent[0]) + "x" +
                          std::to_string(data.extent[1]));
  const std::int64_t length = m.data.extent[static_cast<std::size_t>(m.data.axis)];
  const std::size_t slice = static_cast<std::size_t>(m.data.slice_elements());
  std::vector<std::byte> raw(slice * static_cast<std::size_t>(length) * element_size(m.data.in));
  m.read(0, length, raw.data());
  std::vector<std::uint8_t> flags(slice * static_cast<std::size_t>(length));
  for (std::size_t i = 0; i < flags.size(); ++i)
    flags[i] = nonzero(m.data.in, raw.data() + i * element_size(m.data.in)) ? 1 : 0;
  return flags;
}

int run_file(const BlurOptions& o, std::optional<ElementType> out_type, bool npy_in, bool npy_out) {
  if (!npy_out) require_image_output(o.output);
  const Device device = parse_device(o.device);
  Source src = npy_in ? open_npy(o) : open_image(o);
  Banded& data = src.data;
  data.out = out_type.value_or(data.in);
  if (!npy_out && data.out != ElementType::u8 && data.out != ElementType::u16 && data.out != ElementType::f16 &&
      data.out != ElementType::f32 && data.out != ElementType::f64)
    throw InvalidArgument("images hold uint8, uint16, float16, float32 or float64, not " +
                          std::string(to_string(data.out)) + ": write .npy, or pass --dtype");
  if (!npy_out && data.extent[2] > 1)
    throw InvalidArgument("'" + o.input + "' is a volume (" + std::to_string(data.axis + 1) +
                          " spatial axes): it can be written as .npy, not as an image file");
  // The plan of one band's window (the planner chooses for the shape it will run on: for a
  // 40000x30000 scan it chose fft for the whole, while fir is 3x faster on its windows); the bands
  // follow the chosen algorithm's support. Views hold at most 4 channels: wider images are blurred
  // in groups of 4.
  View shape = View::packed(nullptr, data.in, data.extent[0], data.extent[1], data.extent[2], std::min(4, data.channels));
  Plan plan = make_plan(src.spec, shape, data.out, device);
  // A named algorithm runs as named; a --tolerance it cannot meet is said, not silently passed over.
  if (plan.spec.algorithm != Algorithm::automatic && plan.spec.tolerance > 0.0 &&
      plan.predicted_max_error > plan.spec.tolerance)
    std::fprintf(stderr, "fastblur: warning: %s's predicted max error %.3g exceeds --tolerance %.3g; --algorithm auto "
                         "chooses within it\n",
                 std::string(to_string(plan.spec.algorithm)).c_str(), plan.predicted_max_error, plan.spec.tolerance);
  Bands bands = choose_bands(plan, data, o.band_rows);
  for (int again = 0; again < 2 && bands.slices < data.extent[static_cast<std::size_t>(data.axis)]; ++again) {
    View window = shape;
    window.extent[static_cast<std::size_t>(data.axis)] = bands.slices + 2 * bands.halo;
    Plan for_window = make_plan(src.spec, window, data.out, device);
    if (for_window.spec.algorithm == plan.spec.algorithm) break;
    plan = std::move(for_window);
    bands = choose_bands(plan, data, o.band_rows);
  }
  if (o.explain) {
    std::printf("%s", describe(plan).c_str());
    const char* what = data.axis == 2 ? "slices" : "rows";
    if (bands.slices < data.extent[static_cast<std::size_t>(data.axis)]) {
      // Each band is one call through the front door, planned for the band's shape: its schedule
      // (threads, strips, whether the destination is streamed past the caches) is that plan's.
      View window = shape;
      window.extent[static_cast<std::size_t>(data.axis)] = bands.slices + 2 * bands.halo;
      const std::string schedule = describe_schedule(make_plan(plan.spec, window, data.out, device));
      std::printf("streamed: bands of %lld %s, each read with %lld %s before and after; each band's schedule: %s\n",
                  static_cast<long long>(bands.slices), what, static_cast<long long>(bands.halo), what, schedule.c_str());
    }
    else
      std::printf("whole in memory%s%s\n", bands.whole_reason.empty() ? "" : ": ", bands.whole_reason.c_str());
  }
  // Missing data: NaN omitted, a mask file (held whole: a byte a pixel), or premultiplied alpha.
  MissingData missing;
  missing.omit_nan = o.nan == "omit";
  missing.alpha = o.alpha == "premultiplied";
  std::vector<std::uint8_t> mask_bytes;
  if (!o.mask.empty()) {
    mask_bytes = read_mask(o, data);
    missing.mask = View::packed(mask_bytes.data(), ElementType::u8, data.extent[0], data.extent[1], data.extent[2], 1);
  }
  if (missing.any() && o.explain)
    std::printf("missing data: normalized convolution, weights from %s, carried as one more channel (the plan above, with that channel)\n",
                missing.alpha ? "alpha (premultiplied)" : missing.mask.data ? (missing.omit_nan ? "NaN and the mask" : "the mask") : "NaN");
  const std::size_t out_slice = static_cast<std::size_t>(data.slice_elements()) * element_size(data.out);
  if (npy_out) {
    NpySliceWriter writer(o.output, data.out, src.npy_shape);
    blur_in_bands(src.read, [&](std::int64_t first, std::int64_t end, const std::byte* slices) {
      writer.write(slices, static_cast<std::size_t>(end - first) * out_slice);
    }, data, plan, bands, device, missing);
    writer.commit();
    return 0;
  }
  io::ImageHeader header;  // an image keeps its metadata (EXIF, ICC, ...); an array has none
  if (src.image) header = src.image->header();
  header.width = data.extent[0];
  header.height = data.extent[1];
  header.channels = data.channels;
  header.type = data.out;
  std::unique_ptr<io::ImageRowWriter> writer = io::create_image_rows(o.output, header, std::nullopt, o.write);
  blur_in_bands(src.read, [&](std::int64_t first, std::int64_t end, const std::byte* rows) {
    writer->write_rows(first, end, rows, data.out);
  }, data, plan, bands, device, missing);
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
  return run_file(opt, out_type, npy_in, npy_out);
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
                  "array as an image). Streamed: read, blurred and written in bands of rows (images, 2D arrays) or "
                  "slices (volumes), each with a halo of the kernel's reach, so memory follows one band, not the "
                  "height or depth; held whole only for a wrap border along the banded axis, dual-kawase and "
                  "mip-poisson. Written to a temporary file and renamed, so it appears only when complete. "
                  "With --output, every FILE is an input")
      ->required()
      ->type_name("INPUT OUTPUT | FILE...");
  sub->add_option("-o,--output", o->batch_output,
                  "Many inputs in one process: a directory (each output keeps its input's name) or a pattern with "
                  "{stem} (the input's name without extension), {name} and {ext}, e.g. 'out/{stem}_blur.png'. Files "
                  "are blurred in parallel (one per core), each written atomically; a failing file is reported and "
                  "the rest continue; the exit status is 1 if any failed")
      ->type_name("DIR|PATTERN")
      ->group("Many files");
  sub->add_option("-s,--sigma", o->sigma,
                  "Gaussian standard deviation in pixels: one value for every axis, or one per axis in array order "
                  "(numpy's: rows first). For an HxWxC .npy, '2,2,0' blurs rows and columns and leaves the last axis "
                  "alone; for images, 'SY,SX' (a third value, the channel axis, must be 0: channels are never "
                  "blurred). 0 leaves an axis alone")
      ->required()
      ->type_name("S[,S...]")
      ->group("Blur");
  sub->add_option("-b,--border", o->border,
                  "Border mode, as scipy.ndimage: reflect (d c b a|a b c d|d c b a, default), mirror "
                  "(d c b|a b c d|c b a), nearest, wrap, constant (uses --cval); one, or one per axis")
      ->capture_default_str()
      ->type_name("MODE[,MODE...]")
      ->group("Borders");
  sub->add_option("--cval", o->cval, "Value outside the image for --border constant")
      ->capture_default_str()
      ->type_name("VALUE")
      ->group("Borders");
  auto* truncate = sub->add_option("-t,--truncate", o->truncate,
                                   "Kernel radius in sigmas: radius = int(truncate*sigma + 0.5), as scipy")
                       ->capture_default_str();
  truncate->type_name("SIGMAS")->group("Blur");
  auto* radius = sub->add_option("-r,--radius", o->radius, "Explicit kernel radius in pixels (one, or one per axis); "
                                                           "overrides --truncate");
  radius->type_name("R[,R...]")->group("Blur");
  truncate->excludes(radius);
  o->algorithm.add_to(*sub);
  sub->add_option("--rounding", o->rounding,
                  "nearest: the exact result rounded once (8-bit images in 16-bit fixed point, within 1 of it); scipy: "
                  "scipy.ndimage.gaussian_filter's bits (its summation order in double, the output type after each "
                  "axis, integers truncated), for exact blurs on the CPU")
      ->check(CLI::IsMember({"nearest", "scipy"}))
      ->capture_default_str()
      ->type_name("CHOICE")
      ->group("Algorithm");
  sub->add_option("--nan", o->nan,
                  "NaN samples: propagate (spread over their kernel, as scipy) or omit (missing data: the normalized "
                  "convolution G*(x w)/G*w, empty neighbourhoods NaN)")
      ->check(CLI::IsMember({"propagate", "omit"}))
      ->capture_default_str()
      ->type_name("CHOICE")
      ->group("Missing data");
  sub->add_option("--mask", o->mask,
                  "Missing data by mask: an image or .npy of the input's size, one channel, nonzero = missing "
                  "(held whole in memory, a byte a pixel)")
      ->type_name("FILE")
      ->group("Missing data");
  sub->add_option("--alpha", o->alpha,
                  "Alpha: stored (blurred as any channel) or premultiplied (colour weighted by alpha and divided "
                  "back, alpha blurred plainly: no dark halos around transparent pixels)")
      ->check(CLI::IsMember({"stored", "premultiplied"}))
      ->capture_default_str()
      ->type_name("CHOICE")
      ->group("Missing data");
  sub->add_flag("--explain", o->explain, "Print the plan (algorithm, parameters, predicted error and cost, the "
                                         "candidates weighed) before blurring")
      ->group("Run");
  sub->add_option("-j,--threads", o->threads, "Threads; 0 uses every core")->capture_default_str()->type_name("N")->group("Run");
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
      ->capture_default_str()
      ->type_name("DEVICE")
      ->group("Run");
  sub->add_option("--dtype", o->dtype,
                  "Output element type: uint8, uint16, float16, float32, float64, and for .npy files int8 ... "
                  "int64, uint32, uint64, bool (default: the input's). Integer outputs are rounded to nearest and "
                  "saturated (--rounding scipy: truncated, as SciPy)")
      ->type_name("TYPE")
      ->group("Output");
  sub->add_option("--band-rows", o->band_rows, "At most this many rows per streamed band (for tests)")->group("");
  sub->add_flag("--in-place", o->in_place, "Allow the output to be the input file (it is still replaced atomically)")->group("Output");
  sub->add_option("--quality", o->write.quality, "JPEG / WebP / HEIF quality, 1 to 100 (default 95)")->type_name("1-100")->group("Output");
  sub->add_option("--compression", o->write.compression,
                  "PNG: a zlib level 0-9 with adaptive filters (default: fast, Paeth prediction and run-length "
                  "deflate, about the size of level 6); TIFF: none (default), lzw, zip[:1-9], packbits; OpenEXR: "
                  "none, zip (default), piz, dwaa, ...")
      ->type_name("LEVEL|METHOD")
      ->group("Output");
  return {sub, [o]() -> int { return run_blur_command(*o); }};
}

}  // namespace fastblur::cli
