#pragma once
// TIFF through libtiff, in this process, for the files it can stream and carry whole: strips (not
// tiles), interleaved 8/16-bit unsigned or 32-bit float samples, 1 to 4 channels, grey or RGB, no
// EXIF directory and no orientation other than top-left. Everything else (tiled scans, EXIF, CMYK,
// half floats) is the image module's (image_codecs.hpp). Large scans stream row by row both ways
// (BigTIFF when the output passes 4 GiB).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "io/image_file.hpp"

namespace fastblur::io::tiff {

/// True when a file's first bytes are a TIFF or BigTIFF header.
bool is_tiff(std::span<const unsigned char> start);

/// Opens a TIFF for reading by rows; null when the file is one this codec leaves to the image module.
/// Throws IoError for a corrupt file.
std::unique_ptr<ImageRowReader> open_rows(const std::filesystem::path& path);

/// Whether this codec writes `file_type`, `channels` and this metadata and compression (none, lzw,
/// zip or deflate with an optional ":level", packbits; default none).
bool writes(ElementType file_type, int channels, const ImageMetadata* metadata, const WriteOptions& options);

/// Creates a TIFF at `temp` (messages name `target`). Throws IoError.
std::unique_ptr<ImageRowWriter> create_rows(const std::filesystem::path& temp, const std::filesystem::path& target,
                                            const ImageHeader& header, ElementType file_type, const WriteOptions& options);

}  // namespace fastblur::io::tiff
