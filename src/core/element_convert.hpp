#pragma once
// Element conversion between views of any element type and packed float (or double) working arrays:
// the one conversion that the CPU backend, the tiling of pieces and the Vulkan backend's transfers
// share (SIMD through Highway for most types; one element at a time for the others).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/element.hpp"
#include "core/pixel_runs.hpp"
#include "fastblur/view.hpp"

namespace fastblur::core {

/// Converts `count` packed elements of `type` to float. f32 denormals become zeros of their sign
/// (they would slow every float path that touches them; the change is below 2^-126).
void load_as_float(ElementType type, const void* src, float* dst, std::size_t count);
/// Converts floats to `type`: integers rounded to nearest (ties to even) and saturated.
void store_from_float(ElementType type, const float* src, void* dst, std::size_t count);

/// Converts `count` packed elements of `type` to double and back (load_element's and store_element's
/// bits; SIMD for f32, f64, i32 and i64).
void load_as_double(ElementType type, const void* src, double* dst, std::size_t count);
void store_from_double(ElementType type, const double* src, void* dst, std::size_t count);

/// Reads `pixels` pixels of row (y, z) from x0 into packed `dst` (pixels * channels values).
/// `gather` is scratch of at least pixels * channels * element_size bytes, used when the pixels are
/// not packed in memory.
template <class T>
void read_row(const View& v, std::int64_t x0, std::int64_t y, std::int64_t z, std::int64_t pixels,
              T* dst, std::byte* gather) {
  const std::size_t px_bytes = element_size(v.type) * static_cast<std::size_t>(v.channels);
  const std::size_t n = static_cast<std::size_t>(pixels) * static_cast<std::size_t>(v.channels);
  const std::byte* row = v.pixel(x0, y, z);
  const std::byte* src = row;
  if (v.stride[0] != static_cast<std::ptrdiff_t>(px_bytes)) {
    gather_pixels(row, v.stride[0], px_bytes, pixels, gather);
    src = gather;
  }
  if constexpr (std::is_same_v<T, float>) {
    load_as_float(v.type, src, dst, n);
  } else if constexpr (std::is_same_v<T, double>) {
    load_as_double(v.type, src, dst, n);
  } else {
    const std::size_t es = element_size(v.type);
    for (std::size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(load_element(v.type, src + i * es));
  }
}

/// Writes packed `src` (pixels * channels values) to row (y, z) of the view from x0.
template <class T>
void write_row(const T* src, const View& v, std::int64_t x0, std::int64_t y, std::int64_t z,
               std::int64_t pixels, std::byte* scatter) {
  const std::size_t px_bytes = element_size(v.type) * static_cast<std::size_t>(v.channels);
  const std::size_t n = static_cast<std::size_t>(pixels) * static_cast<std::size_t>(v.channels);
  std::byte* row = v.pixel(x0, y, z);
  const bool packed = v.stride[0] == static_cast<std::ptrdiff_t>(px_bytes);
  std::byte* out = packed ? row : scatter;
  if constexpr (std::is_same_v<T, float>) {
    store_from_float(v.type, src, out, n);
  } else if constexpr (std::is_same_v<T, double>) {
    store_from_double(v.type, src, out, n);
  } else {
    const std::size_t es = element_size(v.type);
    for (std::size_t i = 0; i < n; ++i) store_element(v.type, out + i * es, static_cast<double>(src[i]));
  }
  if (!packed) scatter_pixels(scatter, px_bytes, pixels, row, v.stride[0]);
}

}  // namespace fastblur::core
