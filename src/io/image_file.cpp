#include "io/image_file.hpp"

#include <OpenImageIO/imageio.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>

#include "core/size.hpp"
#include "fastblur/error.hpp"
#include "io/atomic_file.hpp"

namespace fastblur::io {
namespace {

OIIO::TypeDesc oiio_type(ElementType t) {
  switch (t) {
    case ElementType::u8: return OIIO::TypeDesc::UINT8;
    case ElementType::u16: return OIIO::TypeDesc::UINT16;
    case ElementType::f16: return OIIO::TypeDesc::HALF;
    case ElementType::f32: return OIIO::TypeDesc::FLOAT;
    case ElementType::f64: return OIIO::TypeDesc::DOUBLE;
  }
  return OIIO::TypeDesc::FLOAT;
}

// One line from OpenImageIO's error text (it can hold several).
std::string first_line(std::string s) {
  const auto nl = s.find('\n');
  if (nl != std::string::npos) s.resize(nl);
  return s.empty() ? "unknown error" : s;
}

// Some codecs (libpng) print their own messages to stderr besides returning an error; OpenImageIO
// hands us the same text, which we report once. This keeps fd 2 quiet while a codec runs.
class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = ::dup(2);
    const int null = ::open("/dev/null", O_WRONLY);
    if (saved_ >= 0 && null >= 0) ::dup2(null, 2);
    if (null >= 0) ::close(null);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ >= 0) {
      ::dup2(saved_, 2);
      ::close(saved_);
    }
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

// Pixels are blurred as stored: alpha is never premultiplied on read or divided out on write.
OIIO::ImageSpec raw_alpha_config() {
  OIIO::ImageSpec config;
  config.attribute("oiio:UnassociatedAlpha", 1);
  return config;
}

// Headers that make Debian's OpenImageIO 2.4 readers crash instead of failing, refused before it
// opens the file (found by tests/fuzz/fuzz_image; tests/fuzz/RESULTS.md):
//  - DPX: the reader allocates the header's user-data size (up to 4 GiB) and aborts when it is
//    2^31 or more. A user-data block larger than the file is corrupt anyway.
//  - Maya IFF: the reader aborts on some header flags, and on malformed tile chunks it copies a
//    negative length (a heap overrun, not an error); no check of ours can tell a safe tile from a
//    bad one before it decodes, so IFF files are not read at all.
void refuse_known_reader_crashes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[36] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  if (in.gcount() >= 12 && std::memcmp(h, "FOR4", 4) == 0 && std::memcmp(h + 8, "CIMG", 4) == 0)
    throw IoError("cannot read '" + path.string() +
                  "': Maya IFF files are not read (OpenImageIO 2.4's IFF reader overruns memory on malformed "
                  "files); convert it to TIFF or EXR first");
  if (in.gcount() < static_cast<std::streamsize>(sizeof h)) return;
  const bool big = std::memcmp(h, "SDPX", 4) == 0, little = std::memcmp(h, "XPDS", 4) == 0;
  if (big || little) {
    const auto u32 = [&](int at) {
      return big ? (std::uint32_t{h[at]} << 24 | std::uint32_t{h[at + 1]} << 16 | std::uint32_t{h[at + 2]} << 8 | h[at + 3])
                 : (std::uint32_t{h[at + 3]} << 24 | std::uint32_t{h[at + 2]} << 16 | std::uint32_t{h[at + 1]} << 8 | h[at]);
    };
    const std::uint32_t user_size = u32(32);  // generic file header: user-defined data size
    std::error_code ec;
    const std::uintmax_t file_size = std::filesystem::file_size(path, ec);
    if (user_size != 0 && user_size != 0xFFFFFFFFu && (ec || user_size > file_size || user_size >= 0x80000000u))
      throw IoError("cannot read '" + path.string() + "': corrupt DPX header (" + std::to_string(user_size) +
                    " bytes of user data in a file of " + std::to_string(file_size) + ")");
  }
}

// OpenImageIO 2.4's readers abort (SIGABRT, not an error) on some malformed headers - fuzz_image
// found IFF files with a z-buffer or unknown flag bits, beside the DPX case above - and a library
// abort cannot be caught. So the header is first opened in a child process: if the child dies of
// a signal, the file is refused with an error and this process goes on. It costs one fork (about
// a millisecond); where fork fails the file is read without the probe.
void probe_header_in_child(const std::filesystem::path& path, const OIIO::ImageSpec& config) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return;
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDERR_FILENO), ::dup2(null, STDOUT_FILENO);
    std::signal(SIGABRT, SIG_DFL);
    auto in = OIIO::ImageInput::open(path.string(), &config);
    ::_exit(in ? 0 : 1);  // no destructors, no atexit: the parent owns every resource
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return;
  if (WIFSIGNALED(status))
    throw IoError("cannot read '" + path.string() + "': corrupt file (OpenImageIO's reader crashed on its header, signal " +
                  std::to_string(WTERMSIG(status)) + ")");
}

}  // namespace

