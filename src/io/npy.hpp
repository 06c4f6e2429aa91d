#pragma once
// NumPy .npy arrays (format versions 1-3): little-endian uint8, uint16, float16, float32, float64,
// C order, 1 to 3 dimensions. Parsing works on bytes in memory so it can be fuzzed directly.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::io {

struct NpyArray {
  ElementType type = ElementType::f32;
  std::vector<std::int64_t> shape;  ///< numpy order: the last axis is contiguous
  std::vector<std::byte> data;      ///< packed, C order
  std::int64_t element_count() const;
  /// The array as a packed view, x along its last axis (shape (D,H,W) -> x=W, y=H, z=D); with
  /// `channels` > 1 the last axis is interleaved channels (fastblur::channel_axis) and x is the one
  /// before it.
  View view(int channels = 1);
};

/// What a .npy header says: the element type, the shape and where the data starts.
struct NpyHeader {
  ElementType type = ElementType::f32;
  std::vector<std::int64_t> shape;
  std::size_t data_offset = 0;  ///< bytes before the data (magic, version, length, header text)
  std::uint64_t data_bytes = 0; ///< element count * element size (at most 2^40 elements, so no overflow)
};
/// The longest header text accepted; numpy writes fewer than 200 bytes (and itself refuses more than
/// 10000 by default), so anything longer is corrupt, not an array.
inline constexpr std::size_t kMaxNpyHeaderBytes = std::size_t{1} << 20;

/// Parses the header at the start of `prefix` (a whole file, or at least its first
/// data_offset bytes); throws IoError naming what is wrong with it. Needs no data bytes.
NpyHeader parse_npy_header(std::span<const std::byte> prefix);
/// Parses a whole .npy file held in memory; throws IoError naming what is wrong with it.
NpyArray parse_npy(std::span<const std::byte> file);
/// Reads a .npy file: the header first, then, once the file is known to hold all the data the header
/// promises, the data straight into the array (one copy in memory). Works on pipes too. Throws
/// IoError (unreadable, malformed, truncated) or OutOfMemory (the data cannot be allocated).
NpyArray read_npy(const std::filesystem::path& path);
/// The bytes of a version 1.0 .npy file holding the array.
std::vector<std::byte> encode_npy(const NpyArray& array);

}  // namespace fastblur::io
