// The image functions as the program sees them: each opens the image module (image_codecs.hpp) on
// first use and forwards to it.
#include "io/image_file.hpp"

#include <dlfcn.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <span>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/size.hpp"
#include "fastblur/error.hpp"
#include "io/atomic_file.hpp"
#include "io/image_codecs.hpp"
#include "io/jpeg_codec.hpp"
#include "io/png_codec.hpp"
#include "io/tiff_codec.hpp"

namespace fastblur::io {
namespace {

namespace fs = std::filesystem;

// Where the module may be: FASTBLUR_IMAGE_MODULE; beside the executable (the build tree); the
// install's library directory relative to the executable (bin/../lib/fastblur), then as configured;
// the build tree's copy (tests and tools built elsewhere in the tree).
std::vector<fs::path> module_candidates() {
  std::vector<fs::path> c;
  if (const char* env = std::getenv("FASTBLUR_IMAGE_MODULE"); env && *env) c.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    c.push_back(exe.parent_path() / FASTBLUR_IMAGE_MODULE_NAME);
    c.push_back(exe.parent_path().parent_path() / FASTBLUR_IMAGE_MODULE_RELATIVE / FASTBLUR_IMAGE_MODULE_NAME);
  }
  c.emplace_back(FASTBLUR_IMAGE_MODULE_INSTALLED);
  c.emplace_back(FASTBLUR_IMAGE_MODULE_BUILT);
  return c;
}

const ImageCodecs& codecs() {
  static const ImageCodecs* loaded = nullptr;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const fs::path& p : module_candidates()) {
      std::error_code ec;
      if (!fs::exists(p, ec)) {
        tried += (tried.empty() ? "" : ", ") + p.string();
        continue;
      }
      // RTLD_LOCAL: OpenImageIO's symbols stay the module's. Never closed: its objects (metadata)
      // live as long as the images holding them.
      void* handle = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        const char* e = ::dlerror();
        failure = "the image module '" + p.string() + "' cannot be loaded: " + (e ? e : "unknown error");
        return;
      }
      using Entry = const ImageCodecs* (*)();
      const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "fastblur_image_codecs"));
      const ImageCodecs* table = entry ? entry() : nullptr;
      if (!table || table->version != kImageCodecsVersion) {
        failure = "the image module '" + p.string() + "' is from another version of fastblur";
        return;
      }
      loaded = table;
      return;
    }
    failure = "this file's format needs the image module " FASTBLUR_IMAGE_MODULE_NAME
              " (OpenImageIO), which is not installed (looked in: " + tried + "); PNG, JPEG, TIFF and .npy work without it";
  });
  if (!loaded) throw IoError(failure);
  return *loaded;
}

}  // namespace

View Image::channel_view(int first, int count) {
  View v;
  const std::size_t es = element_size(type);
  v.data = pixels.data() + static_cast<std::size_t>(first) * es;
  v.type = type;
  v.channels = count;
  v.extent = {width, height, 1};
  v.stride = {static_cast<std::ptrdiff_t>(es) * channels, static_cast<std::ptrdiff_t>(es) * channels * width, 0};
  v.stride[2] = v.stride[1] * height;
  return v;
}

namespace {

// PNG, JPEG and TIFF are read by their own codecs (png_codec, jpeg_codec, tiff_codec) unless the file
// is one they leave to the image module (interlaced PNG, CMYK JPEG, tiled TIFF, ...). Null: the
// module's turn.
std::unique_ptr<ImageRowReader> open_in_process(const fs::path& path, std::uint64_t max_memory) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return nullptr;  // the module's messages for the rest
  unsigned char start[8] = {};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(start), sizeof start);
  const std::span<const unsigned char> magic(start, static_cast<std::size_t>(in.gcount()));
  if (png::is_png(magic)) return png::open_rows(path);
  if (jpeg::is_jpeg(magic)) return jpeg::open_rows(path, max_memory);
  if (tiff::is_tiff(magic)) return tiff::open_rows(path);
  return nullptr;
}

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool is_png_path(const fs::path& p) { return lower_extension(p) == ".png"; }
bool is_jpeg_path(const fs::path& p) { return lower_extension(p) == ".jpg" || lower_extension(p) == ".jpeg"; }
bool is_tiff_path(const fs::path& p) { return lower_extension(p) == ".tif" || lower_extension(p) == ".tiff"; }

