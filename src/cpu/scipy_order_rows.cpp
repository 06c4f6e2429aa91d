// CpuDriver::scipy_order with Schedule::fused_axes: a 2D image filtered along y, then x - SciPy's
// order for an image - in one pass. Each worker makes a band of output rows: source rows enter a
// ring as doubles (as SciPy's line buffer holds them); an output row's y pass sums the ring's rows in
// SciPy's order straight into the x pass's line buffer, goes through the output type there (SciPy
// stores the first axis's result in the output array and the next axis reads it back), is extended
// by x's border mode, and its x pass writes the output row, converted. The image is read once and
// written once - the per-axis passes read and wrote it twice, the second in place through buffered
// lines - with the arithmetic, and so the bits, of those passes.
//
// The rows may also come from the caller and go back to it (Rows<double>: the normalized convolution
// packs and divides rows there, in float64, so its weighted image never goes to memory).
//
// In place, a band reads some rows after they are written: its neighbours' rows within its kernel's
// reach, and rows its own border folds back onto after their turn. Those are converted into a stash
// before any worker writes (the downsample chain does the same).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "hwy/aligned_allocator.h"

#include "core/element.hpp"
#include "cpu/execute.hpp"
#include "cpu/ordered_correlate.hpp"
#include "cpu/scipy_convert.hpp"
#include "cpu/scipy_ring.hpp"
#include "fastblur/derivative_step.hpp"

