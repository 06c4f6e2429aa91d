// The image module (libfastblur_image.so): every use of OpenImageIO, behind image_codecs.hpp's table.
#include <OpenImageIO/imageio.h>
#include <OpenImageIO/tiffutils.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <vector>
#include <fstream>
#include <optional>
#include <string>

#include "core/size.hpp"
#include "fastblur/error.hpp"
#include "io/image_codecs.hpp"
#include "io/write_options.hpp"

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
//  - OpenEXR: the header reader sizes each attribute's value by the size the file claims, so a
//    600-byte file claiming a string attribute of 2 GiB has it allocated and zeroed before the read
//    fails (found by tests/fuzz/fuzz_serve: more than 30 s and gigabytes). Every attribute of every
//    header must fit in the file.
void refuse_corrupt_exr_header(const std::filesystem::path& path, std::ifstream& in) {
  std::error_code ec;
  const std::uintmax_t file_size = std::filesystem::file_size(path, ec);
  if (ec) return;
  std::vector<char> buf(static_cast<std::size_t>(std::min<std::uintmax_t>(file_size, 16u << 20)));
  in.clear();
  in.seekg(0);
  in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
  const std::size_t size = static_cast<std::size_t>(in.gcount());
  if (size < 8) return;
  const bool multipart = (static_cast<unsigned char>(buf[5]) & 0x10) != 0;  // version flags, bit 12
  std::size_t at = 8;
  const auto text_end = [&](std::size_t from) -> std::size_t {  // index of the NUL ending a name, or size
    const void* nul = std::memchr(buf.data() + from, 0, std::min<std::size_t>(size - from, 256));
    return nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - buf.data()) : size;
  };
  for (int headers = 0; headers < 4096 && at < size; ++headers) {
    if (headers > 0 && buf[at] == 0) return;  // the empty header ending a multi-part file's list
    for (int attributes = 0; attributes < 100000; ++attributes) {
      const std::size_t name_end = text_end(at);
      if (name_end >= size) return;  // truncated: OpenEXR says so itself
      if (name_end == at) {          // the empty name ending this header
        ++at;
        break;
      }
      std::string name(buf.data() + at, std::min<std::size_t>(name_end - at, 40));
      for (char& c : name)  // the file's bytes, shown in a one-line message
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
      const std::size_t type_end = text_end(name_end + 1);
      if (type_end + 4 >= size) return;
      std::uint32_t claimed = 0;
      for (int b = 3; b >= 0; --b) claimed = claimed << 8 | static_cast<unsigned char>(buf[type_end + 1 + static_cast<std::size_t>(b)]);
      at = type_end + 5;
      if (claimed > file_size - at)
        throw IoError("cannot read '" + path.string() + "': corrupt OpenEXR header (attribute '" + name +
                      "' claims " + std::to_string(claimed) + " bytes in a file of " + std::to_string(file_size) + ")");
      at += claimed;
    }
    if (!multipart) return;
  }
}

void refuse_known_reader_crashes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char h[36] = {};
  in.read(reinterpret_cast<char*>(h), sizeof h);
  if (in.gcount() >= 8 && h[0] == 0x76 && h[1] == 0x2f && h[2] == 0x31 && h[3] == 0x01) {
    refuse_corrupt_exr_header(path, in);
    return;
  }
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
  // A child forked while another thread held one of OpenImageIO's locks (batches run files in
  // parallel) could wait on it forever: after 20 s it is stopped and the file read without a verdict.
  int status = 0;
  for (int waited_ms = 0;; waited_ms += 5) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return;
    if (waited_ms >= 20000) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return;
    }
    ::usleep(5000);
  }
  if (WIFSIGNALED(status))
    throw IoError("cannot read '" + path.string() + "': corrupt file (OpenImageIO's reader crashed on its header, signal " +
                  std::to_string(WTERMSIG(status)) + ")");
}

}  // namespace

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

