#pragma once
// The one reading of --quality and --compression, for every writer (the PNG and JPEG codecs and the
// image module's).
#include <filesystem>
#include <optional>
#include <string>

#include "io/image_file.hpp"

namespace fastblur::io {

/// The format names writers go by: "png", "jpeg", "webp", "heif", "tiff", "openexr", ...
/// JPEG, WebP and HEIF quality (1-100, default 95). Throws InvalidArgument for a value out of range,
/// or for --compression given to these formats.
int lossy_quality(const WriteOptions& o, const std::string& format);

/// PNG's zlib level (0-9), or none for the default: fast (png_codec: Paeth and run-length deflate;
/// the image module: level 4). Throws InvalidArgument for anything else, or for --quality.
std::optional<int> png_compression_level(const WriteOptions& o, const std::filesystem::path& path);

}  // namespace fastblur::io
