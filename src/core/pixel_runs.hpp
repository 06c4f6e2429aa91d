#pragma once
// Rows of pixels that are not packed in memory (a channel of an RGB image, every other pixel, a
// reversed or Fortran-ordered axis) copied to and from packed bytes, so that the conversions run
// over the packed run: a copy per pixel of a size known at compile time for the usual pixels (a
// memcpy of a run-time size per pixel was a library call each).
#include <cstddef>
#include <cstdint>

namespace fastblur::core {

/// Copies `pixels` pixels of `pixel_bytes` bytes, `stride` bytes apart from `from` (any sign), into
/// packed `to`.
void gather_pixels(const std::byte* from, std::ptrdiff_t stride, std::size_t pixel_bytes, std::int64_t pixels,
                   std::byte* to);
/// Copies `pixels` packed pixels of `pixel_bytes` bytes from `from` to `to`, `stride` bytes apart.
void scatter_pixels(const std::byte* from, std::size_t pixel_bytes, std::int64_t pixels, std::byte* to,
                    std::ptrdiff_t stride);

}  // namespace fastblur::core