// The attributes carried, and the raw form other codecs write (image_file.hpp).
std::shared_ptr<const ImageMetadata> metadata_of(const OIIO::ImageSpec& spec) {
  auto attributes = std::make_shared<OIIO::ParamValueList>();
  for (const OIIO::ParamValue& p : spec.extra_attribs)
    if (!is_encoding_detail(p.name().string()) && carried_value(p)) attributes->push_back(p);
  auto m = std::make_shared<ImageMetadata>();
  bool exif = false;
  for (const OIIO::ParamValue& p : *attributes) {
    const std::string name = p.name().string();
    if (name == "ICCProfile") {
      const auto* bytes = static_cast<const std::uint8_t*>(p.data());
      m->icc.assign(bytes, bytes + p.type().numelements());
    }
    exif = exif || name == "Orientation" || name.rfind("Exif:", 0) == 0 || name == "Make" || name == "Model";
  }
  if (exif) {
    OIIO::ImageSpec only;
    for (const OIIO::ParamValue& p : *attributes)
      if (p.name() != "ICCProfile") only.extra_attribs.push_back(p);
    std::vector<char> blob;
    OIIO::encode_exif(only, blob, OIIO::endian::little);
    m->exif.assign(blob.begin(), blob.end());
  }
  const std::string unit = spec.get_string_attribute("ResolutionUnit");
  const double per_inch = unit == "cm" ? 2.54 : unit == "in" || unit == "inch" ? 1.0 : 0.0;
  m->x_resolution = per_inch * spec.get_float_attribute("XResolution");
  m->y_resolution = per_inch * spec.get_float_attribute("YResolution");
  if (!(m->x_resolution > 0 && m->y_resolution > 0)) m->x_resolution = m->y_resolution = 0;
  m->attributes = attributes;
  return m;
}

// The metadata as OpenImageIO attributes of `spec`: the module's own, or built from the raw form.
void apply_metadata(const ImageMetadata& m, OIIO::ImageSpec& spec) {
  if (m.attributes) {
    for (const OIIO::ParamValue& p : *std::static_pointer_cast<const OIIO::ParamValueList>(m.attributes))
      spec.attribute(p.name().string(), p.type(), p.data());
    return;
  }
  if (!m.exif.empty()) {
    OIIO::ImageSpec decoded;
    if (OIIO::decode_exif(OIIO::cspan<std::uint8_t>(m.exif.data(), static_cast<OIIO::oiio_span_size_type>(m.exif.size())), decoded))
      for (const OIIO::ParamValue& p : decoded.extra_attribs)
        if (!is_encoding_detail(p.name().string()) && carried_value(p)) spec.attribute(p.name().string(), p.type(), p.data());
  }
  if (!m.icc.empty())
    spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(m.icc.size())), m.icc.data());
  if (m.x_resolution > 0) {
    spec.attribute("XResolution", static_cast<float>(m.x_resolution));
    spec.attribute("YResolution", static_cast<float>(m.y_resolution));
    spec.attribute("ResolutionUnit", "in");
  }
  for (const auto& [key, value] : m.text)
    if (key == "Comment" || key == "Description") spec.attribute("ImageDescription", value);
}

// The options as the writer for `format` takes them.
void apply_write_options(OIIO::ImageSpec& spec, const std::string& format, const WriteOptions& o,
                         const std::filesystem::path& path) {
  if (format == "jpeg" || format == "webp" || format == "heif") {
    const int quality = lossy_quality(o, format);
    spec.attribute("Compression", format + ":" + std::to_string(quality));
    spec.attribute("CompressionQuality", quality);
    return;
  }
  if (format == "png") {
    spec.attribute("png:compressionLevel", png_compression_level(o, path).value_or(4));
    return;
  }
  if (o.quality && (*o.quality < 1 || *o.quality > 100))
    throw InvalidArgument("--quality must be 1 to 100; got " + std::to_string(*o.quality));
  if (o.quality) throw InvalidArgument("--quality is for JPEG, WebP and HEIF; '" + path.string() + "' is " + format);
  // TIFF uncompressed unless asked, as tiff_codec writes it (and vips, PIL): zip took 2.4 s of a
  // 2.5 s blur of an 11 MPix photo.
  if (!o.compression.empty()) spec.attribute("Compression", o.compression);
  else if (format == "tiff") spec.attribute("Compression", "none");
}

// The file opened and its header checked: the input stays open for its pixels.
struct OpenedImage {
  std::unique_ptr<OIIO::ImageInput> input;
  ImageHeader header;
};

OpenedImage open_checked(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IoError("cannot read '" + path.string() + "': no such file");
  refuse_known_reader_crashes(path);
  const OIIO::ImageSpec config = raw_alpha_config();
  probe_header_in_child(path, config);
  QuietStderr quiet;
  OpenedImage o;
  o.input = OIIO::ImageInput::open(path.string(), &config);
  if (!o.input) throw IoError("cannot read '" + path.string() + "': " + first_line(OIIO::geterror()));
  const OIIO::ImageSpec& spec = o.input->spec();
  if (spec.deep) throw IoError("cannot read '" + path.string() + "': deep images are not supported");
  if (spec.width < 1 || spec.height < 1 || spec.nchannels < 1)
    throw IoError("cannot read '" + path.string() + "': the image is empty");
  if (spec.depth > 1) throw IoError("cannot read '" + path.string() + "': volume images are not supported; use .npy");
  ImageHeader& h = o.header;
  h.width = spec.width;
  h.height = spec.height;
  h.channels = spec.nchannels;
  h.format = o.input->format_name();
  h.metadata = metadata_of(spec);
  switch (spec.format.basetype) {
    case OIIO::TypeDesc::UINT8: h.type = ElementType::u8; break;
    case OIIO::TypeDesc::UINT16: h.type = ElementType::u16; break;
    case OIIO::TypeDesc::HALF: h.type = ElementType::f16; break;
    case OIIO::TypeDesc::DOUBLE: h.type = ElementType::f64; break;
    default: h.type = ElementType::f32; break;
  }
  return o;
}

