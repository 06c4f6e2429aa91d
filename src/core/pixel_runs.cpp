#include "core/pixel_runs.hpp"

#include <cstring>

namespace fastblur::core {
namespace {

template <std::size_t N>
void gather(const std::byte* from, std::ptrdiff_t stride, std::int64_t pixels, std::byte* to) {
  for (std::int64_t x = 0; x < pixels; ++x) std::memcpy(to + x * static_cast<std::ptrdiff_t>(N), from + x * stride, N);
}

template <std::size_t N>
void scatter(const std::byte* from, std::int64_t pixels, std::byte* to, std::ptrdiff_t stride) {
  for (std::int64_t x = 0; x < pixels; ++x) std::memcpy(to + x * stride, from + x * static_cast<std::ptrdiff_t>(N), N);
}

// The pixel sizes of 1 to 4 channels of 1-, 2-, 4- and 8-byte elements (and complex ones).
template <class F>
bool with_size(std::size_t bytes, F&& f) {
  switch (bytes) {
    case 1: return f.template operator()<1>(), true;
    case 2: return f.template operator()<2>(), true;
    case 3: return f.template operator()<3>(), true;
    case 4: return f.template operator()<4>(), true;
    case 6: return f.template operator()<6>(), true;
    case 8: return f.template operator()<8>(), true;
    case 12: return f.template operator()<12>(), true;
    case 16: return f.template operator()<16>(), true;
    case 24: return f.template operator()<24>(), true;
    case 32: return f.template operator()<32>(), true;
    default: return false;
  }
}

}  // namespace

void gather_pixels(const std::byte* from, std::ptrdiff_t stride, std::size_t pixel_bytes, std::int64_t pixels,
                   std::byte* to) {
  if (with_size(pixel_bytes, [&]<std::size_t N>() { gather<N>(from, stride, pixels, to); })) return;
  for (std::int64_t x = 0; x < pixels; ++x)
    std::memcpy(to + x * static_cast<std::ptrdiff_t>(pixel_bytes), from + x * stride, pixel_bytes);
}

void scatter_pixels(const std::byte* from, std::size_t pixel_bytes, std::int64_t pixels, std::byte* to,
                    std::ptrdiff_t stride) {
  if (with_size(pixel_bytes, [&]<std::size_t N>() { scatter<N>(from, pixels, to, stride); })) return;
  for (std::int64_t x = 0; x < pixels; ++x)
    std::memcpy(to + x * stride, from + x * static_cast<std::ptrdiff_t>(pixel_bytes), pixel_bytes);
}

}  // namespace fastblur::core
