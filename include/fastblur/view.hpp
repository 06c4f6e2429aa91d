#pragma once
/// @file
/// Views over caller memory: 2D images and 3D volumes with 1-4 interleaved channels.
///
/// A view never owns or copies its pixels. Element (x, y, z, c) lives at
///   data + x*stride[0] + y*stride[1] + z*stride[2] + c*element_size(type)   (strides in bytes)
/// so channels are interleaved and contiguous within a pixel, and any axis may have any stride,
/// negative included (a flipped view). A 2D image has depth 1.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace fastblur {

/// The element types of pixels. f64 is computed in double precision throughout. The types after f64
/// are NumPy's other numeric dtypes (int8 ... uint64, bool), for the Python drop-in and .npy files:
/// every driver reads and writes them (the SIMD paths through a scalar conversion), and the planner
/// computes in double where float cannot hold their values (32- and 64-bit integers).
enum class ElementType : std::uint8_t { u8, u16, f16, f32, f64, i8, i16, i32, i64, u32, u64, b8 };

/// Bytes in one element of the type.
std::size_t element_size(ElementType type) noexcept;
/// The type's short name ("u8", "u16", "f16", "f32", "f64").
std::string_view to_string(ElementType type) noexcept;
/// Parses a short name ("u8", "uint8", "f32", "float32", "half", "i16", "int16", "bool", ...); throws
/// InvalidArgument.
ElementType parse_element_type(std::string_view name);
/// True for the integer types and bool, whose outputs are rounded to nearest and saturated (bool:
/// true where the rounded value is not 0).
bool is_integer(ElementType type) noexcept;
/// True where float32 cannot hold every value of the type exactly (f64, 32- and 64-bit integers):
/// such data is computed in double.
bool needs_double(ElementType type) noexcept;

struct View {
  void* data = nullptr;
  ElementType type = ElementType::f32;
  int channels = 1;
  /// width, height, depth (depth 1 for 2D images).
  std::array<std::int64_t, 3> extent{1, 1, 1};
  /// Bytes from one pixel to the next along x, y, z.
  std::array<std::ptrdiff_t, 3> stride{0, 0, 0};

  std::int64_t width() const noexcept { return extent[0]; }
  std::int64_t height() const noexcept { return extent[1]; }
  std::int64_t depth() const noexcept { return extent[2]; }
  std::int64_t pixel_count() const noexcept { return extent[0] * extent[1] * extent[2]; }
  /// True when all pixels and channels are packed with no gaps, x fastest.
  bool is_packed() const noexcept;
  /// Address of pixel (x, y, z).
  std::byte* pixel(std::int64_t x, std::int64_t y, std::int64_t z = 0) const noexcept {
    return static_cast<std::byte*>(data) + x * stride[0] + y * stride[1] + z * stride[2];
  }

  /// A packed view (x fastest, then y, then z) over `data`.
  static View packed(void* data, ElementType type, std::int64_t width, std::int64_t height,
                     std::int64_t depth = 1, int channels = 1) noexcept;
};

/// Throws InvalidArgument unless the view is usable as a blur source: non-null data, 1-4 channels,
/// extents >= 1, byte counts representable in 64 bits.
void validate_source(const View& view);
/// As validate_source, and additionally no two pixels of the view may overlap in memory.
void validate_destination(const View& view);

/// The array/channel rule every front end applies to an N-dimensional array (the CLI's .npy files,
/// the Python module's arrays): the axis that is not blurred, has 1 to 4 elements and is adjacent in
/// memory (stride = element size) in both source and destination is interleaved channels; every
/// other axis is spatial. An HxWx4 array with sigma (s, s, 0) is a 4-channel image, not a volume of
/// depth W. Returns that axis (the last such), or -1. Strides in bytes.
int channel_axis(std::span<const std::int64_t> shape, std::span<const std::ptrdiff_t> src_strides,
                 std::size_t src_element_bytes, std::span<const std::ptrdiff_t> dst_strides,
                 std::size_t dst_element_bytes, std::span<const bool> blurred);

}  // namespace fastblur
