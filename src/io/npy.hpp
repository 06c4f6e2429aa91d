#pragma once
// NumPy .npy arrays (format versions 1-3): little-endian uint8, uint16, float16, float32, float64,
// 1 to 3 dimensions, C or Fortran order (a Fortran-ordered file - np.save of a Fortran-ordered
// array, e.g. a NIfTI volume from nibabel - is read whole and laid out in C order: the same array).
// Parsing works on bytes in memory so it can be fuzzed directly.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
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
  bool fortran_order = false;   ///< the data's first axis varies fastest (read_npy and NpySliceReader give C order)
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
/// The header of that file alone: the data follows it, C order.
std::vector<std::byte> encode_npy_header(ElementType type, const std::vector<std::int64_t>& shape);

/// A .npy file read in slices along its first axis, in order, each once (streaming; pipes too).
/// The header is read and checked on construction, as read_npy does; a Fortran-ordered file's
/// first-axis slices are not contiguous in it, so it is read whole then, and laid out in C order.
/// Throws IoError (or OutOfMemory for a Fortran-ordered file that cannot be held).
class NpySliceReader {
 public:
  explicit NpySliceReader(const std::filesystem::path& path);
  const NpyHeader& header() const { return header_; }
  /// Reads slices [first, end) of the first axis into `out`.
  void read(std::int64_t first, std::int64_t end, std::byte* out);

 private:
  std::filesystem::path path_;
  std::ifstream in_;
  NpyHeader header_;
  std::vector<std::byte> early_;  // data bytes read with the header
  std::size_t early_used_ = 0;
  std::uint64_t slice_bytes_ = 0, have_ = 0;
  std::int64_t next_ = 0;
  std::vector<std::byte> whole_;  // a Fortran-ordered file's data, in C order
};

}  // namespace fastblur::io
