#include "band_blur.hpp"

#include <algorithm>
#include <cstring>
#include <future>

#include "fastblur/algorithm.hpp"
#include "fastblur/blur.hpp"
#include "tiling/pieces.hpp"

namespace fastblur::cli {

Bands choose_bands(const Plan& plan, std::int64_t height, std::int64_t row_bytes, std::int64_t max_band_rows) {
  Bands b;
  b.rows = height;
  const tiling::PieceGrid grid = tiling::piece_grid(plan);
  const AxisPlan& y = plan.axes[1];
  if (!algorithm_info(plan.spec.algorithm).capabilities.separable) {
    b.whole_reason = std::string(algorithm_info(plan.spec.algorithm).name) + " sizes its levels from the whole image";
    return b;
  }
  if (y.active && y.border == Border::wrap) {
    b.whole_reason = "a wrap border along y needs the bottom rows for the top";
    return b;
  }
  const std::int64_t halo = y.active ? grid.halo[1] : 0;
  // Enough bands to overlap reading, blurring and writing (8), each of a size that does not grow with
  // the height (256 rows, or 16 MiB in and out), but at least 8 halos (the rows read twice cost 25% at
  // most) within a 96 MiB window unless the halo needs more.
  const std::int64_t bytes = std::max<std::int64_t>(row_bytes, 1);
  std::int64_t rows = std::min<std::int64_t>((height + 7) / 8, std::max<std::int64_t>(256, (std::int64_t{16} << 20) / bytes));
  rows = std::max<std::int64_t>({rows, 8 * halo, 16});
  rows = std::min(rows, std::max<std::int64_t>(8 * halo, (std::int64_t{96} << 20) / bytes));
  if (max_band_rows > 0) rows = std::min(rows, max_band_rows);
  rows = std::max<std::int64_t>(1, (rows + grid.align - 1) / grid.align * grid.align);
  if (rows + 2 * halo >= height) return b;  // one band reads the whole image anyway
  b.rows = rows;
  b.halo = halo;
  return b;
}

namespace {

// The rows of one band as read: [y0, y1) of the image, the band's interior [lo, hi) inside them.
struct Window {
  io::Image pixels;
  std::int64_t y0 = 0, y1 = 0, lo = 0, hi = 0;
};

io::Image rows_image(const io::ImageHeader& h, ElementType type, std::int64_t rows) {
  io::Image im;
  im.width = h.width;
  im.height = rows;
  im.channels = h.channels;
  im.type = type;
  im.pixels.resize(static_cast<std::size_t>(h.width * rows * h.channels) * element_size(type));
  return im;
}

}  // namespace

void blur_in_bands(io::ImageRowReader& in, io::ImageRowWriter& out, const Plan& plan, const Bands& bands,
                   ElementType out_type, const Device& device) {
  const io::ImageHeader& h = in.header();
  const std::int64_t H = h.height, R = bands.rows, halo = bands.halo;
  const std::size_t in_row = static_cast<std::size_t>(h.width * h.channels) * element_size(h.type);
  const std::size_t out_row = static_cast<std::size_t>(h.width * h.channels) * element_size(out_type);
  const std::int64_t window_rows = std::min(H, R + 2 * halo);
  // Two windows in and two out: band k+1 is read and band k-1 written while band k is blurred.
  Window windows[2];
  io::Image results[2];
  for (int k = 0; k < 2; ++k) {
    windows[k].pixels = rows_image(h, h.type, window_rows);
    results[k] = rows_image(h, out_type, window_rows);
  }
  // Fills window w for the band starting at lo, taking the rows it shares from `previous`.
  const auto fill = [&](Window& w, const Window* previous, std::int64_t lo) {
    w.lo = lo;
    w.hi = std::min(H, lo + R);
    w.y0 = std::max<std::int64_t>(0, lo - halo);
    w.y1 = std::min(H, w.hi + halo);
    std::int64_t from = w.y0;
    if (previous && previous->y1 > w.y0) {
      std::memcpy(w.pixels.pixels.data(), previous->pixels.pixels.data() + (w.y0 - previous->y0) * in_row,
                  static_cast<std::size_t>(previous->y1 - w.y0) * in_row);
      from = previous->y1;
    }
    in.read_rows(from, w.y1, w.pixels.pixels.data() + (from - w.y0) * in_row);
  };
  const std::int64_t count = (H + R - 1) / R;
  // writes[k % 2]: band k written, after band k-1 (each write waits for the one before).
  std::shared_future<void> writes[2];
  std::future<void> reading;
  fill(windows[0], nullptr, 0);
  for (std::int64_t k = 0; k < count; ++k) {
    Window& w = windows[k % 2];
    if (k + 1 < count) reading = std::async(std::launch::async, fill, std::ref(windows[(k + 1) % 2]), &w, (k + 1) * R);
    io::Image& result = results[k % 2];
    if (writes[k % 2].valid()) writes[k % 2].get();  // band k-2's rows are out of this buffer
    const std::int64_t rows = w.y1 - w.y0;
    for (int first = 0; first < h.channels; first += 4) {
      const int n = std::min(4, h.channels - first);
      View a = w.pixels.channel_view(first, n), b = result.channel_view(first, n);
      a.extent[1] = b.extent[1] = rows;  // the last window may be shorter than the buffers
      a.stride[2] = a.stride[1] * rows, b.stride[2] = b.stride[1] * rows;
      blur(a, b, plan.spec, device);
    }
    const std::byte* interior = result.pixels.data() + (w.lo - w.y0) * out_row;
    writes[k % 2] = std::async(std::launch::async, [&out, interior, lo = w.lo, hi = w.hi, out_type,
                                                    before = writes[(k + 1) % 2]] {
                      if (before.valid()) before.get();
                      out.write_rows(lo, hi, interior, out_type);
                    }).share();
    if (reading.valid()) reading.get();
  }
  for (auto& f : writes)
    if (f.valid()) f.get();
}

}  // namespace fastblur::cli
