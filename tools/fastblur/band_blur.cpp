#include "band_blur.hpp"

#include "fastblur/error.hpp"

#include <algorithm>
#include <cstring>
#include <future>
#include <vector>

#include "fastblur/algorithm.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::cli {

std::int64_t Banded::slice_elements() const {
  std::int64_t n = channels;
  for (int a = 0; a < axis; ++a) n *= extent[static_cast<std::size_t>(a)];
  return n;
}

Bands choose_bands(const Plan& plan, const Banded& data, std::int64_t max_band) {
  const std::int64_t length = data.extent[static_cast<std::size_t>(data.axis)];
  Bands b;
  b.slices = length;
  const AxisPlan& along = plan.axes[static_cast<std::size_t>(data.axis)];
  const AlgorithmInfo& info = algorithm_info(plan.spec.algorithm);
  if (!info.capabilities.separable) {
    b.whole_reason = std::string(info.name) + " sizes its levels from the whole image";
    return b;
  }
  if (along.active && along.border == Border::wrap) {
    b.whole_reason = std::string("a wrap border along ") + "xyz"[data.axis] + " needs the far end for the near one";
    return b;
  }
  const PieceGrid grid = piece_grid(plan);
  const std::int64_t halo = along.active ? grid.halo[static_cast<std::size_t>(data.axis)] : 0;
  // Enough bands to overlap reading, blurring and writing (8), each of a size that does not grow with
  // the length (256 slices, or 16 MiB in and out), but at least 8 halos (the slices read twice cost
  // 25% at most) within a 96 MiB window unless the halo needs more.
  const std::int64_t bytes = std::max<std::int64_t>(
      1, data.slice_elements() * static_cast<std::int64_t>(element_size(data.in) + element_size(data.out)));
  std::int64_t slices = std::min<std::int64_t>((length + 7) / 8, std::max<std::int64_t>(256, (std::int64_t{16} << 20) / bytes));
  slices = std::max<std::int64_t>({slices, 8 * halo, 16});
  slices = std::min(slices, std::max<std::int64_t>(8 * halo, (std::int64_t{96} << 20) / bytes));
  if (max_band > 0) slices = std::min(slices, max_band);
  slices = std::max<std::int64_t>(1, (slices + grid.align - 1) / grid.align * grid.align);
  if (slices + 2 * halo >= length) return b;  // one band reads everything anyway
  b.slices = slices;
  b.halo = halo;
  return b;
}

namespace {

// The slices of one band as read: [s0, s1) of the data, the band's interior [lo, hi) inside them.
struct Window {
  std::vector<std::byte> in;
  std::int64_t s0 = 0, s1 = 0, lo = 0, hi = 0;
};

// Channels [first, first + count) of a packed buffer of `extent` with `channels` interleaved.
View group_view(std::byte* data, ElementType type, std::array<std::int64_t, 3> extent, int channels, int first, int count) {
  const std::ptrdiff_t es = static_cast<std::ptrdiff_t>(element_size(type));
  View v;
  v.data = data + first * es;
  v.type = type;
  v.channels = count;
  v.extent = extent;
  v.stride[0] = es * channels;
  v.stride[1] = v.stride[0] * extent[0];
  v.stride[2] = v.stride[1] * extent[1];
  return v;
}

}  // namespace

void blur_in_bands(const ReadSlices& read, const WriteSlices& write, const Banded& data, const Plan& plan,
                   const Bands& bands, const Device& device, const MissingData& missing) {
  if (missing.any() && data.channels > 4)
    throw InvalidArgument("missing data (--nan, --mask, --alpha) takes images of at most 4 channels");
  const std::int64_t length = data.extent[static_cast<std::size_t>(data.axis)], R = bands.slices, halo = bands.halo;
  const std::size_t in_slice = static_cast<std::size_t>(data.slice_elements()) * element_size(data.in);
  const std::size_t out_slice = static_cast<std::size_t>(data.slice_elements()) * element_size(data.out);
  const std::int64_t window = std::min(length, R + 2 * halo);
  // Two windows in and two out: band k+1 is read and band k-1 written while band k is blurred.
  Window windows[2];
  std::vector<std::byte> results[2];
  for (int k = 0; k < 2; ++k) {
    windows[k].in.resize(in_slice * static_cast<std::size_t>(window));
    results[k].resize(out_slice * static_cast<std::size_t>(window));
  }
  // Fills window w for the band starting at lo, taking the slices it shares from `previous`.
  const auto fill = [&](Window& w, const Window* previous, std::int64_t lo) {
    w.lo = lo;
    w.hi = std::min(length, lo + R);
    w.s0 = std::max<std::int64_t>(0, lo - halo);
    w.s1 = std::min(length, w.hi + halo);
    std::int64_t from = w.s0;
    if (previous && previous->s1 > w.s0) {
      std::memcpy(w.in.data(), previous->in.data() + static_cast<std::size_t>(w.s0 - previous->s0) * in_slice,
                  static_cast<std::size_t>(previous->s1 - w.s0) * in_slice);
      from = previous->s1;
    }
    read(from, w.s1, w.in.data() + static_cast<std::size_t>(from - w.s0) * in_slice);
  };
  const std::int64_t count = (length + R - 1) / R;
  // writes[k % 2]: band k written, after band k-1 (each write waits for the one before).
  std::shared_future<void> writes[2];
  std::future<void> reading;
  fill(windows[0], nullptr, 0);
  for (std::int64_t k = 0; k < count; ++k) {
    Window& w = windows[k % 2];
    if (k + 1 < count) reading = std::async(std::launch::async, fill, std::ref(windows[(k + 1) % 2]), &w, (k + 1) * R);
    std::vector<std::byte>& result = results[k % 2];
    if (writes[k % 2].valid()) writes[k % 2].get();  // band k-2's slices are out of this buffer
    std::array<std::int64_t, 3> extent = data.extent;
    extent[static_cast<std::size_t>(data.axis)] = w.s1 - w.s0;  // the last window may be shorter
    if (missing.any()) {  // the weights need the whole pixel (alpha is its last channel): one group
      MissingData m = missing;
      if (m.mask.data) {  // the band's window of the whole mask
        m.mask.data = static_cast<std::byte*>(m.mask.data) + w.s0 * m.mask.stride[static_cast<std::size_t>(data.axis)];
        m.mask.extent = extent;
      }
      blur(group_view(w.in.data(), data.in, extent, data.channels, 0, data.channels),
           group_view(result.data(), data.out, extent, data.channels, 0, data.channels), plan.spec, m, device);
    } else {
      for (int first = 0; first < data.channels; first += 4) {
        const int n = std::min(4, data.channels - first);
        blur(group_view(w.in.data(), data.in, extent, data.channels, first, n),
             group_view(result.data(), data.out, extent, data.channels, first, n), plan.spec, device);
      }
    }
    const std::byte* interior = result.data() + static_cast<std::size_t>(w.lo - w.s0) * out_slice;
    writes[k % 2] = std::async(std::launch::async, [&write, interior, lo = w.lo, hi = w.hi, before = writes[(k + 1) % 2]] {
                      if (before.valid()) before.get();
                      write(lo, hi, interior);
                    }).share();
    if (reading.valid()) reading.get();
  }
  for (auto& f : writes)
    if (f.valid()) f.get();
}

}  // namespace fastblur::cli
