#include "io/jpeg_codec.hpp"

// jpeglib.h needs FILE and size_t first.
#include <cstdio>
#include <cstddef>

#include <jerror.h>
#include <jpeglib.h>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstring>
#include <vector>

#include "fastblur/error.hpp"
#include "io/row_codec.hpp"
#include "io/write_options.hpp"

namespace fastblur::io::jpeg {
namespace {

namespace fs = std::filesystem;

// libjpeg reports errors through error_exit, which must not return: it longjmps to the guarded()
// call around every libjpeg call (a frame with no object that has a destructor). Warnings about
// corrupt data are errors too (a truncated file would otherwise decode as grey rows), except
// extraneous bytes before a marker, which many cameras write.
struct Errors {
  jpeg_error_mgr mgr{};
  std::jmp_buf jump{};
  char message[JMSG_LENGTH_MAX] = "";
};

[[noreturn]] void on_error(j_common_ptr c) {
  auto* e = reinterpret_cast<Errors*>(c->err);
  (*c->err->format_message)(c, e->message);
  std::longjmp(e->jump, 1);
}
void on_message(j_common_ptr c, int level) {
  if (level == -1 && c->err->msg_code != JWRN_EXTRANEOUS_DATA) on_error(c);
}
void on_output(j_common_ptr) {}

void init_errors(Errors& e) {
  jpeg_std_error(&e.mgr);
  e.mgr.error_exit = on_error;
  e.mgr.emit_message = on_message;
  e.mgr.output_message = on_output;
}

template <class F>
bool guarded(Errors& e, F&& f) {
  if (setjmp(e.jump)) return false;
  f();
  return true;
}

constexpr char kExif[] = "Exif\0";  // with the terminating NUL: 6 bytes

class Reader final : public ImageRowReader {
 public:
  explicit Reader(const fs::path& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw IoError("cannot read '" + path.string() + "': " + std::strerror(errno));
    init_errors(errors_);
    info_.err = &errors_.mgr;
    if (!guarded(errors_, [&] { jpeg_create_decompress(&info_); }) && (std::fclose(file_), true))
      throw IoError("cannot read '" + path.string() + "': " + errors_.message);
    created_ = true;
  }
  ~Reader() override {
    if (created_) jpeg_destroy_decompress(&info_);
    std::fclose(file_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Reads the header and starts decoding; false for CMYK / YCCK.
  bool start(std::uint64_t max_memory) {
    bool colour_ok = true;
    const bool ok = guarded(errors_, [&] {
      jpeg_stdio_src(&info_, file_);
      jpeg_save_markers(&info_, JPEG_APP0 + 1, 0xFFFF);
      jpeg_save_markers(&info_, JPEG_APP0 + 2, 0xFFFF);
      jpeg_save_markers(&info_, JPEG_COM, 0xFFFF);
      jpeg_read_header(&info_, TRUE);
      colour_ok = info_.jpeg_color_space != JCS_CMYK && info_.jpeg_color_space != JCS_YCCK;
      if (!colour_ok) return;
      info_.out_color_space = info_.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
      info_.mem->max_memory_to_use = static_cast<long>(std::min<std::uint64_t>(max_memory, 0x7FFFFFFF));
    });
    if (!ok) throw IoError("cannot read '" + path_.string() + "': " + errors_.message);
    if (!colour_ok) return false;
    // The decoder's own need (rows and, for progressive files, every coefficient) before it allocates.
    const double coefficients = static_cast<double>(info_.image_width) * info_.image_height * info_.num_components * 2.0;
    if (info_.progressive_mode && coefficients > static_cast<double>(max_memory))
      throw OutOfMemory("cannot read '" + path_.string() + "': its " + std::to_string(info_.image_width) + "x" +
                        std::to_string(info_.image_height) + " progressive JPEG needs " +
                        std::to_string(static_cast<std::uint64_t>(coefficients)) + " bytes, more than the limit of " +
                        std::to_string(max_memory));
    if (!guarded(errors_, [&] { jpeg_start_decompress(&info_); }))
      throw IoError("cannot read '" + path_.string() + "': " + errors_.message);
    header_.width = info_.output_width;
    header_.height = info_.output_height;
    header_.channels = info_.output_components;
    header_.type = ElementType::u8;
    header_.format = "jpeg";
    header_.metadata = read_metadata();
    return true;
  }

  const ImageHeader& header() const override { return header_; }

  void read_rows(std::int64_t y0, std::int64_t y1, std::byte* out) override {
    check_row_order(path_, "read", y0, y1, next_, header_.height);
    const std::size_t row = static_cast<std::size_t>(header_.width * header_.channels);
    const bool ok = guarded(errors_, [&] {
      for (std::int64_t y = y0; y < y1;) {
        JSAMPROW rows[1] = {reinterpret_cast<JSAMPROW>(out + (y - y0) * row)};
        y += jpeg_read_scanlines(&info_, rows, 1);
      }
    });
    if (!ok) throw IoError("cannot read '" + path_.string() + "': " + errors_.message);
    next_ = y1;
  }

 private:
  std::shared_ptr<const ImageMetadata> read_metadata() {
    auto m = std::make_shared<ImageMetadata>();
    for (jpeg_saved_marker_ptr k = info_.marker_list; k; k = k->next) {
      if (k->marker == JPEG_APP0 + 1 && k->data_length > 6 && std::memcmp(k->data, kExif, 6) == 0)
        m->exif.assign(k->data + 6, k->data + k->data_length);
      if (k->marker == JPEG_COM && k->data_length > 0)
        m->text.emplace_back("Comment", std::string(reinterpret_cast<const char*>(k->data), k->data_length));
    }
    JOCTET* icc = nullptr;
    unsigned int icc_size = 0;
    if (guarded(errors_, [&] { (void)jpeg_read_icc_profile(&info_, &icc, &icc_size); }) && icc) {
      m->icc.assign(icc, icc + icc_size);
    }
    std::free(icc);
    if (info_.saw_JFIF_marker && info_.X_density > 0 && info_.Y_density > 0 && info_.density_unit != 0) {
      const double per_inch = info_.density_unit == 2 ? 2.54 : 1.0;
      m->x_resolution = info_.X_density * per_inch;
      m->y_resolution = info_.Y_density * per_inch;
    }
    return m;
  }

  fs::path path_;
  FILE* file_ = nullptr;
  Errors errors_;
  jpeg_decompress_struct info_{};
  bool created_ = false;
  ImageHeader header_;
  std::int64_t next_ = 0;
};

class Writer final : public SequentialRowWriter {
 public:
  Writer(const fs::path& temp, const fs::path& target, const ImageHeader& header, const WriteOptions& options)
      : SequentialRowWriter(target, header, ElementType::u8, false) {
    const int quality = lossy_quality(options, "jpeg");
    if (header.width > JPEG_MAX_DIMENSION || header.height > JPEG_MAX_DIMENSION)
      throw IoError("cannot write '" + target.string() + "': JPEG holds at most " + std::to_string(JPEG_MAX_DIMENSION) +
                    " pixels per side");
    file_ = std::fopen(temp.c_str(), "wb");
    if (!file_) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
    init_errors(errors_);
    info_.err = &errors_.mgr;
    if (!guarded(errors_, [&] { jpeg_create_compress(&info_); }) && (std::fclose(file_), true))
      throw IoError("cannot write '" + target.string() + "': " + errors_.message);
    created_ = true;
    const ImageMetadata* m = header.metadata.get();
    std::vector<JOCTET> exif;
    if (m && !m->exif.empty() && m->exif.size() + 6 <= 65533) {
      exif.resize(6 + m->exif.size());
      std::memcpy(exif.data(), kExif, 6);  // "Exif\0\0"
      std::memcpy(exif.data() + 6, m->exif.data(), m->exif.size());
    }
    const bool ok = guarded(errors_, [&] {
      jpeg_stdio_dest(&info_, file_);
      info_.image_width = static_cast<JDIMENSION>(header.width);
      info_.image_height = static_cast<JDIMENSION>(header.height);
      info_.input_components = header.channels;
      info_.in_color_space = header.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
      jpeg_set_defaults(&info_);
      jpeg_set_quality(&info_, quality, TRUE);
      if (m && m->x_resolution > 0 && m->x_resolution < 65535.5 && m->y_resolution < 65535.5) {
        info_.density_unit = 1;
        info_.X_density = static_cast<UINT16>(std::lround(m->x_resolution));
        info_.Y_density = static_cast<UINT16>(std::lround(m->y_resolution));
      }
      jpeg_start_compress(&info_, TRUE);
      if (!exif.empty()) jpeg_write_marker(&info_, JPEG_APP0 + 1, exif.data(), static_cast<unsigned>(exif.size()));
      if (m && !m->icc.empty() && m->icc.size() < (1u << 24))
        jpeg_write_icc_profile(&info_, m->icc.data(), static_cast<unsigned>(m->icc.size()));
      if (m)
        for (const auto& [key, value] : m->text)
          if ((key == "Comment" || key == "Description") && value.size() <= 65533)
            jpeg_write_marker(&info_, JPEG_COM, reinterpret_cast<const JOCTET*>(value.data()), static_cast<unsigned>(value.size()));
    });
    if (!ok) {
      jpeg_destroy_compress(&info_);
      std::fclose(file_);
      throw IoError("cannot write '" + target.string() + "': " + errors_.message);
    }
  }
  ~Writer() override {
    if (created_) jpeg_destroy_compress(&info_);
    if (file_) std::fclose(file_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write_row(std::int64_t, std::byte* row) override {
    JSAMPROW r[1] = {reinterpret_cast<JSAMPROW>(row)};
    if (!guarded(errors_, [&] { jpeg_write_scanlines(&info_, r, 1); })) fail(errors_.message);
  }

  void finish() override {
    if (!guarded(errors_, [&] { jpeg_finish_compress(&info_); })) fail(errors_.message);
    close_written(file_, target());
  }

 private:
  FILE* file_ = nullptr;
  Errors errors_;
  jpeg_compress_struct info_{};
  bool created_ = false;
};

}  // namespace

bool is_jpeg(std::span<const unsigned char> start) {
  return start.size() >= 3 && start[0] == 0xFF && start[1] == 0xD8 && start[2] == 0xFF;
}

std::unique_ptr<ImageRowReader> open_rows(const fs::path& path, std::uint64_t max_memory) {
  auto r = std::make_unique<Reader>(path);
  if (!r->start(max_memory)) return nullptr;
  return r;
}

bool writes(ElementType file_type, int channels) {
  return file_type == ElementType::u8 && (channels == 1 || channels == 3);
}

std::unique_ptr<ImageRowWriter> create_rows(const fs::path& temp, const fs::path& target, const ImageHeader& header,
                                            ElementType file_type, const WriteOptions& options) {
  (void)file_type;  // writes() admits uint8 only
  return std::make_unique<Writer>(temp, target, header, options);
}

}  // namespace fastblur::io::jpeg
