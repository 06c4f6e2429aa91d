#include "io/tiff_codec.hpp"

#include <tiffio.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "fastblur/error.hpp"
#include "io/row_codec.hpp"

namespace fastblur::io::tiff {
namespace {

namespace fs = std::filesystem;

// libtiff reports through handlers given per file (TIFFOpenOptions): the first error is kept for
// the exception, warnings are dropped.
struct Errors {
  std::string message;
};

int on_error(TIFF*, void* user, const char* module, const char* format, va_list args) {
  auto* e = static_cast<Errors*>(user);
  if (e->message.empty()) {
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    e->message = text;
    (void)module;
  }
  return 1;  // handled: not printed by libtiff's global handler
}
int on_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

TIFF* open_tiff(const fs::path& path, const char* mode, Errors& errors) {
  TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
  if (!options) return nullptr;
  TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, &errors);
  TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, nullptr);
  TIFF* t = TIFFOpenExt(path.c_str(), mode, options);
  TIFFOpenOptionsFree(options);
  return t;
}

std::string reason(const Errors& e) { return e.message.empty() ? std::string("libtiff failed") : e.message; }

class Reader final : public ImageRowReader {
 public:
  // `errors` is where the handle's error handler writes (given at open): kept as long as the handle.
  Reader(const fs::path& path, TIFF* tif, ImageHeader header, std::unique_ptr<Errors> errors)
      : path_(path), tif_(tif), header_(std::move(header)), errors_(std::move(errors)) {}
  ~Reader() override { TIFFClose(tif_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  const ImageHeader& header() const override { return header_; }

  void read_rows(std::int64_t y0, std::int64_t y1, std::byte* out) override {
    check_row_order(path_, "read", y0, y1, next_, header_.height);
    const std::size_t row = static_cast<std::size_t>(header_.width * header_.channels) * element_size(header_.type);
    for (std::int64_t y = y0; y < y1; ++y)
      if (TIFFReadScanline(tif_, out + (y - y0) * row, static_cast<std::uint32_t>(y), 0) < 0)
        throw IoError("cannot read '" + path_.string() + "': " + reason(*errors_));
    next_ = y1;
  }

 private:
  fs::path path_;
  TIFF* tif_;
  ImageHeader header_;
  std::unique_ptr<Errors> errors_;
  std::int64_t next_ = 0;
};

// The compression asked for, as libtiff's code and zip level (0: its default); none when this codec
// does not write it.
struct Compression {
  std::uint16_t scheme = COMPRESSION_NONE;
  int level = 0;
};
std::optional<Compression> compression_of(const std::string& text) {
  std::string name = text, level;
  if (const auto colon = text.find(':'); colon != std::string::npos) name = text.substr(0, colon), level = text.substr(colon + 1);
  Compression c;
  if (name.empty() || name == "none") c.scheme = COMPRESSION_NONE;
  else if (name == "lzw") c.scheme = COMPRESSION_LZW;
  else if (name == "zip" || name == "deflate") c.scheme = COMPRESSION_ADOBE_DEFLATE;
  else if (name == "packbits") c.scheme = COMPRESSION_PACKBITS;
  else return std::nullopt;
  if (!level.empty()) {
    if (c.scheme != COMPRESSION_ADOBE_DEFLATE || level.size() != 1 || level[0] < '1' || level[0] > '9') return std::nullopt;
    c.level = level[0] - '0';
  }
  return c;
}

class Writer final : public SequentialRowWriter {
 public:
  Writer(const fs::path& temp, const fs::path& target, const ImageHeader& header, ElementType file_type,
         const WriteOptions& options)
      : SequentialRowWriter(target, header, file_type, true) {  // libtiff may change the row it is given
    const Compression c = *compression_of(options.compression);
    const double bytes = static_cast<double>(header.width) * static_cast<double>(header.height) * header.channels *
                         static_cast<double>(element_size(file_type));
    if (header.width > 0xFFFFFFFFLL || header.height > 0xFFFFFFFFLL)
      throw IoError("cannot write '" + target.string() + "': TIFF holds at most 2^32-1 pixels per side");
    tif_ = open_tiff(temp, bytes > 3.5 * (1ull << 30) ? "w8" : "w", errors_);  // BigTIFF past ~4 GiB
    if (!tif_) throw IoError("cannot write '" + target.string() + "': " + reason(errors_));
    const int bits = static_cast<int>(element_size(file_type)) * 8;
    bool ok = TIFFSetField(tif_, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(header.width)) &&
              TIFFSetField(tif_, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(header.height)) &&
              TIFFSetField(tif_, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(header.channels)) &&
              TIFFSetField(tif_, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(bits)) &&
              TIFFSetField(tif_, TIFFTAG_SAMPLEFORMAT,
                           static_cast<std::uint16_t>(file_type == ElementType::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT)) &&
              TIFFSetField(tif_, TIFFTAG_PLANARCONFIG, static_cast<std::uint16_t>(PLANARCONFIG_CONTIG)) &&
              TIFFSetField(tif_, TIFFTAG_PHOTOMETRIC,
                           static_cast<std::uint16_t>(header.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK)) &&
              TIFFSetField(tif_, TIFFTAG_COMPRESSION, c.scheme);
    if (ok && (header.channels == 2 || header.channels == 4)) {
      const std::uint16_t alpha[1] = {EXTRASAMPLE_UNASSALPHA};  // pixels are stored as blurred, not premultiplied
      ok = TIFFSetField(tif_, TIFFTAG_EXTRASAMPLES, std::uint16_t{1}, alpha);
    }
    if (ok && (c.scheme == COMPRESSION_LZW || c.scheme == COMPRESSION_ADOBE_DEFLATE))
      ok = TIFFSetField(tif_, TIFFTAG_PREDICTOR,
                        static_cast<std::uint16_t>(file_type == ElementType::f32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL));
    if (ok && c.level) ok = TIFFSetField(tif_, TIFFTAG_ZIPQUALITY, c.level);
    if (ok) ok = TIFFSetField(tif_, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif_, 0));
    if (const ImageMetadata* m = header.metadata.get(); ok && m) {
      if (!m->icc.empty()) ok = TIFFSetField(tif_, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(m->icc.size()), m->icc.data());
      if (ok && m->x_resolution > 0 && m->y_resolution > 0)
        ok = TIFFSetField(tif_, TIFFTAG_XRESOLUTION, m->x_resolution) && TIFFSetField(tif_, TIFFTAG_YRESOLUTION, m->y_resolution) &&
             TIFFSetField(tif_, TIFFTAG_RESOLUTIONUNIT, static_cast<std::uint16_t>(RESUNIT_INCH));
      for (const auto& [key, value] : m->text)
        if (ok && key == "Description") ok = TIFFSetField(tif_, TIFFTAG_IMAGEDESCRIPTION, value.c_str());
    }
    if (!ok) {
      TIFFClose(tif_);
      tif_ = nullptr;
      throw IoError("cannot write '" + target.string() + "': " + reason(errors_));
    }
  }
  ~Writer() override {
    if (tif_) TIFFClose(tif_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write_row(std::int64_t y, std::byte* row) override {
    if (TIFFWriteScanline(tif_, row, static_cast<std::uint32_t>(y), 0) < 0) fail(reason(errors_));
  }

  void finish() override {
    const bool ok = TIFFFlush(tif_) == 1;
    TIFFClose(tif_);
    tif_ = nullptr;
    if (!ok) fail(reason(errors_));
  }

 private:
  Errors errors_;  // before tif_: the handle's handlers point here
  TIFF* tif_ = nullptr;
};

}  // namespace

bool is_tiff(std::span<const unsigned char> h) {
  if (h.size() < 4) return false;
  return (h[0] == 'I' && h[1] == 'I' && (h[2] == 42 || h[2] == 43) && h[3] == 0) ||
         (h[0] == 'M' && h[1] == 'M' && h[2] == 0 && (h[3] == 42 || h[3] == 43));
}

std::unique_ptr<ImageRowReader> open_rows(const fs::path& path) {
  auto errors = std::make_unique<Errors>();
  TIFF* tif = open_tiff(path, "rm", *errors);  // m: read(), not mmap - mapped pages of a 4 GB scan count as resident
  if (!tif) throw IoError("cannot read '" + path.string() + "': " + reason(*errors));
  std::uint32_t width = 0, height = 0;
  std::uint16_t channels = 0, bits = 0, format = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG, photometric = 0,
                orientation = ORIENTATION_TOPLEFT;
  std::uint64_t exif = 0;
  const bool ours = !TIFFIsTiled(tif) && TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) &&
                    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height) &&
                    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &channels) &&
                    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits) &&
                    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format) &&
                    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar) &&
                    TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric) &&
                    (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_RGB) &&
                    planar == PLANARCONFIG_CONTIG && channels >= 1 && channels <= 4 && width > 0 && height > 0 &&
                    ((format == SAMPLEFORMAT_UINT && (bits == 8 || bits == 16)) || (format == SAMPLEFORMAT_IEEEFP && bits == 32)) &&
                    !TIFFGetField(tif, TIFFTAG_EXIFIFD, &exif) &&
                    (!TIFFGetField(tif, TIFFTAG_ORIENTATION, &orientation) || orientation == ORIENTATION_TOPLEFT) &&
                    TIFFNumberOfDirectories(tif) == 1;
  if (!ours) {
    TIFFClose(tif);
    return nullptr;
  }
  ImageHeader h;
  h.width = width;
  h.height = height;
  h.channels = channels;
  h.type = format == SAMPLEFORMAT_IEEEFP ? ElementType::f32 : bits == 16 ? ElementType::u16 : ElementType::u8;
  h.format = "tiff";
  auto m = std::make_shared<ImageMetadata>();
  std::uint32_t icc_size = 0;
  void* icc = nullptr;
  if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc && icc_size > 0)
    m->icc.assign(static_cast<const std::uint8_t*>(icc), static_cast<const std::uint8_t*>(icc) + icc_size);
  float x = 0, y = 0;
  std::uint16_t unit = RESUNIT_INCH;
  TIFFGetFieldDefaulted(tif, TIFFTAG_RESOLUTIONUNIT, &unit);
  if (unit != RESUNIT_NONE && TIFFGetField(tif, TIFFTAG_XRESOLUTION, &x) && TIFFGetField(tif, TIFFTAG_YRESOLUTION, &y) &&
      x > 0 && y > 0) {
    const double per_inch = unit == RESUNIT_CENTIMETER ? 2.54 : 1.0;
    m->x_resolution = x * per_inch, m->y_resolution = y * per_inch;
  }
  char* description = nullptr;
  if (TIFFGetField(tif, TIFFTAG_IMAGEDESCRIPTION, &description) && description) m->text.emplace_back("Description", description);
  h.metadata = m;
  return std::make_unique<Reader>(path, tif, h, std::move(errors));
}

bool writes(ElementType file_type, int channels, const ImageMetadata* metadata, const WriteOptions& options) {
  // Metadata only this codec's own reader produced: EXIF and the image module's attributes are the
  // module's to write (libtiff would need an EXIF directory we do not build).
  const bool metadata_ok = !metadata || (metadata->exif.empty() && !metadata->attributes);
  return (file_type == ElementType::u8 || file_type == ElementType::u16 || file_type == ElementType::f32) &&
         channels >= 1 && channels <= 4 && metadata_ok && !options.quality && compression_of(options.compression);
}

std::unique_ptr<ImageRowWriter> create_rows(const fs::path& temp, const fs::path& target, const ImageHeader& header,
                                            ElementType file_type, const WriteOptions& options) {
  return std::make_unique<Writer>(temp, target, header, file_type, options);
}

}  // namespace fastblur::io::tiff
