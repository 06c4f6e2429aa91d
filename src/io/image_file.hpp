#pragma once
// Image files through OpenImageIO (PNG, JPEG, TIFF, OpenEXR, Radiance HDR, ...).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::io {

/// A whole image in memory: interleaved channels (any count), packed rows.
struct Image {
  std::int64_t width = 0, height = 0;
  int channels = 0;
  ElementType type = ElementType::u8;
  std::vector<std::byte> pixels;
  std::string format;  ///< the reader's format name, e.g. "png", "openexr"

  /// Views of channels [first, first+count) (count <= 4): pixels keep their full stride.
  View channel_view(int first, int count);
};

/// Reads the first subimage at full resolution, keeping 8-bit, 16-bit, half and float data in
/// their own types (other integer depths are converted to float). Throws IoError.
Image read_image(const std::filesystem::path& path);

/// Writes the image to `path` atomically; the format comes from the extension. The file stores
/// `file_type` (default: the image's own type); float data written as an integer type is taken as
/// normalised ([0,1] -> 0..255). A type the format cannot hold is converted by OpenImageIO to the
/// nearest it can. Throws IoError.
void write_image(const std::filesystem::path& path, const Image& image,
                 std::optional<ElementType> file_type = std::nullopt);

/// True when OpenImageIO can write files with this path's extension.
bool is_writable_image_path(const std::filesystem::path& path);

}  // namespace fastblur::io