class OiioRowReader final : public ImageRowReader {
 public:
  OiioRowReader(std::filesystem::path path, OpenedImage o) : path_(std::move(path)), o_(std::move(o)) {
    // A row must be addressable (width and channels are ints from the file's header).
    const ImageHeader& h = o_.header;
    const auto row = core::checked_product({static_cast<std::uint64_t>(h.width), static_cast<std::uint64_t>(h.channels),
                                            element_size(h.type)});
    if (!row || *row > core::kMaxAllocationBytes)
      throw OutOfMemory("cannot read '" + path_.string() + "': one of its rows is more than can be addressed");
  }
  ~OiioRowReader() override { o_.input->close(); }
  const ImageHeader& header() const override { return o_.header; }
  void read_rows(std::int64_t y0, std::int64_t y1, std::byte* out) override {
    const ImageHeader& h = o_.header;
    if (y0 < 0 || y1 > h.height || y0 > y1) throw IoError("cannot read '" + path_.string() + "': rows out of range");
    if (y0 == y1) return;
    const std::size_t row = static_cast<std::size_t>(h.width * h.channels) * element_size(h.type);
    if (y0 == 0 && y1 == h.height) return read_whole(out);
    // OpenImageIO 2.4's read_scanlines divides by zero on tiled files (SIGFPE): those are read whole,
    // once, and served from memory - a tiled file is not streamed.
    if (o_.input->spec().tile_width > 0) {
      if (whole_.empty()) {
        try {
          whole_.resize(row * static_cast<std::size_t>(h.height));
        } catch (const std::bad_alloc&) {
          throw OutOfMemory("cannot allocate the tiled image '" + path_.string() + "' whole");
        }
        read_whole(whole_.data());
      }
      std::memcpy(out, whole_.data() + static_cast<std::size_t>(y0) * row, static_cast<std::size_t>(y1 - y0) * row);
      return;
    }
    QuietStderr quiet;
    check(o_.input->read_scanlines(0, 0, static_cast<int>(y0), static_cast<int>(y1), 0, 0, h.channels,
                                   oiio_type(h.type), out));
  }

 private:
  void read_whole(std::byte* out) {
    QuietStderr quiet;
    check(o_.input->read_image(0, 0, 0, o_.header.channels, oiio_type(o_.header.type), out));
  }
  void check(bool ok) {
    const std::string err = o_.input->has_error() ? o_.input->geterror() : "";
    if (!ok || !err.empty())
      throw IoError("cannot read '" + path_.string() + "': " + first_line(err.empty() ? OIIO::geterror() : err));
  }

  std::filesystem::path path_;
  OpenedImage o_;
  std::vector<std::byte> whole_;  // tiled files only
};

std::unique_ptr<ImageRowReader> open_rows(const std::filesystem::path& path) {
  OpenedImage o = open_checked(path);
  return std::make_unique<OiioRowReader>(path, std::move(o));
}

bool is_writable_image_path(const std::filesystem::path& path) {
  auto out = OIIO::ImageOutput::create(path.string());
  (void)OIIO::geterror();  // clear the message a failed create leaves behind
  return out != nullptr;
}

// An output opened on `file`'s temporary path: with the header's metadata, or - when the writer
// refuses it at open (libpng checks ICC profiles that libjpeg passed) - without it, with a warning
// printed once the file is complete, rather than no file.
struct OpenedOutput {
  std::unique_ptr<OIIO::ImageOutput> output;
  std::string metadata_error;
};

OpenedOutput open_output(const std::filesystem::path& temp, const std::filesystem::path& path, const ImageHeader& header,
                         std::optional<ElementType> file_type, const WriteOptions& options) {
  OpenedOutput o;
  for (const bool with_metadata : {true, false}) {
    if (!with_metadata && !header.metadata) break;
    o.output = OIIO::ImageOutput::create(temp.string());
    if (!o.output) throw IoError("cannot write '" + path.string() + "': " + first_line(OIIO::geterror()));
    OIIO::ImageSpec spec(static_cast<int>(header.width), static_cast<int>(header.height), header.channels,
                         oiio_type(file_type.value_or(header.type)));
    if (with_metadata && header.metadata) apply_metadata(*header.metadata, spec);
    spec.attribute("oiio:UnassociatedAlpha", 1);
    apply_write_options(spec, o.output->format_name(), options, path);
    if (o.output->open(temp.string(), spec)) return o;
    const std::string error = first_line(o.output->geterror());
    if (!with_metadata || !header.metadata) throw IoError("cannot write '" + path.string() + "': " + error);
    o.metadata_error = error;
  }
  throw IoError("cannot write '" + path.string() + "'");
}

