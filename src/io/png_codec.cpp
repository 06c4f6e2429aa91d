#include "io/png_codec.hpp"

#include <png.h>
#include <zlib.h>

#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "core/size.hpp"
#include "fastblur/error.hpp"
#include "io/row_codec.hpp"
#include "io/write_options.hpp"

namespace fastblur::io::png {
namespace {

namespace fs = std::filesystem;

// libpng reports errors by longjmp: the message is kept here, and every call into libpng runs inside
// guarded(), whose frame holds the setjmp and no object with a destructor.
struct Errors {
  char message[256] = "";
};

void on_error(png_structp png, png_const_charp message) {
  auto* e = static_cast<Errors*>(png_get_error_ptr(png));
  std::snprintf(e->message, sizeof e->message, "%s", message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}  // benign: the file is still read or written

template <class F>
bool guarded(png_structp png, F&& f) {
  if (setjmp(png_jmpbuf(png))) return false;
  f();
  return true;
}

FILE* open_file(const fs::path& path, const char* mode, const fs::path& shown, const char* verb) {
  FILE* f = std::fopen(path.c_str(), mode);
  if (!f) throw IoError(std::string("cannot ") + verb + " '" + shown.string() + "': " + std::strerror(errno));
  return f;
}

class Reader final : public ImageRowReader {
 public:
  explicit Reader(const fs::path& path) : path_(path) {
    file_ = open_file(path, "rb", path, "read");
    png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors_, on_error, on_warning);
    if (png_) info_ = png_create_info_struct(png_);
    if (!png_ || !info_) throw OutOfMemory("cannot read '" + path.string() + "': out of memory");
  }
  ~Reader() override {
    png_destroy_read_struct(&png_, info_ ? &info_ : nullptr, nullptr);
    std::fclose(file_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the header; false for an interlaced file.
  bool start() {
    int interlace = 0, channels = 0, depth = 0;
    png_uint_32 width = 0, height = 0;
    const bool ok = guarded(png_, [&] {
      png_init_io(png_, file_);
      png_set_crc_action(png_, PNG_CRC_DEFAULT, PNG_CRC_DEFAULT);
      png_read_info(png_, info_);
      width = png_get_image_width(png_, info_);
      height = png_get_image_height(png_, info_);
      interlace = png_get_interlace_type(png_, info_);
      const int type = png_get_color_type(png_, info_);
      depth = png_get_bit_depth(png_, info_);
      if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png_);
      if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png_);
      if (png_get_valid(png_, info_, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png_);
      if (depth == 16) png_set_swap(png_);  // native (little-endian) uint16
      png_read_update_info(png_, info_);
      channels = png_get_channels(png_, info_);
      depth = png_get_bit_depth(png_, info_);
    });
    if (!ok) throw IoError("cannot read '" + path_.string() + "': " + errors_.message);
    if (interlace != PNG_INTERLACE_NONE) return false;
    if (width < 1 || height < 1 || channels < 1 || channels > 4 || (depth != 8 && depth != 16))
      throw IoError("cannot read '" + path_.string() + "': unsupported PNG layout");
    header_.width = width;
    header_.height = height;
    header_.channels = channels;
    header_.type = depth == 16 ? ElementType::u16 : ElementType::u8;
    header_.format = "png";
    header_.metadata = read_metadata();
    return true;
  }

  const ImageHeader& header() const override { return header_; }

  void read_rows(std::int64_t y0, std::int64_t y1, std::byte* out) override {
    check_row_order(path_, "read", y0, y1, next_, header_.height);
    const std::size_t row = static_cast<std::size_t>(header_.width * header_.channels) * element_size(header_.type);
    const bool ok = guarded(png_, [&] {
      for (std::int64_t y = y0; y < y1; ++y) png_read_row(png_, reinterpret_cast<png_bytep>(out + (y - y0) * row), nullptr);
    });
    if (!ok) throw IoError("cannot read '" + path_.string() + "': " + errors_.message);
    next_ = y1;
  }

 private:
  std::shared_ptr<const ImageMetadata> read_metadata() {
    auto m = std::make_shared<ImageMetadata>();
    png_charp name = nullptr;
    int compression = 0;
    png_bytep icc = nullptr, exif = nullptr;
    png_uint_32 icc_size = 0, exif_size = 0, x = 0, y = 0;
    int unit = 0, text_count = 0;
    png_textp text = nullptr;
    const bool ok = guarded(png_, [&] {
      if (png_get_iCCP(png_, info_, &name, &compression, &icc, &icc_size) != PNG_INFO_iCCP) icc = nullptr;
      if (png_get_eXIf_1(png_, info_, &exif_size, &exif) != PNG_INFO_eXIf) exif = nullptr;
      if (png_get_pHYs(png_, info_, &x, &y, &unit) != PNG_INFO_pHYs) unit = -1;
      png_get_text(png_, info_, &text, &text_count);
    });
    if (!ok) return m;
    if (icc) m->icc.assign(icc, icc + icc_size);
    if (exif) m->exif.assign(exif, exif + exif_size);
    if (unit == PNG_RESOLUTION_METER && x > 0 && y > 0) m->x_resolution = x * 0.0254, m->y_resolution = y * 0.0254;
    for (int i = 0; text && i < text_count; ++i)
      if (text[i].key && text[i].text) m->text.emplace_back(text[i].key, std::string(text[i].text, text[i].text_length));
    return m;
  }

  fs::path path_;
  FILE* file_ = nullptr;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
  Errors errors_;
  ImageHeader header_;
  std::int64_t next_ = 0;
};

class Writer final : public SequentialRowWriter {
 public:
  Writer(const fs::path& temp, const fs::path& target, const ImageHeader& header, ElementType file_type,
         const WriteOptions& options)
      : SequentialRowWriter(target, header, file_type, false), temp_(temp) {
    const std::optional<int> level = png_compression_level(options, target);
    if (header.width > 0x7FFFFFFF || header.height > 0x7FFFFFFF)
      throw IoError("cannot write '" + target.string() + "': PNG holds at most 2^31-1 pixels per side");
    // With the metadata first; libpng refuses some ICC profiles other formats carried: then without.
    if (!start(level, header.metadata.get())) {
      const std::string refused = errors_.message;
      if (!header.metadata) throw IoError("cannot write '" + target.string() + "': " + refused);
      close();
      if (!start(level, nullptr)) throw IoError("cannot write '" + target.string() + "': " + errors_.message);
      std::fprintf(stderr, "fastblur: warning: '%s' was written without the input's metadata (%s)\n",
                   target.string().c_str(), refused.c_str());
    }
  }
  ~Writer() override { close(); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write_row(std::int64_t, std::byte* row) override {
    if (!guarded(png_, [&] { png_write_row(png_, reinterpret_cast<png_const_bytep>(row)); })) fail(errors_.message);
  }

  void finish() override {
    if (!guarded(png_, [&] { png_write_end(png_, info_); })) fail(errors_.message);
    close_written(file_, target());
  }

 private:
  bool start(std::optional<int> level, const ImageMetadata* m) {
    file_ = open_file(temp_, "wb", target(), "write");
    png_ = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors_, on_error, on_warning);
    if (png_) info_ = png_create_info_struct(png_);
    if (!png_ || !info_) throw OutOfMemory("cannot write '" + target().string() + "': out of memory");
    static constexpr int kColour[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA};
    std::vector<png_text> text;
    if (m)
      for (const auto& [key, value] : m->text) {
        png_text t{};
        t.compression = PNG_TEXT_COMPRESSION_NONE;
        t.key = const_cast<png_charp>(key.c_str());
        t.text = const_cast<png_charp>(value.c_str());
        t.text_length = value.size();
        if (!key.empty() && key.size() < 80) text.push_back(t);
      }
    return guarded(png_, [&] {
      png_init_io(png_, file_);
      if (level) {
        png_set_compression_level(png_, *level);
      } else {
        // The default: Paeth prediction and run-length deflate. On an 11 MPix photo blurred at sigma 4
        // (bench/RESULTS.md) 0.48 s and 7.8 MB for the whole command, against 0.86 s and 8.1 MB for
        // zlib level 4 with adaptive filters (OpenImageIO's way) and vips' 0.79 s and 18.8 MB.
        png_set_filter(png_, 0, PNG_FILTER_PAETH);
        png_set_compression_strategy(png_, Z_RLE);
      }
      png_set_IHDR(png_, info_, static_cast<png_uint_32>(header().width), static_cast<png_uint_32>(header().height),
                   file_type() == ElementType::u16 ? 16 : 8, kColour[header().channels], PNG_INTERLACE_NONE,
                   PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      if (m) {
        if (!m->icc.empty())
          png_set_iCCP(png_, info_, "icc", PNG_COMPRESSION_TYPE_BASE, m->icc.data(), static_cast<png_uint_32>(m->icc.size()));
        if (!m->exif.empty() && m->exif.size() < 0x7FFFFFFF)
          png_set_eXIf_1(png_, info_, static_cast<png_uint_32>(m->exif.size()), const_cast<png_bytep>(m->exif.data()));
        if (m->x_resolution > 0 && m->y_resolution > 0 && m->x_resolution < 1e6 && m->y_resolution < 1e6)
          png_set_pHYs(png_, info_, static_cast<png_uint_32>(std::lround(m->x_resolution / 0.0254)),
                       static_cast<png_uint_32>(std::lround(m->y_resolution / 0.0254)), PNG_RESOLUTION_METER);
        if (!text.empty()) png_set_text(png_, info_, text.data(), static_cast<int>(text.size()));
      }
      png_write_info(png_, info_);
      if (file_type() == ElementType::u16) png_set_swap(png_);
    });
  }

  void close() {
    if (png_) png_destroy_write_struct(&png_, info_ ? &info_ : nullptr);
    png_ = nullptr, info_ = nullptr;
    if (file_) std::fclose(file_);
    file_ = nullptr;
  }

  fs::path temp_;
  FILE* file_ = nullptr;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
  Errors errors_;
};

}  // namespace

bool is_png(std::span<const unsigned char> start) {
  return start.size() >= 8 && png_sig_cmp(start.data(), 0, 8) == 0;
}

std::unique_ptr<ImageRowReader> open_rows(const fs::path& path) {
  auto r = std::make_unique<Reader>(path);
  if (!r->start()) return nullptr;
  return r;
}

bool writes(ElementType file_type, int channels) {
  return (file_type == ElementType::u8 || file_type == ElementType::u16) && channels >= 1 && channels <= 4;
}

std::unique_ptr<ImageRowWriter> create_rows(const fs::path& temp, const fs::path& target, const ImageHeader& header,
                                            ElementType file_type, const WriteOptions& options) {
  return std::make_unique<Writer>(temp, target, header, file_type, options);
}

}  // namespace fastblur::io::png
