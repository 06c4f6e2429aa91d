#pragma once
// Border index arithmetic, exactly as scipy.ndimage extends a line (ni_support.c, NI_ExtendLine).
#include <cstdint>

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

}  // namespace fastblur::core
