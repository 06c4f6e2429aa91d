#pragma once
// Moving rows of pixels between views (any element type, any strides) and packed working arrays.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/element.hpp"
#include "cpu/fir_simd.hpp"

namespace fastblur::cpu {

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
    for (std::int64_t x = 0; x < pixels; ++x)
      std::memcpy(gather + static_cast<std::size_t>(x) * px_bytes, row + x * v.stride[0], px_bytes);
    src = gather;
  }
  if constexpr (std::is_same_v<T, float>) {
    load_as_float(v.type, src, dst, n);
  } else {
    const std::size_t es = element_size(v.type);
    for (std::size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(core::load_element(v.type, src + i * es));
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
  } else {
    const std::size_t es = element_size(v.type);
    for (std::size_t i = 0; i < n; ++i) core::store_element(v.type, out + i * es, static_cast<double>(src[i]));
  }
  if (!packed)
    for (std::int64_t x = 0; x < pixels; ++x)
      std::memcpy(row + x * v.stride[0], scatter + static_cast<std::size_t>(x) * px_bytes, px_bytes);
}

}  // namespace fastblur::cpu
