#pragma once
// Where each level of a chain of halvings lives in one allocation (level 0 the padded image, level l
// (width >> l) x (height >> l) pixels), as dual-kawase and mip-poisson keep theirs.
#include <cstdint>
#include <string>
#include <vector>

#include "fastblur/error.hpp"

namespace fastblur::cpu {

/// start[l] is level l's first element, start[levels + 1] the total. Throws OutOfMemory naming `what`
/// before anything is allocated when the chain cannot be held.
inline std::vector<std::size_t> level_starts(std::int64_t width, std::int64_t height, int levels, int channels,
                                             std::size_t element_bytes, const char* what) {
  double total = 0.0;
  std::vector<std::size_t> start(static_cast<std::size_t>(levels) + 2, 0);
  for (int l = 0; l <= levels; ++l) {
    const double count = static_cast<double>(width >> l) * static_cast<double>(height >> l) * channels;
    total += count;
    start[static_cast<std::size_t>(l) + 1] = start[static_cast<std::size_t>(l)] + static_cast<std::size_t>(count);
  }
  if (total * static_cast<double>(element_bytes) > 0x1p60 ||
      total * static_cast<double>(element_bytes) > static_cast<double>(SIZE_MAX) / 2)
    throw OutOfMemory(std::string(what) + ": the padded image (" + std::to_string(width) + "x" + std::to_string(height) +
                      ") and its levels would not fit in memory");
  return start;
}

}  // namespace fastblur::cpu
