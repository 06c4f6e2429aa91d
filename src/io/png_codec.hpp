#pragma once
// PNG through libpng, in this process: rows streamed both ways, EXIF (eXIf), ICC (iCCP), resolution
// (pHYs) and text carried. The common case of the CLI without loading OpenImageIO (image_codecs.hpp).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "io/image_file.hpp"

namespace fastblur::io::png {

/// True when a file's first bytes (at least 8 of them) are PNG's signature.
bool is_png(std::span<const unsigned char> start);

/// Opens a PNG for reading by rows: 8 or 16 bits, 1 to 4 channels (palettes and low bit depths
/// expanded, transparency as alpha). Null for an interlaced PNG (whose rows come in passes; the image
/// module reads it). Throws IoError for a corrupt or unreadable file.
std::unique_ptr<ImageRowReader> open_rows(const std::filesystem::path& path);

/// Whether this codec writes `file_type` with `channels` (uint8 and uint16, 1 to 4 channels).
bool writes(ElementType file_type, int channels);

/// Creates a PNG at `temp` (messages name `target`), zlib level from `options`. Metadata libpng
/// refuses (a malformed ICC profile) is dropped with a warning on stderr. Throws IoError.
std::unique_ptr<ImageRowWriter> create_rows(const std::filesystem::path& temp, const std::filesystem::path& target,
                                            const ImageHeader& header, ElementType file_type, const WriteOptions& options);

}  // namespace fastblur::io::png
