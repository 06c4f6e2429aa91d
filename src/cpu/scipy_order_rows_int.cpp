// CpuDriver::scipy_order with Schedule::scipy_int_certified: an 8- or 16-bit integer 2D image filtered
// along y, then x, into its type - SciPy's order for an image - in one pass. Each worker makes a band
// of output rows: source rows enter a ring as floats (their integer values); an output row's y pass
// sums the ring's rows into the x pass's line (SciPy stores y's result in the type and x reads it
// back: the sums give it as an integer already), the line is extended by x's border mode and its x
// pass writes the output row. Both passes give SciPy's truncated double sums from float32 sums with an error bound
// (cpu/scipy_int_certified.hpp): no double arithmetic and nothing to convert between the axes.
// A channel that is one level in every row an output reads (an opaque alpha channel) is known to the
// sums (KnownChannels): its outputs are that level's flat result, in both passes.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <vector>

#include "core/overlap.hpp"
#include "core/pixel_runs.hpp"
#include "cpu/execute.hpp"
#include "cpu/scipy_ring.hpp"
#include "cpu/scipy_int_certified.hpp"
#include "kernel/certified_int.hpp"

namespace fastblur::cpu {
namespace {

// A worker's rows, kept from call to call (fresh pages cost a fault per 4 KiB every call).
struct IntBuffers {
  std::vector<float> ring, line;
  std::vector<std::byte> bytes, out;
};
thread_local IntBuffers t_ints;

// Row y of a view of `size`-byte elements (C channels a pixel, pixels stride[0] bytes apart) into
// `to`, packed (strides are in bytes).
void read_row(const View& v, std::int64_t y, std::size_t size, std::byte* to) {
  const std::int64_t C = v.channels, W = v.width();
  const auto* from = reinterpret_cast<const std::byte*>(v.pixel(0, y));
  const std::size_t pixel = static_cast<std::size_t>(C) * size;
  if (v.stride[0] == static_cast<std::int64_t>(pixel)) {
    std::memcpy(to, from, static_cast<std::size_t>(W) * pixel);
    return;
  }
  core::gather_pixels(from, v.stride[0], pixel, W, to);
}

void write_row(const std::byte* from, const View& v, std::int64_t y, std::size_t size) {
  const std::int64_t C = v.channels, W = v.width();
  auto* to = reinterpret_cast<std::byte*>(v.pixel(0, y));
  core::scatter_pixels(from, static_cast<std::size_t>(C) * size, W, to, v.stride[0]);
}

// Each ring row's channels that are one level (constant_channels), by slot.
struct RowLevels {
  std::uint32_t constant = 0;
  float level[KnownChannels::kMaxChannels] = {};
};

// The channels one level, the same level, in every one of `taps` rows from `first`: y's outputs there
// are that level's flat result.
template <class LevelsOf>
KnownChannels known_over_rows(const LevelsOf& levels_of, std::int64_t first, int taps, int channels,
                              const CertifiedIntAxis& ky) {
  KnownChannels known;
  const RowLevels& a = levels_of(first);
  std::uint32_t bits = a.constant;
  for (int t = 1; t < taps && bits != 0; ++t) {
    const RowLevels& b = levels_of(first + t);
    bits &= b.constant;
    for (int c = 0; c < channels; ++c)
      if (b.level[c] != a.level[c]) bits &= ~(1u << c);
  }
  if (bits == 0) return known;
  known.channels = channels;
  known.known = bits;
  for (int c = 0; c < channels; ++c)
    if ((bits >> c) & 1u) known.result[c] = certified_flat_result(ky, a.level[c]);
  return known;
}

// y's known channels as x's: their line is y's one result, extended by copies of it - or by cval,
// which must then be that result too; x's outputs there are its flat result.
KnownChannels known_along_x(const KnownChannels& y_known, bool x_fills, float fill, const CertifiedIntAxis& kx) {
  KnownChannels known = y_known;
  for (int c = 0; c < y_known.channels; ++c) {
    if (!((known.known >> c) & 1u)) continue;
    if (x_fills && fill != y_known.result[c]) known.known &= ~(1u << c);
    else known.result[c] = certified_flat_result(kx, y_known.result[c]);
  }
  return known;
}

// Whether a sample of up to 8 of src's rows, x's sums over their inner outputs, leaves few enough
// outputs to SciPy's double sums (kernel::certified_int_share_suits).
bool certified_sample_suits(const View& src, const CertifiedIntAxis& kx) {
  const std::int64_t W = src.width(), H = src.height(), C = src.channels, inner = (W - 2 * kx.radius) * C;
  if (inner <= 0) return true;
  const std::size_t size = element_size(src.type);
  std::vector<std::byte> bytes(static_cast<std::size_t>(W * C) * size);
  std::vector<float> row(static_cast<std::size_t>(W * C));
  std::vector<std::uint16_t> out(static_cast<std::size_t>(inner));  // 8-bit results fit too
  std::size_t exact = 0, outputs = 0;
  const std::int64_t samples = std::min<std::int64_t>(8, H);
  for (std::int64_t i = 0; i < samples; ++i) {
    read_row(src, (2 * i + 1) * H / (2 * samples), size, bytes.data());
    widen_ints(src.type, bytes.data(), row.data(), row.size());
    const float* centre = row.data() + kx.radius * C;
    exact += size == 1 ? certified_int_line(centre, C, reinterpret_cast<std::uint8_t*>(out.data()), static_cast<std::size_t>(inner), kx)
                       : certified_int_line(centre, C, out.data(), static_cast<std::size_t>(inner), kx);
    outputs += static_cast<std::size_t>(inner);
  }
  return kernel::certified_int_share_suits(exact, outputs);
}

}  // namespace

bool scipy_order_rows_int_blur(const Plan& plan, const View& src, const View& dst, int workers, const RowFinish& finish) {
  // The plan's conditions (fir's schedule), on these views: a plan made for another call runs the other driver.
  const double cval = plan.spec.cval;
  if (!kernel::certified_int_types(src.type, dst.type) || core::views_overlap(src, dst) ||
      !kernel::cval_fits_certified_int(src.type, cval))
    return false;
  const std::int64_t W = dst.width(), H = dst.height(), C = dst.channels, row = W * C;
  const ScipyAxis y = scipy_axis(plan, 1, H), x = scipy_axis(plan, 0, W);
  const CertifiedIntAxis ky = certified_int_axis(*plan.axes[1].weights, src.type),
                         kx = certified_int_axis(*plan.axes[0].weights, src.type);
  if (!certified_sample_suits(src, kx)) return false;  // neighbours far apart: the double driver
  const auto fill = static_cast<float>(cval);
  const std::size_t size = element_size(src.type);
  const int taps = y.taps();
  // Unsigned 8-bit rows are made two output rows at a time (each tap row loaded once for both):
  // the ring holds one row more.
  const bool pairs = ky.quick_bound > 0.0f;
  const int slots = taps + 1;
  const std::size_t pitch = ring_pitch(row, sizeof(float));
  const std::size_t line_len = static_cast<std::size_t>((W + x.size1 + x.size2) * C);
  const bool packed_out = dst.stride[0] == C * static_cast<std::int64_t>(size);
  // Channels one level through an output's rows are tracked where the sums use them (the first
  // tier's unsigned 8-bit types).
  const bool track = pairs && C <= KnownChannels::kMaxChannels;
  const bool x_fills = std::any_of(x.map.begin(), x.map.end(), [](std::int64_t m) { return m < 0; });  // cval beside the line
  const Bands bands(H, workers);
  std::exception_ptr failure;
#pragma omp parallel for schedule(static, 1) num_threads(bands.workers())
  for (int b = 0; b < bands.workers(); ++b) {
    try {
      IntBuffers& buf = t_ints;
      buf.ring.resize(static_cast<std::size_t>(slots) * pitch);
      buf.line.resize(2 * line_len);
      buf.out.resize(static_cast<std::size_t>(row) * size);
      buf.bytes.resize(static_cast<std::size_t>(row) * size);
      std::vector<const float*> rows(static_cast<std::size_t>(slots));
      std::vector<RowLevels> levels(static_cast<std::size_t>(slots));
      const auto slot = [&](std::int64_t e) { return buf.ring.data() + static_cast<std::size_t>(e % slots) * pitch; };
      const auto levels_of = [&](std::int64_t e) -> const RowLevels& { return levels[static_cast<std::size_t>(e % slots)]; };
      const auto enter = [&](std::int64_t e) {  // extended row e (position e - size1) into its slot
        const std::int64_t r = y.map[static_cast<std::size_t>(e)];
        RowLevels& l = levels[static_cast<std::size_t>(e % slots)];
        if (r < 0) {
          std::fill(slot(e), slot(e) + row, fill);
          l.constant = track ? (1u << C) - 1 : 0u;
          std::fill(std::begin(l.level), std::end(l.level), fill);
          return;
        }
        if (src.stride[0] == C * static_cast<std::int64_t>(size)) {
          widen_ints(src.type, src.pixel(0, r), slot(e), static_cast<std::size_t>(row));
        } else {
          read_row(src, r, size, buf.bytes.data());
          widen_ints(src.type, buf.bytes.data(), slot(e), static_cast<std::size_t>(row));
        }
        l.constant = track ? constant_channels(slot(e), static_cast<std::size_t>(row), static_cast<int>(C), l.level) : 0u;
      };
      // x's pass of a line whose y results are at line + x.size1 C, into output row out_y.
      const auto x_pass = [&](float* line, std::int64_t out_y, const KnownChannels& y_known) {
        const float* centre = line + x.size1 * C;
        extend_line(line, x, W, C, fill);
        const KnownChannels known = known_along_x(y_known, x_fills, fill, kx);
        std::byte* made = packed_out ? reinterpret_cast<std::byte*>(dst.pixel(0, out_y)) : buf.out.data();
        if (size == 1) certified_int_line(centre, C, reinterpret_cast<std::uint8_t*>(made), static_cast<std::size_t>(row), kx, known);
        else certified_int_line(centre, C, reinterpret_cast<std::uint16_t*>(made), static_cast<std::size_t>(row), kx, known);
        if (!packed_out) write_row(made, dst, out_y, size);
        if (finish) finish(out_y);
      };
      const std::int64_t y0 = bands.start[static_cast<std::size_t>(b)], y1 = bands.start[static_cast<std::size_t>(b) + 1];
      for (std::int64_t e = y0; e + 1 < y0 + taps && y0 < y1; ++e) enter(e);
      float* line_a = buf.line.data();
      float* line_b = line_a + line_len;
      for (std::int64_t out_y = y0; out_y < y1;) {
        const int outputs = pairs && out_y + 1 < y1 ? 2 : 1;  // output rows this step
        for (int m = 0; m < outputs; ++m) enter(out_y + taps - 1 + m);
        for (int t = 0; t < taps + outputs - 1; ++t) rows[static_cast<std::size_t>(t)] = slot(out_y + t);
        const int channels = static_cast<int>(C);
        const KnownChannels known_a = track ? known_over_rows(levels_of, out_y, taps, channels, ky) : KnownChannels{};
        const KnownChannels known_b =
            track && outputs == 2 ? known_over_rows(levels_of, out_y + 1, taps, channels, ky) : KnownChannels{};
        if (outputs == 2)
          certified_int_rows_pair(rows.data() + y.size1, line_a + x.size1 * C, line_b + x.size1 * C,
                                  static_cast<std::size_t>(row), ky, known_a, known_b);
        else
          certified_int_rows(rows.data() + y.size1, 0, line_a + x.size1 * C, static_cast<std::size_t>(row), ky, known_a);
        x_pass(line_a, out_y, known_a);
        if (outputs == 2) x_pass(line_b, out_y + 1, known_b);
        out_y += outputs;
      }
    } catch (...) {
#pragma omp critical(fastblur_scipy_int_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return true;
}

}  // namespace fastblur::cpu
