#pragma once
// Rows of one element type as a file's type, as OpenImageIO converts them: float data is taken as
// normalised ([0, 1] -> 0..255 or 0..65535), integers rescale (8 -> 16 bits x257; 255 -> 1.0f).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/element.hpp"

namespace fastblur::io {

/// Converts `count` elements from `from` to `to` (uint8, uint16 or float32).
inline void convert_row(const std::byte* in, ElementType from, std::byte* out, ElementType to, std::size_t count) {
  if (from == to) {
    std::memcpy(out, in, count * element_size(to));
    return;
  }
  const double top = to == ElementType::u8 ? 255.0 : to == ElementType::u16 ? 65535.0 : 1.0;
  const double scale = from == ElementType::u8 ? top / 255.0 : from == ElementType::u16 ? top / 65535.0 : top;
  for (std::size_t i = 0; i < count; ++i)
    core::store_element(to, out + i * element_size(to), core::load_element(from, in + i * element_size(from)) * scale);
}

}  // namespace fastblur::io
