#pragma once
// Aliasing between views: in place is fine, other overlaps are resolved by copying the source.
#include <algorithm>
#include <cstring>

#include "fastblur/view.hpp"

namespace fastblur::core {

/// The byte range [first, last) a view touches.
inline std::pair<const std::byte*, const std::byte*> byte_range(const View& v) noexcept {
  const auto* base = static_cast<const std::byte*>(v.data);
  std::ptrdiff_t lo = 0, hi = 0;
  for (int a = 0; a < 3; ++a) {
    const std::ptrdiff_t span = v.stride[a] * static_cast<std::ptrdiff_t>(v.extent[a] - 1);
    (span < 0 ? lo : hi) += span;
  }
  hi += static_cast<std::ptrdiff_t>(element_size(v.type)) * v.channels;
  return {base + lo, base + hi};
}

inline bool views_overlap(const View& a, const View& b) noexcept {
  const auto [a0, a1] = byte_range(a);
  const auto [b0, b1] = byte_range(b);
  return a0 < b1 && b0 < a1;
}

/// Same memory, same element type and the same strides: the in-place case.
inline bool same_layout(const View& a, const View& b) noexcept {
  return a.data == b.data && a.type == b.type && a.stride == b.stride && a.extent == b.extent &&
         a.channels == b.channels;
}

/// Copies the view's pixels into `to` (packed) and returns a view of the copy.
inline View copy_packed(const View& v, std::byte* to) {
  View out = View::packed(to, v.type, v.width(), v.height(), v.depth(), v.channels);
  const std::size_t px = element_size(v.type) * static_cast<std::size_t>(v.channels);
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x) std::memcpy(out.pixel(x, y, z), v.pixel(x, y, z), px);
  return out;
}

}  // namespace fastblur::core