struct ImageMetadata {
  OIIO::ParamValueList attributes;
};

namespace {

// Attributes that describe how the source file was encoded, or that OpenImageIO sets itself: not
// metadata of the image, and wrong for the file written.
bool is_encoding_detail(const std::string& name) {
  static const char* const kExact[] = {"compression", "Compression", "CompressionQuality", "planarconfig",
                                       "Software", "DocumentName", "HostComputer", "PixelAspectRatio"};
  for (const char* e : kExact)
    if (name == e) return true;
  const auto prefix = [&](const char* p) { return name.rfind(p, 0) == 0; };
  if (prefix("oiio:")) return name != "oiio:ColorSpace" && name != "oiio:Gamma";
  return prefix("tiff:") || prefix("png:") || prefix("jpeg:") || prefix("openexr:") || prefix("webp:") ||
         prefix("heif:") || prefix("bmp:") || prefix("targa:") || prefix("dpx:") || prefix("fits:") ||
         prefix("Exif:PixelXDimension") || prefix("Exif:PixelYDimension");
}

// Values a writer encodes without surprises: single ints, floats and (bounded) strings, and the
// ICC profile as bytes. A damaged file's other attributes (arrays of odd types from fuzzed EXIF)
// are not carried: writers were never meant to re-encode them.
bool carried_value(const OIIO::ParamValue& p) {
  const OIIO::TypeDesc t = p.type();
  if (p.name() == "ICCProfile")
    return t.basetype == OIIO::TypeDesc::UINT8 && p.nvalues() == 1 && t.numelements() > 0 && t.numelements() <= (16 << 20);
  if (p.nvalues() != 1 || t.arraylen != 0 || t.aggregate != OIIO::TypeDesc::SCALAR) return false;
  if (t.basetype == OIIO::TypeDesc::STRING) return p.get_string().size() <= 65536;
  return t.basetype == OIIO::TypeDesc::INT32 || t.basetype == OIIO::TypeDesc::UINT32 ||
         t.basetype == OIIO::TypeDesc::INT16 || t.basetype == OIIO::TypeDesc::UINT16 ||
         t.basetype == OIIO::TypeDesc::FLOAT || t.basetype == OIIO::TypeDesc::DOUBLE;
}

std::shared_ptr<const ImageMetadata> metadata_of(const OIIO::ImageSpec& spec) {
  auto m = std::make_shared<ImageMetadata>();
  for (const OIIO::ParamValue& p : spec.extra_attribs)
    if (!is_encoding_detail(p.name().string()) && carried_value(p)) m->attributes.push_back(p);
  return m;
}

// The options as the writer for `format` takes them.
void apply_write_options(OIIO::ImageSpec& spec, const std::string& format, const WriteOptions& o,
                         const std::filesystem::path& path) {
  if (o.quality && (*o.quality < 1 || *o.quality > 100))
    throw InvalidArgument("--quality must be 1 to 100; got " + std::to_string(*o.quality));
  const int quality = o.quality.value_or(95);
  if (format == "jpeg" || format == "webp" || format == "heif") {
    spec.attribute("Compression", format + ":" + std::to_string(quality));
    spec.attribute("CompressionQuality", quality);
    if (!o.compression.empty())
      throw InvalidArgument("--compression is for PNG, TIFF and OpenEXR; " + format + " takes --quality");
    return;
  }
  if (o.quality) throw InvalidArgument("--quality is for JPEG, WebP and HEIF; '" + path.string() + "' is " + format);
  if (format == "png") {
    int level = 4;
    if (!o.compression.empty()) {
      const std::string& c = o.compression;
      if (c.size() != 1 || c[0] < '0' || c[0] > '9')
        throw InvalidArgument("--compression for PNG is a zlib level 0 to 9; got '" + c + "'");
      level = c[0] - '0';
    }
    spec.attribute("png:compressionLevel", level);
    return;
  }
  if (!o.compression.empty()) spec.attribute("Compression", o.compression);
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

Image read_image(const std::filesystem::path& path, std::uint64_t max_pixel_bytes) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IoError("cannot read '" + path.string() + "': no such file");
  refuse_known_reader_crashes(path);
  const OIIO::ImageSpec config = raw_alpha_config();
  probe_header_in_child(path, config);
  QuietStderr quiet;
  auto in = OIIO::ImageInput::open(path.string(), &config);
  if (!in) throw IoError("cannot read '" + path.string() + "': " + first_line(OIIO::geterror()));
  const OIIO::ImageSpec& spec = in->spec();
  if (spec.deep) throw IoError("cannot read '" + path.string() + "': deep images are not supported");
  if (spec.width < 1 || spec.height < 1 || spec.nchannels < 1)
    throw IoError("cannot read '" + path.string() + "': the image is empty");
  if (spec.depth > 1) throw IoError("cannot read '" + path.string() + "': volume images are not supported; use .npy");
  Image im;
  im.width = spec.width;
  im.height = spec.height;
  im.channels = spec.nchannels;
  im.format = in->format_name();
  im.metadata = metadata_of(spec);
  switch (spec.format.basetype) {
    case OIIO::TypeDesc::UINT8: im.type = ElementType::u8; break;
    case OIIO::TypeDesc::UINT16: im.type = ElementType::u16; break;
    case OIIO::TypeDesc::HALF: im.type = ElementType::f16; break;
    case OIIO::TypeDesc::DOUBLE: im.type = ElementType::f64; break;
    default: im.type = ElementType::f32; break;
  }
  // Width, height and channels are ints from the file's header: their product can pass 2^64.
  const std::optional<std::uint64_t> bytes =
      core::checked_product({static_cast<std::uint64_t>(im.width), static_cast<std::uint64_t>(im.height),
                             static_cast<std::uint64_t>(im.channels), element_size(im.type)});
  if (!bytes || *bytes > max_pixel_bytes || *bytes > core::kMaxAllocationBytes)
    throw OutOfMemory("cannot read '" + path.string() + "': its " + std::to_string(im.width) + "x" +
                      std::to_string(im.height) + "x" + std::to_string(im.channels) + " " +
                      std::string(to_string(im.type)) + " pixels need " +
                      (bytes ? std::to_string(*bytes) + " bytes" : std::string("more than 2^64 bytes")) +
                      (bytes && *bytes <= core::kMaxAllocationBytes ? ", more than the limit of " + std::to_string(max_pixel_bytes)
                                                                    : std::string(", more than can be addressed")));
  try {
    im.pixels.resize(static_cast<std::size_t>(*bytes));
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("cannot allocate " + std::to_string(*bytes) + " bytes for '" + path.string() + "'");
  }
  const bool ok = in->read_image(0, 0, 0, im.channels, oiio_type(im.type), im.pixels.data());
  const std::string err = in->has_error() ? in->geterror() : "";
  in->close();
  if (!ok || !err.empty())
    throw IoError("cannot read '" + path.string() + "': " + first_line(err.empty() ? OIIO::geterror() : err));
  return im;
}

bool is_writable_image_path(const std::filesystem::path& path) {
  auto out = OIIO::ImageOutput::create(path.string());
  (void)OIIO::geterror();  // clear the message a failed create leaves behind
  return out != nullptr;
}

void write_image(const std::filesystem::path& path, const Image& image, std::optional<ElementType> file_type,
                 const WriteOptions& options) {
  AtomicFile file(path);
  // Once with the image's metadata; a writer that refuses it (libpng checks ICC profiles that
  // libjpeg passed) gets the pixels without it and a warning, rather than no file.
  std::string metadata_error;
  {
    QuietStderr quiet;  // codecs' own messages; ours are printed after it
    for (const bool with_metadata : {true, false}) {
      if (!with_metadata && !image.metadata) break;
      auto out = OIIO::ImageOutput::create(file.temporary_path().string());
      if (!out) throw IoError("cannot write '" + path.string() + "': " + first_line(OIIO::geterror()));
      OIIO::ImageSpec spec(static_cast<int>(image.width), static_cast<int>(image.height), image.channels,
                           oiio_type(file_type.value_or(image.type)));
      if (with_metadata && image.metadata)
        for (const OIIO::ParamValue& p : image.metadata->attributes) spec.attribute(p.name().string(), p.type(), p.data());
      spec.attribute("oiio:UnassociatedAlpha", 1);
      apply_write_options(spec, out->format_name(), options, path);
      bool ok = out->open(file.temporary_path().string(), spec);
      ok = ok && out->write_image(oiio_type(image.type), image.pixels.data());
      ok = out->close() && ok;
      if (ok) {
        file.commit();
        if (with_metadata) metadata_error.clear();
        break;
      }
      const std::string error = first_line(out->geterror());
      if (!with_metadata || !image.metadata) throw IoError("cannot write '" + path.string() + "': " + error);
      metadata_error = error;
    }
  }
  if (!metadata_error.empty())
    std::fprintf(stderr, "fastblur: warning: '%s' was written without the input's metadata (%s)\n",
                 path.string().c_str(), metadata_error.c_str());
}

}  // namespace fastblur::io
