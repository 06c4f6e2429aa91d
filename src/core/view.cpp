#include <algorithm>
#include <limits>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/view.hpp"

namespace fastblur {

View View::packed(void* data, ElementType type, std::int64_t width, std::int64_t height,
                  std::int64_t depth, int channels) noexcept {
  View v;
  v.data = data;
  v.type = type;
  v.channels = channels;
  v.extent = {width, height, depth};
  // Extents too large for their byte strides to exist saturate (instead of wrapping), so that
  // validate_source and validate_destination reject the view rather than trust a small stride.
  const auto saturating_mul = [](std::ptrdiff_t a, std::int64_t b) {
    std::ptrdiff_t r;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::ptrdiff_t>::max() : r;
  };
  const auto px = static_cast<std::ptrdiff_t>(element_size(type)) * channels;
  const std::ptrdiff_t row = saturating_mul(px, width);
  v.stride = {px, row, saturating_mul(row, height)};
  return v;
}

bool View::is_packed() const noexcept {
  const auto px = static_cast<std::ptrdiff_t>(element_size(type)) * channels;
  return stride[0] == px && stride[1] == px * extent[0] &&
         (extent[2] == 1 || stride[2] == px * extent[0] * extent[1]);
}

namespace {

void validate_common(const View& v, const char* what) {
  const std::string w(what);
  if (v.data == nullptr) throw InvalidArgument(w + " view has no data (null pointer)");
  if (v.channels < 1 || v.channels > 4)
    throw InvalidArgument(w + " view has " + std::to_string(v.channels) +
                          " channels: expected 1 to 4 interleaved channels");
  constexpr std::int64_t kLimit = std::numeric_limits<std::int64_t>::max() / 16;
  std::int64_t count = 1;
  for (int a = 0; a < 3; ++a) {
    if (v.extent[a] < 1)
      throw InvalidArgument(w + " view has extent " + std::to_string(v.extent[a]) + " on axis " +
                            std::to_string(a) + ": every extent must be at least 1");
    if (v.extent[a] > kLimit / count)
      throw InvalidArgument(w + " view is too large: its element count overflows 64 bits");
    count *= v.extent[a];
    // The byte span along this axis must be representable (and |stride| itself: -INT64_MIN is not).
    if (v.extent[a] > 1 && (v.stride[a] < -kLimit || v.stride[a] > kLimit))
      throw InvalidArgument(w + " view's stride " + std::to_string(v.stride[a]) + " on axis " + std::to_string(a) +
                            " is beyond +-2^59 bytes");
    const std::int64_t s = v.extent[a] == 1 ? 0 : v.stride[a] < 0 ? -static_cast<std::int64_t>(v.stride[a]) : v.stride[a];
    if (s != 0 && v.extent[a] - 1 > kLimit / s)
      throw InvalidArgument(w + " view's byte offsets overflow 64 bits on axis " + std::to_string(a));
  }
  if (count > kLimit / (v.channels * 8))
    throw InvalidArgument(w + " view is too large: its byte count overflows 64 bits");
}

}  // namespace

void validate_source(const View& view) { validate_common(view, "source"); }

void validate_destination(const View& view) {
  validate_common(view, "destination");
  // No two pixels may share memory: sort the axes that have more than one pixel by |stride| and
  // require each to step over everything the smaller ones cover.
  struct Axis {
    std::int64_t stride, extent;
  };
  Axis axes[3];
  int n = 0;
  for (int a = 0; a < 3; ++a)
    if (view.extent[a] > 1)
      axes[n++] = {view.stride[a] < 0 ? -static_cast<std::int64_t>(view.stride[a]) : view.stride[a],
                   view.extent[a]};
  for (int i = 1; i < n; ++i)  // insertion sort of at most three axes
    for (int j = i; j > 0 && axes[j].stride < axes[j - 1].stride; --j) std::swap(axes[j], axes[j - 1]);
  std::int64_t covered = static_cast<std::int64_t>(element_size(view.type)) * view.channels;
  for (int i = 0; i < n; ++i) {
    if (axes[i].stride < covered)
      throw InvalidArgument("destination view's strides make pixels overlap (stride " +
                            std::to_string(axes[i].stride) + " bytes, need at least " +
                            std::to_string(covered) + ")");
    covered = axes[i].stride * axes[i].extent;
  }
}

int channel_axis(std::span<const std::int64_t> shape, std::span<const std::ptrdiff_t> src_strides,
                 std::size_t src_element_bytes, std::span<const std::ptrdiff_t> dst_strides,
                 std::size_t dst_element_bytes, std::span<const bool> blurred) {
  for (std::size_t d = shape.size(); d-- > 0;)
    if (!blurred[d] && shape[d] >= 1 && shape[d] <= 4 && src_strides[d] == static_cast<std::ptrdiff_t>(src_element_bytes) &&
        dst_strides[d] == static_cast<std::ptrdiff_t>(dst_element_bytes))
      return static_cast<int>(d);
  return -1;
}

}  // namespace fastblur
