#pragma once
// JPEG through libjpeg-turbo, in this process: rows streamed both ways, EXIF (APP1), ICC (APP2),
// resolution (JFIF density) and comments carried. With png_codec, the CLI's common case without
// loading OpenImageIO (image_codecs.hpp).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "io/image_file.hpp"

namespace fastblur::io::jpeg {

/// True when a file's first bytes are a JPEG start-of-image marker.
bool is_jpeg(std::span<const unsigned char> start);

/// Opens a JPEG for reading by rows: grey (1 channel) or colour (3). Null for CMYK and YCCK files
/// (the image module reads them). Throws IoError for a corrupt file; OutOfMemory when decoding would
/// need more than `max_memory` bytes (progressive files hold every coefficient).
std::unique_ptr<ImageRowReader> open_rows(const std::filesystem::path& path, std::uint64_t max_memory);

/// Whether this codec writes `file_type` with `channels` (uint8, 1 or 3 channels).
bool writes(ElementType file_type, int channels);

/// Creates a JPEG at `temp` (messages name `target`), quality from `options`. Throws IoError.
std::unique_ptr<ImageRowWriter> create_rows(const std::filesystem::path& temp, const std::filesystem::path& target,
                                            const ImageHeader& header, ElementType file_type, const WriteOptions& options);

}  // namespace fastblur::io::jpeg
