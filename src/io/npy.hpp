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
  /// A view with numpy's last axis as x: shape (D,H,W) -> x=W, y=H, z=D, one channel.
  View view();
};

/// Parses a whole .npy file held in memory; throws IoError naming what is wrong with it.
NpyArray parse_npy(std::span<const std::byte> file);
/// Reads a .npy file; throws IoError.
NpyArray read_npy(const std::filesystem::path& path);
/// The bytes of a version 1.0 .npy file holding the array.
std::vector<std::byte> encode_npy(const NpyArray& array);

}  // namespace fastblur::io