// Whether a target of this format, type, channels and metadata is written in process (else by the
// image module, which converts what these codecs do not hold).
bool writes_in_process(const fs::path& target, const ImageHeader& h, ElementType file_type, const WriteOptions& options) {
  return (is_png_path(target) && png::writes(file_type, h.channels)) ||
         (is_jpeg_path(target) && jpeg::writes(file_type, h.channels)) ||
         (is_tiff_path(target) && tiff::writes(file_type, h.channels, h.metadata.get(), options));
}

// The in-process writer for this target, type and channels; null: the module's turn.
std::unique_ptr<ImageRowWriter> create_in_process(const fs::path& temp, const fs::path& target, const ImageHeader& h,
                                                  ElementType file_type, const WriteOptions& options) {
  if (!writes_in_process(target, h, file_type, options)) return nullptr;
  if (is_png_path(target)) return png::create_rows(temp, target, h, file_type, options);
  if (is_jpeg_path(target)) return jpeg::create_rows(temp, target, h, file_type, options);
  return tiff::create_rows(temp, target, h, file_type, options);
}

// The file's size limit, checked from the header before any pixel memory is allocated.
std::uint64_t checked_bytes(const fs::path& path, const ImageHeader& h, std::uint64_t limit) {
  const std::optional<std::uint64_t> bytes =
      core::checked_product({static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.height),
                             static_cast<std::uint64_t>(h.channels), element_size(h.type)});
  if (!bytes || *bytes > limit || *bytes > core::kMaxAllocationBytes)
    throw OutOfMemory("cannot read '" + path.string() + "': its " + std::to_string(h.width) + "x" +
                      std::to_string(h.height) + "x" + std::to_string(h.channels) + " " + std::string(to_string(h.type)) +
                      " pixels need " + (bytes ? std::to_string(*bytes) + " bytes" : std::string("more than 2^64 bytes")) +
                      (bytes && *bytes <= core::kMaxAllocationBytes ? ", more than the limit of " + std::to_string(limit)
                                                                    : std::string(", more than can be addressed")));
  return *bytes;
}

}  // namespace