void warn_without_metadata(const std::filesystem::path& path, const std::string& error) {
  if (!error.empty())
    std::fprintf(stderr, "fastblur: warning: '%s' was written without the input's metadata (%s)\n",
                 path.string().c_str(), error.c_str());
}

void write_image(const std::filesystem::path& temp, const std::filesystem::path& path, const Image& image,
                 std::optional<ElementType> file_type, const WriteOptions& options) {
  const ImageHeader header{image.width, image.height, image.channels, image.type, image.format, image.metadata};
  std::string metadata_error;
  // Once with the image's metadata; a writer that fails with it (at open, or on its pixels) gets the
  // pixels without it and a warning, rather than no file.
  for (const bool with_metadata : {true, false}) {
    if (!with_metadata && !image.metadata) break;
    ImageHeader h = header;
    if (!with_metadata) h.metadata = nullptr;
    {
      QuietStderr quiet;  // codecs' own messages; ours are printed after it
      OpenedOutput o = open_output(temp, path, h, file_type, options);
      if (!o.metadata_error.empty()) metadata_error = o.metadata_error;
      bool ok = o.output->write_image(oiio_type(image.type), image.pixels.data());
      ok = o.output->close() && ok;
      if (ok) {
        if (with_metadata && o.metadata_error.empty()) metadata_error.clear();
        break;
      }
      const std::string error = first_line(o.output->geterror());
      if (!with_metadata || !image.metadata) throw IoError("cannot write '" + path.string() + "': " + error);
      metadata_error = error;
    }
  }
  warn_without_metadata(path, metadata_error);
}

class OiioRowWriter final : public ImageRowWriter {
 public:
  OiioRowWriter(const std::filesystem::path& temp, const std::filesystem::path& path, const ImageHeader& header,
                std::optional<ElementType> file_type, const WriteOptions& options)
      : path_(path), header_(header) {
    QuietStderr quiet;
    o_ = open_output(temp, path, header, file_type, options);
  }
  ~OiioRowWriter() override {
    if (o_.output && !closed_) {
      QuietStderr quiet;  // an unfinished file's complaints (libpng: "No IDATs written"): it is removed anyway
      o_.output->close();
    }
  }
  void write_rows(std::int64_t y0, std::int64_t y1, const std::byte* rows, ElementType type) override {
    if (y0 != next_ || y1 < y0 || y1 > header_.height)
      throw IoError("cannot write '" + path_.string() + "': rows out of order");
    if (y0 == y1) return;
    QuietStderr quiet;
    if (!o_.output->write_scanlines(static_cast<int>(y0), static_cast<int>(y1), 0, oiio_type(type), rows))
      throw IoError("cannot write '" + path_.string() + "': " + first_line(o_.output->geterror()));
    next_ = y1;
  }
  void commit() override {
    if (next_ != header_.height)
      throw IoError("cannot write '" + path_.string() + "': only " + std::to_string(next_) + " of " +
                    std::to_string(header_.height) + " rows were given");
    bool ok;
    {
      QuietStderr quiet;
      closed_ = true;
      ok = o_.output->close();
    }
    if (!ok) throw IoError("cannot write '" + path_.string() + "': " + first_line(o_.output->geterror()));
    warn_without_metadata(path_, o_.metadata_error);
  }

 private:
  std::filesystem::path path_;
  ImageHeader header_;
  OpenedOutput o_;
  std::int64_t next_ = 0;
  bool closed_ = false;
};

std::unique_ptr<ImageRowWriter> create_rows(const std::filesystem::path& temp, const std::filesystem::path& path,
                                            const ImageHeader& header, std::optional<ElementType> file_type,
                                            const WriteOptions& options) {
  return std::make_unique<OiioRowWriter>(temp, path, header, file_type, options);
}

const ImageCodecs kCodecs{kImageCodecsVersion, write_image, is_writable_image_path, open_rows, create_rows};

}  // namespace
}  // namespace fastblur::io

extern "C" __attribute__((visibility("default"))) const fastblur::io::ImageCodecs* fastblur_image_codecs() {
  return &fastblur::io::kCodecs;
}
