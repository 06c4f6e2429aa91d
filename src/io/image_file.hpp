#pragma once
// Image files through OpenImageIO (PNG, JPEG, TIFF, OpenEXR, Radiance HDR, ...).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::io {

/// What a file says about its image besides the pixels (EXIF including orientation, ICC profile,
/// resolution, colour space, IPTC/XMP, ...), as read; write_image writes what the format can hold.
struct ImageMetadata;

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

/// How write_image encodes. Defaults: JPEG and WebP quality 95; PNG zlib level 4 (on an 11 MPix
/// image, bench/RESULTS.md: 0.86 s and 1.21 MB for the whole blur against level 6's 1.02 s and
/// 1.09 MB); TIFF and OpenEXR their library's own (zip).
struct WriteOptions {
  std::optional<int> quality;  ///< JPEG / WebP / HEIF quality, 1 to 100
  std::string compression;     ///< PNG: a zlib level 0-9; TIFF: none, lzw, zip, ...; EXR: none, zip, piz, dwaa, ...
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

}  // namespace fastblur::io