namespace fastblur::cpu {
namespace {

// A worker's buffers, kept from call to call (fresh pages cost a fault per 4 KiB every call).
struct Buffers {
  hwy::AlignedFreeUniquePtr<double[]> ring, line, out;
  std::size_t ring_size = 0, line_size = 0, out_size = 0;
  double* get(hwy::AlignedFreeUniquePtr<double[]>& b, std::size_t& size, std::size_t want) {
    if (size < want) b = hwy::AllocateAligned<double>(want), size = want;
    return b.get();
  }
};
thread_local Buffers t_buffers;

constexpr std::int64_t kGroup = 8;     // output rows whose y passes share a sweep of the ring
constexpr std::int64_t kStrip = 1024;  // values of a row a sweep takes at a time (8 KiB of doubles)

// Where the rows come from and go: views (read_row, write_row; dst also takes the terms after the
// first, and `in_place` says src is dst), or the caller's Rows<double>.
struct RowsIo {
  std::int64_t width, height, channels;
  ElementType destination;  // the type each axis's result goes through (between_axes)
  std::function<void(std::int64_t y, double* row)> read;
  std::function<void(std::int64_t y, const double* row)> write;
  bool in_place = false;
  const View* dst = nullptr;
  bool streamed = false;  // write streams: each worker fences its stores when its band is done
  // Where rows are doubles already: source row y (of a volume's plane buffer) read where it lies
  // instead of copied into the ring (never in place: the ring keeps rows the band overwrote), and
  // the first term's x pass written straight into destination row y (a float64 view's) instead of
  // through `write`.
  std::function<const double*(std::int64_t y)> source_at = {};
  std::function<double*(std::int64_t y)> destination_at = {};
  RowFinish finish = {};  // on each output row once it is in dst
  ElementType values = ElementType::f64;  // the type of the values y reads (scipy_stored_as)
};

void rows_terms(std::span<const Plan* const> plans, DerivativeSum kind, const RowsIo& io, int workers) {
  const Plan& plan = *plans[0];
  const std::int64_t W = io.width, H = io.height, C = io.channels;
  const std::int64_t row = W * C;
  const std::size_t terms = plans.size();
  // The terms share y's ring (their y kernels are as long, their y borders alike: the caller's rule);
  // each has its own weights and x border.
  std::vector<ScipyAxis> ys, xs;
  std::vector<StoredAs> stored;  // each term's y sums as x reads them
  for (const Plan* p : plans)
    ys.push_back(scipy_axis(*p, 1, H)), xs.push_back(scipy_axis(*p, 0, W)), stored.push_back(scipy_stored_as(*p, 1, io.values, io.destination));
  const ScipyAxis& y = ys[0];
  const int taps = y.taps();
  const double cval = plan.spec.cval;
  const ElementType dt = io.destination;
  const std::size_t dst_item = element_size(dt);
  // Bands of output rows, one per worker. Extended row e (0 <= e < H + taps - 1, position e - size1)
  // enters band b's ring when output row max(start, e - taps + 1) is made; in place, the rows read
  // after their own band or another one writes them are stashed first.
  const Bands bands(H, workers);
  const int threads = bands.workers();
  const std::vector<std::int64_t>& band_start = bands.start;
  const bool in_place = io.in_place;
  const Stash stashing = in_place ? lines_read_after_written(bands, y, H) : Stash{};
  const std::vector<std::int64_t>& stash_slot = stashing.slot;
  const std::vector<std::int64_t>& stashed = stashing.lines;
  hwy::AlignedFreeUniquePtr<double[]> stash =
      hwy::AllocateAligned<double>(std::max<std::size_t>(1, stashed.size() * static_cast<std::size_t>(row)));
  const std::size_t pitch = ring_pitch(row);
  int x_reach = 0;  // the longest x kernel's extension, both sides
  for (const ScipyAxis& x : xs) x_reach = std::max(x_reach, x.size1 + x.size2);
  const std::size_t line_len = static_cast<std::size_t>((W + x_reach) * C);
  const std::size_t group_lines = line_len * static_cast<std::size_t>(kGroup);
  // Output rows in groups of kGroup: the group's y passes run a strip of kStrip values at a time, so
  // the ring's rows of a strip are read from memory once for the group's rows and stay in L1/L2 for
  // them (over whole rows a 35-tap ring, 2.3 MB for a 2050-wide RGBA image, came from L3 for every
  // output row). The ring holds the group's rows and the taps - 1 before.
  const std::int64_t group = std::min<std::int64_t>(kGroup, H);
  const int slots = taps + static_cast<int>(group) - 1;
  // Every stashed row is read before any worker writes (no team when there are none: each region
  // wakes the sleeping workers, 10-100 us on this VM).
  if (!stashed.empty()) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(stashed.size()); ++i)
      io.read(stashed[static_cast<std::size_t>(i)], stash.get() + i * row);
  }
  std::exception_ptr failure;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int b = 0; b < threads; ++b) {
    try {
      Buffers& buf = t_buffers;
      double* ring = buf.get(buf.ring, buf.ring_size, static_cast<std::size_t>(slots) * pitch);
      double* lines = buf.get(buf.line, buf.line_size, group_lines * terms);
      double* out = buf.get(buf.out, buf.out_size, static_cast<std::size_t>(row) * 2);
      std::vector<std::byte> term_row(terms > 1 ? static_cast<std::size_t>(row) * dst_item : 0);
      std::vector<const double*> rows(static_cast<std::size_t>(slots));
      std::vector<double*> centres(static_cast<std::size_t>(group)), strip_out(static_cast<std::size_t>(group));
      const std::int64_t y0 = band_start[static_cast<std::size_t>(b)], y1 = band_start[static_cast<std::size_t>(b) + 1];
      const auto slot = [&](std::int64_t e) { return ring + static_cast<std::size_t>(e % slots) * pitch; };
      const auto enter = [&](std::int64_t e) {  // extended row e into its ring slot
        double* to = slot(e);
        const std::int64_t r = y.map[static_cast<std::size_t>(e)];
        if (r >= 0 && io.source_at) return;  // read where it lies (tap_row)
        if (r < 0) std::fill(to, to + row, cval);
        else if (in_place && stash_slot[static_cast<std::size_t>(r)] >= 0)
          std::memcpy(to, stash.get() + stash_slot[static_cast<std::size_t>(r)] * row, static_cast<std::size_t>(row) * sizeof(double));
        else io.read(r, to);
      };
      const auto tap_row = [&](std::int64_t e) -> const double* {
        const std::int64_t r = y.map[static_cast<std::size_t>(e)];
        return r >= 0 && io.source_at ? io.source_at(r) : slot(e);
      };
      for (std::int64_t e = y0; e + 1 < y0 + taps && y0 < y1; ++e) enter(e);
      for (std::int64_t g0 = y0; g0 < y1; g0 += group) {
        const std::int64_t g1 = std::min(y1, g0 + group);
        for (std::int64_t out_y = g0; out_y < g1; ++out_y) enter(out_y + taps - 1);
        // y: straight into each output row's x line (a term's own lines), a strip at a time for the
        // whole group, the group's rows sharing their tap rows' loads.
        const int outputs = static_cast<int>(g1 - g0);
        for (int t = 0; t < taps + outputs - 1; ++t) rows[static_cast<std::size_t>(t)] = tap_row(g0 + t);
        for (std::size_t k = 0; k < terms; ++k) {
          const ScipyAxis &yk = ys[k], &xk = xs[k];
          for (int m = 0; m < outputs; ++m)
            centres[static_cast<std::size_t>(m)] =
                lines + k * group_lines + static_cast<std::size_t>(m) * line_len + static_cast<std::size_t>(xk.size1 * C);
          for (std::int64_t s0 = 0; s0 < row; s0 += kStrip) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(kStrip, row - s0));
            for (int m = 0; m < outputs; ++m) strip_out[static_cast<std::size_t>(m)] = centres[static_cast<std::size_t>(m)] + s0;
            ordered_correlate_row_window(rows.data() + yk.size1, static_cast<std::size_t>(s0), strip_out.data(), outputs,
                                         n, yk.centre, yk.size1, yk.size2, yk.symmetry, stored[k]);
          }
        }
        for (std::int64_t out_y = g0; out_y < g1; ++out_y) {
          for (std::size_t k = 0; k < terms; ++k) {
            const ScipyAxis& x = xs[k];
            double* line = lines + k * group_lines + static_cast<std::size_t>(out_y - g0) * line_len;
            double* centre = line + static_cast<std::size_t>(x.size1 * C);
            // SciPy stores y's result, x reads it back (float32's and truncated ones as the y sums were stored).
            through_unless_stored(stored[k], dt, centre, static_cast<std::size_t>(row));
            extend_line(line, x, W, C, cval);  // x: the line extended by its border mode
            double* made = k == 0 && io.destination_at ? io.destination_at(out_y) : out;
            ordered_correlate(centre, made, static_cast<std::size_t>(row), x.centre, x.size1, x.size2, x.symmetry,
                              static_cast<std::size_t>(C));
            if (k == 0) {
              if (made == out) io.write(out_y, out);
            } else {  // the term in the output's type, folded into the row as NumPy folds it
              from_doubles(dt, out, static_cast<std::size_t>(row), term_row.data());
              derivative_sum_step(kind, dt, io.dst->pixel(0, out_y), term_row.data(), static_cast<std::size_t>(row), k == 1,
                                  k + 1 == terms, 1);
            }
          }
          if (io.finish) io.finish(out_y);
        }
      }
      if (io.streamed) fence_streamed();
    } catch (...) {
#pragma omp critical(fastblur_scipy_rows_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

void scipy_order_rows_blur(const Plan& plan, const View& src, const View& dst, int workers, const RowFinish& finish) {
  const Plan* plans[] = {&plan};
  scipy_order_rows_terms(plans, DerivativeSum::laplace, src, dst, workers, finish);
}

void scipy_order_rows_terms(std::span<const Plan* const> plans, DerivativeSum kind, const View& src, const View& dst,
                            int workers, const RowFinish& finish) {
  // A float32 destination past the caches (the plan's Schedule::stream_destination): packed rows streamed.
  const bool stream = plans[0]->schedule.stream_destination && dst.type == ElementType::f32 &&
                      dst.stride[0] == static_cast<std::ptrdiff_t>(dst.channels * sizeof(float));
  const bool round_once = rounds_once(*plans[0]);
  RowsIo io{src.width(), src.height(), src.channels, between_axes(*plans[0], dst.type),
            [&](std::int64_t y, double* row) { read_row(src, y, row); },
            [&](std::int64_t y, const double* row) {
              if (stream)  // rounded to nearest, as once
                from_doubles_streamed(row, static_cast<std::size_t>(dst.width() * dst.channels),
                                      reinterpret_cast<float*>(dst.pixel(0, y)));
              else
                write_row(row, dst, y, round_once);
            },
            src.data == dst.data, &dst, stream};
  io.finish = finish;
  io.values = src.type;
  // A float64 view's rows are copied into the ring all the same: read where they lie they ran
  // 1.09-1.6x slower (bench/RESULTS.md, issue 43, "float64 rows through the ring again").
  if (rows_are_doubles(dst) && !stream)
    io.destination_at = [&](std::int64_t y) { return reinterpret_cast<double*>(dst.pixel(0, y)); };
  rows_terms(plans, kind, io, workers);
}

void scipy_order_plane_rows(const Plan& plan, const double* plane, const View& dst) {
  const Plan* plans[] = {&plan};
  const std::int64_t row = dst.width() * dst.channels;
  // The plane's rows are read where they lie (source_at): no `read`.
  const bool round_once = rounds_once(plan);
  const ElementType between = between_axes(plan, dst.type);
  RowsIo io{dst.width(), dst.height(), dst.channels, between, {},
            [&](std::int64_t y, const double* from) { write_row(from, dst, y, round_once); }, false, &dst};
  io.source_at = [&](std::int64_t y) { return plane + y * row; };
  io.values = between;  // z's results, stored in the output's type (or doubles, rounded once)
  if (rows_are_doubles(dst))
    io.destination_at = [&](std::int64_t y) { return reinterpret_cast<double*>(dst.pixel(0, y)); };
  rows_terms(plans, DerivativeSum::laplace, io, 1);
}

bool scipy_rows_available(const Plan& plan) {
  return plan.schedule.driver == CpuDriver::scipy_order && plan.schedule.fused_axes && plan.extent[2] == 1 &&
         !(plan.axes[2].sigma > 0.0);
}

void scipy_order_rows_blur(const Plan& plan, const Rows<double>& rows) {
  if (!scipy_rows_available(plan) || rows.width != plan.extent[0] || rows.height != plan.extent[1] ||
      rows.channels != plan.channels)
    throw std::logic_error("internal: scipy_order_rows_blur runs a 2D fused scipy-order plan of the rows' shape");
  const Plan* plans[] = {&plan};
  RowsIo io{rows.width, rows.height, rows.channels, between_axes(plan, plan.destination), rows.read, rows.write};
  io.values = plan.source;
  rows_terms(plans, DerivativeSum::laplace, io, plan.schedule.threads > 0 ? plan.schedule.threads : omp_get_max_threads());
}

}  // namespace fastblur::cpu
