#pragma once
// Image files through OpenImageIO (PNG, JPEG, TIFF, OpenEXR, Radiance HDR, ...), which is loaded
// on the first call (image_codecs.hpp).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::io {

/// What a file says about its image besides the pixels, as read; writers write what their format
/// holds. The PNG and JPEG codecs (png_codec, jpeg_codec) read and write the raw form; the image
/// module (OpenImageIO, every other format) reads both forms and writes from its attributes, or from
/// the raw form when another codec read the file.
struct ImageMetadata {
  std::vector<std::uint8_t> exif;  ///< TIFF-structured EXIF block (orientation, camera, dates): JPEG's APP1 after
                                   ///< "Exif\0\0", PNG's eXIf chunk
  std::vector<std::uint8_t> icc;   ///< ICC colour profile
  double x_resolution = 0.0, y_resolution = 0.0;  ///< pixels per inch; 0: not given
  std::vector<std::pair<std::string, std::string>> text;  ///< PNG text chunks, JPEG comments ("Comment")
  std::shared_ptr<const void> attributes;  ///< the image module's own (OpenImageIO attributes); null if another codec read it
};

/// What an image file holds besides its pixels' values.
struct ImageHeader {
  std::int64_t width = 0, height = 0;
  int channels = 0;
  ElementType type = ElementType::u8;  ///< as read_image would deliver it
  std::string format;                  ///< the reader's format name, e.g. "png", "openexr"
  std::shared_ptr<const ImageMetadata> metadata;  ///< null: none (a new image)
};

/// A whole image in memory: interleaved channels (any count), packed rows.
struct Image {
  std::int64_t width = 0, height = 0;
  int channels = 0;
  ElementType type = ElementType::u8;
  std::vector<std::byte> pixels;
  std::string format;  ///< the reader's format name, e.g. "png", "openexr"
  std::shared_ptr<const ImageMetadata> metadata;  ///< null: none (a new image)

  /// Views of channels [first, first+count) (count <= 4): pixels keep their full stride.
  View channel_view(int first, int count);
};

/// No limit on the pixel memory read_image may allocate (beyond what can be addressed).
inline constexpr std::uint64_t kNoPixelLimit = ~std::uint64_t{0};

/// Reads the first subimage at full resolution, keeping 8-bit, 16-bit, half and float data in
/// their own types (other integer depths are converted to float). Any layout OpenImageIO reads
/// (scanline or tiled, contiguous or planar, per-channel formats) arrives interleaved and packed.
/// Throws IoError (missing, unreadable, corrupt, unsupported), or OutOfMemory when the pixels need
/// more than `max_pixel_bytes`, more than can be represented, or more than can be allocated; the size
/// is checked from the header before any pixel memory is allocated.
Image read_image(const std::filesystem::path& path, std::uint64_t max_pixel_bytes = kNoPixelLimit);

/// How write_image encodes. Defaults: JPEG and WebP quality 95; PNG Paeth prediction with
/// run-length deflate (png_codec; bench/RESULTS.md: on an 11 MPix photo 0.48 s and 7.8 MB for the
/// whole blur, against 0.86 s and 8.1 MB with zlib level 4 and adaptive filters); TIFF uncompressed
/// (as vips and PIL write it); OpenEXR its library's own (zip).
struct WriteOptions {
  std::optional<int> quality;  ///< JPEG / WebP / HEIF quality, 1 to 100
  std::string compression;     ///< PNG: a zlib level 0-9; TIFF: none, lzw, zip[:1-9], packbits, ...; EXR: none, zip, piz, dwaa, ...
};

/// Writes the image to `path` atomically; the format comes from the extension. The file stores
/// `file_type` (default: the image's own type); float data written as an integer type is taken as
/// normalised ([0,1] -> 0..255). A type the format cannot hold is converted by OpenImageIO to the
/// nearest it can. The image's metadata is written where the format holds it (encoding details of
/// the file it came from are not). Throws IoError (and InvalidArgument for bad options).
void write_image(const std::filesystem::path& path, const Image& image,
                 std::optional<ElementType> file_type = std::nullopt, const WriteOptions& options = {});

/// True when OpenImageIO can write files with this path's extension.
bool is_writable_image_path(const std::filesystem::path& path);

/// An image file read in bands of rows, top to bottom (streaming: only the rows asked for are held).
class ImageRowReader {
 public:
  virtual ~ImageRowReader() = default;
  virtual const ImageHeader& header() const = 0;
  /// Reads rows [y0, y1) into `out` (packed rows, interleaved channels, header().type). Rows are asked
  /// for in increasing order, each once. Throws IoError.
  virtual void read_rows(std::int64_t y0, std::int64_t y1, std::byte* out) = 0;
};

/// An image file written in bands of rows, top to bottom, to a temporary file renamed over the
/// target by commit() (a writer destroyed uncommitted leaves no file).
class ImageRowWriter {
 public:
  virtual ~ImageRowWriter() = default;
  /// Writes rows [y0, y1) from `rows` (packed, interleaved, `type`), following the rows written last.
  virtual void write_rows(std::int64_t y0, std::int64_t y1, const std::byte* rows, ElementType type) = 0;
  /// Closes the file and renames it over the target. Throws IoError.
  virtual void commit() = 0;
};

/// Opens an image file for reading by rows (the same checks and types as read_image). Throws IoError.
std::unique_ptr<ImageRowReader> open_image_rows(const std::filesystem::path& path);

/// Creates `path` for writing by rows: header's size and channels, stored as `file_type` (default
/// header.type), with header.metadata where the format holds it (as write_image). Throws IoError,
/// InvalidArgument for bad options.
std::unique_ptr<ImageRowWriter> create_image_rows(const std::filesystem::path& path, const ImageHeader& header,
                                                  std::optional<ElementType> file_type = std::nullopt,
                                                  const WriteOptions& options = {});

}  // namespace fastblur::io
