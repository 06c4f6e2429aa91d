#pragma once
// Border index arithmetic, exactly as scipy.ndimage extends a line (ni_support.c, NI_ExtendLine).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur::core {

/// Maps a position i (any integer, possibly far outside) on a line of n samples to the sample
/// that the border mode reads there, or -1 for Border::constant outside the line.
inline std::int64_t border_index(std::int64_t i, std::int64_t n, Border border) noexcept {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case Border::constant: return -1;
    case Border::nearest: return i < 0 ? 0 : n - 1;
    case Border::wrap: {
      std::int64_t m = i % n;
      return m < 0 ? m + n : m;
    }
    case Border::reflect: {  // period 2n: a b c d d c b a
      const std::int64_t p = 2 * n;
      std::int64_t m = i % p;
      if (m < 0) m += p;
      return m < n ? m : p - 1 - m;
    }
    case Border::mirror: {  // period 2n-2: a b c d c b
      if (n == 1) return 0;
      const std::int64_t p = 2 * n - 2;
      std::int64_t m = i % p;
      if (m < 0) m += p;
      return m < n ? m : p - m;
    }
  }
  return 0;
}

/// The sample the border mode reads at each position first .. first + count - 1 of a line of n
/// samples (-1: cval), for drivers that extend many lines the same way.
std::vector<std::int64_t> border_map(std::int64_t first, std::int64_t count, std::int64_t n, Border border);

/// Extends a line in place: `line` holds before + n + after positions of `unit` contiguous values each
/// (a pixel's channels, or a group of lanes), the line's samples at positions [before, before + n);
/// every other position gets the values of the sample the border mode reads there (cval for
/// constant). The one padding rule of every driver.
template <class T>
void extend_line(T* line, std::int64_t n, std::int64_t before, std::int64_t after, std::size_t unit, Border border,
                 T cval) {
  const auto fill = [&](std::int64_t i) {
    T* to = line + static_cast<std::size_t>(i + before) * unit;
    const std::int64_t m = border_index(i, n, border);
    if (m < 0) std::fill(to, to + unit, cval);
    else std::copy_n(line + static_cast<std::size_t>(m + before) * unit, unit, to);
  };
  for (std::int64_t i = -before; i < 0; ++i) fill(i);
  for (std::int64_t i = n; i < n + after; ++i) fill(i);
}

}  // namespace fastblur::core