// A whole image is its rows read at once, by whichever reader takes the file.
Image read_image(const fs::path& path, std::uint64_t max_pixel_bytes) {
  std::unique_ptr<ImageRowReader> in = open_in_process(path, max_pixel_bytes);
  if (!in) in = codecs().open_rows(path);
  const ImageHeader& h = in->header();
  Image im;
  im.width = h.width, im.height = h.height, im.channels = h.channels, im.type = h.type;
  im.format = h.format;
  im.metadata = h.metadata;
  const std::uint64_t bytes = checked_bytes(path, h, max_pixel_bytes);
  try {
    im.pixels.resize(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes for '" + path.string() + "'");
  }
  in->read_rows(0, h.height, im.pixels.data());
  return im;
}

void write_image(const fs::path& path, const Image& image, std::optional<ElementType> file_type,
                 const WriteOptions& options) {
  const ImageHeader header{image.width, image.height, image.channels, image.type, image.format, image.metadata};
  const ElementType stored = file_type.value_or(image.type);
  if (!writes_in_process(path, header, stored, options)) {
    const ImageCodecs& c = codecs();
    AtomicFile file(path);
    c.write_image(file.temporary_path(), path, image, file_type, options);
    file.commit();
    return;
  }
  std::unique_ptr<ImageRowWriter> out = create_image_rows(path, header, file_type, options);
  out->write_rows(0, image.height, image.pixels.data(), image.type);
  out->commit();
}

// Whether OpenImageIO might know the extension: the file extensions of its bundled plugins (2.4's
// documentation, read and write alike, a superset of what it writes). Others are refused without
// loading the image module, which for an unknown extension catalogues every plugin: 0.4 s and
// 138 MB to say "unknown format" for out.xyz (issue 44).
bool oiio_might_know(const fs::path& path) {
  static const std::set<std::string> known = {
      ".bmp", ".dib", ".cin", ".dds", ".dpx", ".fits", ".fit", ".fts", ".gif", ".hdr", ".rgbe", ".heic", ".heif",
      ".avif", ".ico", ".iff", ".z", ".jpe", ".jif", ".jfif", ".jfi", ".jp2", ".j2k", ".j2c", ".jxl", ".exr", ".sxr",
      ".mxr", ".vdb", ".pnm", ".ppm", ".pgm", ".pbm", ".pfm", ".psd", ".pdd", ".psb", ".ptex", ".ptx", ".rla", ".sgi",
      ".rgb", ".rgba", ".bw", ".int", ".inta", ".pic", ".tga", ".tpic", ".tx", ".env", ".sm", ".vsm", ".webp",
      ".zfile", ".null", ".nul", ".socket", ".term", ".raw", ".dng", ".cr2", ".cr3", ".crw", ".nef", ".arw", ".orf",
      ".raf", ".rw2", ".pef", ".srw", ".x3f", ".mrw", ".kdc", ".dcr", ".erf", ".3fr", ".mos", ".mef", ".nrw", ".srf",
      ".sr2", ".iiq", ".rwl", ".rwz", ".cap", ".fff", ".mdc", ".bay", ".bmq", ".cs1", ".dc2", ".k25", ".pxn", ".rdc",
      ".qtk", ".sti", ".drf", ".dsc", ".ia", ".kc2", ".cine", ".avi", ".mov", ".qt", ".mp4", ".m4a", ".m4v", ".3gp",
      ".3g2", ".mj2", ".mpg", ".mpeg", ".mkv", ".webm", ".ogv", ".gz"};
  return known.count(lower_extension(path)) > 0;
}

bool is_writable_image_path(const fs::path& path) {
  if (is_png_path(path) || is_jpeg_path(path) || is_tiff_path(path)) return true;
  if (!oiio_might_know(path)) return false;
  return codecs().is_writable_image_path(path);
}

std::unique_ptr<ImageRowReader> open_image_rows(const fs::path& path) {
  // Streaming holds a few rows; libjpeg's own need (progressive files) is capped at 2 GiB.
  std::unique_ptr<ImageRowReader> in = open_in_process(path, std::uint64_t{2} << 30);
  return in ? std::move(in) : codecs().open_rows(path);
}

namespace {

// A writer on a temporary file, renamed over the target by commit().
class AtomicRowWriter final : public ImageRowWriter {
 public:
  AtomicRowWriter(const fs::path& path, const ImageHeader& header, std::optional<ElementType> file_type,
                  const WriteOptions& options)
      : file_(path) {
    writer_ = create_in_process(file_.temporary_path(), path, header, file_type.value_or(header.type), options);
    if (!writer_) writer_ = codecs().create_rows(file_.temporary_path(), path, header, file_type, options);
  }
  void write_rows(std::int64_t y0, std::int64_t y1, const std::byte* rows, ElementType type) override {
    writer_->write_rows(y0, y1, rows, type);
  }
  void commit() override {
    writer_->commit();
    file_.commit();
  }

 private:
  AtomicFile file_;  // destroyed after the writer: an uncommitted file is closed, then removed
  std::unique_ptr<ImageRowWriter> writer_;
};

}  // namespace

std::unique_ptr<ImageRowWriter> create_image_rows(const fs::path& path, const ImageHeader& header,
                                                  std::optional<ElementType> file_type, const WriteOptions& options) {
  return std::make_unique<AtomicRowWriter>(path, header, file_type, options);
}

}  // namespace fastblur::io
