// CpuDriver::scipy_order: scipy.ndimage.gaussian_filter's own arithmetic, for Rounding::scipy. Each
// axis in the spec's axis_order is correlated with SciPy's weights in double, every output summed in
// SciPy's order (cpu/ordered_correlate: SIMD across outputs, a separate multiply and add per tap),
// then converted to the output type as C converts (integers truncated), and the next axis reads
// that output - so every dtype's result is SciPy's to the bit, and a blur over several axes equals
// its sequence of one-axis blurs.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "hwy/aligned_allocator.h"

#include "core/border.hpp"
#include "core/element.hpp"
#include "core/overlap.hpp"
#include "cpu/execute.hpp"
#include "cpu/certified_short_sums.hpp"
#include "cpu/interleaved_pixels.hpp"
#include "cpu/pixels_view.hpp"
#include "cpu/ordered_correlate.hpp"
#include "cpu/scipy_convert.hpp"
#include "cpu/scipy_ring.hpp"
#include "cpu/scratch.hpp"

namespace fastblur::cpu {
namespace {

// `count` values of `type` `stride` bytes apart into consecutive doubles, and back, converted as C
// converts them (core::c_convert: integers truncated toward zero, as SciPy's filters store them):
// packed runs through the dispatched conversions (cpu/scipy_convert), strided ones gathered or
// scattered around them (a double at a time, range-checked, was 44% of a Fortran-ordered volume's
// call into a C-ordered output: bench/RESULTS.md, issue 43, twelfth session).
void load(ElementType type, const std::byte* p, std::ptrdiff_t stride, std::int64_t count, double* to) {
  to_doubles_strided(type, p, stride, 1, static_cast<std::size_t>(count), to);
}

void store(ElementType type, const double* from, std::int64_t count, std::byte* p, std::ptrdiff_t stride) {
  from_doubles_strided(type, from, 1, static_cast<std::size_t>(count), p, stride);
}

// A view as an array of four axes: channels (extent C, adjacent), x, y, z.
struct Array {
  std::byte* data;
  ElementType type;
  std::array<std::int64_t, 4> shape;
  std::array<std::ptrdiff_t, 4> strides;
};
Array array_of(const View& v) {
  const auto es = static_cast<std::ptrdiff_t>(element_size(v.type));
  return {static_cast<std::byte*>(v.data), v.type, {v.channels, v.extent[0], v.extent[1], v.extent[2]},
          {es, v.stride[0], v.stride[1], v.stride[2]}};
}

// How many neighbouring lines share a buffer: one vector's worth and more, interleaved.
constexpr std::int64_t kBlock = 64;
// How many blocks ahead of the one converted a packed line is prefetched.
constexpr std::int64_t kLinesAhead = 2;

// Filtering across rows: the lane axis is adjacent in memory, so each output row is computed from
// its neighbouring rows converted once each into a ring of rows, a strip of the lane axis at a time,
// sized so the ring stays in cache. Rows are copied into the ring for float64 too: read in place,
// rows a power of two apart map to the same L1 sets, and a few dozen taps thrash them.
struct Rows {
  const std::byte* sbase;
  std::byte* dbase;
  ElementType st, dt;
  std::int64_t n;
  int size1, size2, sym;
  const double* fw;
  const std::vector<std::int64_t>* map;
  double cval;
  std::ptrdiff_t s_step, d_step, d_lane;
  std::int64_t lane_extent;
  std::vector<std::int64_t> ext, s_str, d_str;
  std::int64_t outer;
};

void correlate_rows(const Rows& r, int nthreads) {
  const std::int64_t taps = r.size1 + r.size2 + 1;
  // The strip: the taps' rows together within about 32 KiB (L1: 9.2 -> 7.7 ms for a 2000x1200x4 uint8
  // y pass at radius 3 against 128 KiB), in whole vectors.
  std::int64_t S =
      std::min(r.lane_extent, std::max<std::int64_t>(64, (std::int64_t{512} << 10) / 8 / taps / 64 * 64));
  std::int64_t chunks = (r.lane_extent + S - 1) / S;
  // Few blocks (a volume's z pass: one plane of rows, 7 strips) are split evenly over the threads:
  // 7 strips on 2 threads left one idle for a seventh of the pass.
  if (r.outer * chunks < 4 * static_cast<std::int64_t>(nthreads) && chunks % nthreads != 0 &&
      r.lane_extent >= 64 * nthreads)
    chunks = (chunks + nthreads - 1) / nthreads * nthreads;
  // Strips of one width (in whole vectors): a 5100-value RGB row made a strip of 3840 and one of
  // 1260, and the thread with the wide one took 1.5x as long (bench/RESULTS.md, issue 43, twelfth session).
  if (chunks > 1) {
    S = ((r.lane_extent + chunks - 1) / chunks + 15) / 16 * 16;
    chunks = (r.lane_extent + S - 1) / S;
  }
  // Pieces of the filtered axis too, where strips alone leave threads idle (a 2D image has a few
  // strips): each piece refills its ring, so pieces are kept to at least 8 taps' worth of rows.
  const std::int64_t want = 4 * static_cast<std::int64_t>(nthreads);
  const std::int64_t pieces =
      r.outer * chunks >= want
          ? 1
          : std::clamp<std::int64_t>(want / (r.outer * chunks), 1, std::max<std::int64_t>(1, r.n / (8 * taps)));
  const std::int64_t piece_rows = (r.n + pieces - 1) / pieces;
  const std::int64_t blocks = r.outer * chunks * pieces;
  bool dst_aligned = reinterpret_cast<std::uintptr_t>(r.dbase) % alignof(double) == 0 && r.d_step % 8 == 0;
  for (std::size_t k = 0; k < r.ext.size(); ++k) dst_aligned = dst_aligned && r.d_str[k] % 8 == 0;
  const bool direct_out = r.dt == ElementType::f64 && r.d_lane == 8 && dst_aligned;
  const std::vector<std::int64_t>& map = *r.map;
  const std::ptrdiff_t s_item = static_cast<std::ptrdiff_t>(element_size(r.st));
#pragma omp parallel num_threads(nthreads)
  {
    // Output rows kGroup at a time, sharing their tap rows' loads (ordered_correlate_row_window).
    constexpr std::int64_t kGroup = 4;
    const std::int64_t slots = taps + kGroup - 1;
    std::vector<double> cval_row(static_cast<std::size_t>(S), r.cval), out(static_cast<std::size_t>(S * kGroup));
    // Ring rows an odd number of cache lines apart, so that successive rows start in different sets.
    const auto pitch = static_cast<std::int64_t>(ring_pitch(S));
    std::vector<double> ring(static_cast<std::size_t>(slots * pitch));
    std::vector<const double*> rows(static_cast<std::size_t>(slots));
    double* outs[kGroup];
#pragma omp for schedule(static)
    for (std::int64_t block = 0; block < blocks; ++block) {
      const std::int64_t l0 = (block % pieces) * piece_rows, l1 = std::min(r.n, l0 + piece_rows);
      std::int64_t rest = block / pieces / chunks;
      const std::int64_t first = (block / pieces % chunks) * S, count = std::min(S, r.lane_extent - first);
      std::ptrdiff_t so = first * s_item, doff = first * r.d_lane;
      for (std::size_t k = r.ext.size(); k-- > 0;) {
        const std::int64_t i = rest % r.ext[k];
        rest /= r.ext[k];
        so += i * r.s_str[k];
        doff += i * r.d_str[k];
      }
      // Extended row j (0 <= j < len) is source row map[j], or the cval row.
      const auto convert_row = [&](std::size_t j, double* to) {
        if (map[j] < 0) {
          std::copy(cval_row.begin(), cval_row.begin() + count, to);
          return;
        }
        load(r.st, r.sbase + so + map[j] * r.s_step, s_item, count, to);
      };
      // Output row l reads extended rows l .. l + taps - 1: the ring holds them, slot j mod slots.
      for (std::int64_t j = l0; j + 1 < l0 + taps; ++j)
        convert_row(static_cast<std::size_t>(j), ring.data() + (j % slots) * pitch);
      for (std::int64_t l = l0; l < l1; l += kGroup) {
        const int outputs = static_cast<int>(std::min(kGroup, l1 - l));
        for (std::int64_t newest = l + taps - 1; newest < l + taps - 1 + outputs; ++newest)  // rows entering the ring
          convert_row(static_cast<std::size_t>(newest), ring.data() + (newest % slots) * pitch);
        for (std::int64_t t = 0; t < taps + outputs - 1; ++t)
          rows[static_cast<std::size_t>(t)] = ring.data() + ((l + t) % slots) * pitch;
        for (int m = 0; m < outputs; ++m)
          outs[m] = direct_out ? reinterpret_cast<double*>(r.dbase + doff + (l + m) * r.d_step) : out.data() + m * S;
        ordered_correlate_row_window(rows.data() + r.size1, 0, outs, outputs, static_cast<std::size_t>(count), r.fw,
                                     r.size1, r.size2, r.sym, StoredAs::as_summed);
        if (!direct_out)
          for (int m = 0; m < outputs; ++m)
            store(r.dt, outs[m], count, r.dbase + doff + (l + m) * r.d_step, r.d_lane);
      }
    }
  }
}

// Lines shorter than a vector, their values adjacent (an RGB image's channel axis blurred as SciPy's
// one sigma does): a block of lines at a time, each position of the lines gathered into a row of
// doubles across lines, the outputs summed across lines (ordered_correlate_row_window: the same
// order per output) and scattered back. A block's values are all read before any is written, so
// in place is safe; the lines path's extended buffer took 6.6 ms for a 1000x1700x3 uint8 channel
// pass (bench/RESULTS.md, issue 43).
struct ShortLines {
  const std::byte* sbase;
  std::byte* dbase;
  ElementType st, dt;
  std::int64_t n;  // the line's length
  int size1, size2, sym;
  const double* fw;
  std::vector<std::int64_t> map;  // extended position -> position (-1: cval)
  double cval;
  std::ptrdiff_t s_step, d_step, s_lane, d_lane;
  std::int64_t lane_extent;
  std::vector<std::int64_t> ext, s_str, d_str;
  std::int64_t outer;
  // Certified sums (certified_short_sums): each output's coefficient per position and for cval
  // (n x (n + 1)), and the margin; empty where SciPy's sums run for every output.
  std::vector<double> coefficients = {};
  double delta = 0.0;
};

// Where an unsigned 8- or 16-bit array's short lines into its own type (values and cval in range,
// SciPy's symmetric non-negative weights: every result in range) take certified sums: SciPy's double
// sum in its order lies within about 60 roundings of 2^-53 of the type's maximum from the exact
// sum; a margin of 1e-9 of it is thousands of times that.
void certify(ShortLines& r) {
  const bool unsigned_type = r.st == r.dt && (r.dt == ElementType::u8 || r.dt == ElementType::u16);
  if (!unsigned_type || r.sym != 1 || r.n > 4) return;
  const double most = core::integer_range(r.dt)->highest;
  if (!(r.cval >= 0.0 && r.cval <= most)) return;
  for (int j = -r.size1; j <= r.size2; ++j)
    if (!(r.fw[j] >= 0.0)) return;
  r.coefficients.assign(static_cast<std::size_t>(r.n * (r.n + 1)), 0.0);
  for (std::int64_t l = 0; l < r.n; ++l)
    for (int j = -r.size1; j <= r.size2; ++j) {
      const std::int64_t m = r.map[static_cast<std::size_t>(l + j + r.size1)];
      r.coefficients[static_cast<std::size_t>(l * (r.n + 1) + (m < 0 ? r.n : m))] += r.fw[j];
    }
  r.delta = 1e-9 * most;
}

constexpr std::int64_t kShortLinesBlock = 512;  // lines a block: its rows stay in L1 for a few positions

// `count` short lines, the first's values at so (source) and doff (destination): each position
// gathered into a row of doubles across the lines, the outputs summed across them, scattered back.
// All read before any is written.
void short_lines_block(const ShortLines& r, std::ptrdiff_t so, std::ptrdiff_t doff, std::int64_t count) {
  constexpr int kGroup = 4;  // outputs sharing their tap rows' loads
  const std::int64_t taps = r.size1 + r.size2 + 1;
  const auto s_item = static_cast<std::ptrdiff_t>(element_size(r.st)), d_item = static_cast<std::ptrdiff_t>(element_size(r.dt));
  // Kept per thread across calls (a row finisher calls this once per row).
  thread_local std::vector<double> planes, outs_store, cval_row, pixels;
  thread_local std::vector<const double*> rows;
  thread_local std::vector<double*> plane_rows, out_rows;
  const auto pitch = static_cast<std::int64_t>(ring_pitch(kShortLinesBlock));
  planes.resize(static_cast<std::size_t>(r.n * pitch)), outs_store.resize(static_cast<std::size_t>(r.n * pitch));
  pixels.resize(static_cast<std::size_t>(r.n * kShortLinesBlock));  // a packed run's values, interleaved
  cval_row.assign(static_cast<std::size_t>(count), r.cval);
  rows.resize(static_cast<std::size_t>(r.n + taps - 1));
  plane_rows.clear(), out_rows.clear();
  for (std::int64_t p = 0; p < r.n; ++p)
    plane_rows.push_back(planes.data() + p * pitch), out_rows.push_back(outs_store.data() + p * pitch);
  if (r.s_step == s_item && r.s_lane == r.n * s_item) {  // one packed run: converted whole, then split
    to_doubles(r.st, r.sbase + so, static_cast<std::size_t>(count * r.n), pixels.data());
    deinterleave(pixels.data(), static_cast<std::size_t>(count), static_cast<int>(r.n), plane_rows.data());
  } else {
    for (std::int64_t p = 0; p < r.n; ++p)
      load(r.st, r.sbase + so + p * r.s_step, r.s_lane, count, plane_rows[static_cast<std::size_t>(p)]);
  }
  // Extended position j of every line is position map[j], or the cval row.
  for (std::int64_t j = 0; j < r.n + taps - 1; ++j) {
    const std::int64_t m = r.map[static_cast<std::size_t>(j)];
    rows[static_cast<std::size_t>(j)] = m < 0 ? cval_row.data() : plane_rows[static_cast<std::size_t>(m)];
  }
  if (!r.coefficients.empty()) {
    thread_local std::vector<std::uint32_t> undecided;
    undecided.resize(static_cast<std::size_t>(count));
    for (std::int64_t l = 0; l < r.n; ++l) {
      const std::size_t left = certified_short_sums(plane_rows.data(), static_cast<int>(r.n),
                                                    r.coefficients.data() + l * (r.n + 1), r.cval, r.delta,
                                                    static_cast<std::size_t>(count), out_rows[static_cast<std::size_t>(l)],
                                                    undecided.data());
      for (std::size_t k = 0; k < left; ++k)  // SciPy's own sum for lane undecided[k]
        ordered_correlate_rows(rows.data() + r.size1 + l, undecided[k], out_rows[static_cast<std::size_t>(l)] + undecided[k], 1,
                               r.fw, r.size1, r.size2, r.sym);
    }
  } else {
    for (std::int64_t l = 0; l < r.n; l += kGroup) {
      const int outputs = static_cast<int>(std::min<std::int64_t>(kGroup, r.n - l));
      ordered_correlate_row_window(rows.data() + r.size1 + l, 0, out_rows.data() + l, outputs, static_cast<std::size_t>(count),
                                   r.fw, r.size1, r.size2, r.sym, StoredAs::as_summed);
    }
  }
  if (r.d_step == d_item && r.d_lane == r.n * d_item) {
    interleave(out_rows.data(), static_cast<std::size_t>(count), static_cast<int>(r.n), pixels.data());
    from_doubles(r.dt, pixels.data(), static_cast<std::size_t>(count * r.n), r.dbase + doff);
  } else {
    for (std::int64_t p = 0; p < r.n; ++p)
      store(r.dt, out_rows[static_cast<std::size_t>(p)], count, r.dbase + doff + p * r.d_step, r.d_lane);
  }
}

void correlate_short_lines(const ShortLines& r, int nthreads) {
  const std::int64_t chunks = (r.lane_extent + kShortLinesBlock - 1) / kShortLinesBlock;
  const std::int64_t blocks = r.outer * chunks;
#pragma omp parallel for schedule(static) num_threads(nthreads)
  for (std::int64_t block = 0; block < blocks; ++block) {
    std::int64_t rest = block / chunks;
    const std::int64_t first = (block % chunks) * kShortLinesBlock;
    std::ptrdiff_t so = first * r.s_lane, doff = first * r.d_lane;
    for (std::size_t k = r.ext.size(); k-- > 0;) {
      const std::int64_t i = rest % r.ext[k];
      rest /= r.ext[k];
      so += i * r.s_str[k];
      doff += i * r.d_str[k];
    }
    short_lines_block(r, so, doff, std::min(kShortLinesBlock, r.lane_extent - first));
  }
}

// scipy.ndimage.correlate1d of `src` into `dst` along array axis `axis` (of the four), SciPy's
// arithmetic exactly. src and dst may be the same memory (the lines path buffers whole lines).
// `across_lines` (Schedule::x_across_rows): lanes across lines even where the filtered axis lies
// closest, for lines too short to vectorise along.
void correlate1d(const Array& src, const Array& dst, int axis, const std::vector<double>& weights, Border border,
                 double cval, int nthreads, bool overlapping, bool across_lines) {
  constexpr int ndim = 4;
  const ElementType st = src.type, dt = dst.type;
  const std::int64_t n = src.shape[static_cast<std::size_t>(axis)];
  const int size1 = static_cast<int>(weights.size() / 2);
  const int size2 = static_cast<int>(weights.size()) - size1 - 1;
  const int sym = scipy_symmetry(weights);
  const auto sh = [&](int d) { return src.shape[static_cast<std::size_t>(d)]; };
  const auto ss = [&](int d) { return src.strides[static_cast<std::size_t>(d)]; };
  const auto ds = [&](int d) { return dst.strides[static_cast<std::size_t>(d)]; };
  // The lanes: the other axis (of more than one element) whose elements lie closest together,
  // unless the filtered axis is itself the closest (then one line at a time, vectorised along it).
  int lane_axis = -1;
  for (int d = 0; d < ndim; ++d)
    if (d != axis && sh(d) > 1 && (lane_axis < 0 || std::abs(ss(d)) < std::abs(ss(lane_axis)))) lane_axis = d;
  if (lane_axis >= 0 && std::abs(ss(lane_axis)) > std::abs(ss(axis)) && !across_lines) lane_axis = -1;
  // A line at a time whose outputs lie a cache line and more apart (a Fortran-ordered source into a
  // C-ordered output: every value written to a line of its own) takes its lanes along the
  // destination's closest axis instead: each position's lanes are then written together, and the
  // source's lines read a cache line for many positions.
  if (lane_axis < 0 && std::abs(ds(axis)) >= 64) {
    int closest = -1;
    for (int d = 0; d < ndim; ++d)
      if (d != axis && sh(d) > 1 && (closest < 0 || std::abs(ds(d)) < std::abs(ds(closest)))) closest = d;
    if (closest >= 0 && std::abs(ds(closest)) < 64) lane_axis = closest;
  }
  const std::int64_t lane_extent = lane_axis >= 0 ? sh(lane_axis) : 1;
  const std::int64_t B = std::min<std::int64_t>(kBlock, lane_extent);
  const std::int64_t chunks = (lane_extent + B - 1) / B;
  std::vector<std::int64_t> ext, s_str, d_str;
  for (int d = 0; d < ndim; ++d)
    if (d != axis && d != lane_axis && sh(d) > 1) ext.push_back(sh(d)), s_str.push_back(ss(d)), d_str.push_back(ds(d));
  std::int64_t outer = 1;
  for (std::int64_t e : ext) outer *= e;
  if (outer == 0 || n == 0 || lane_extent == 0) return;
  const std::int64_t blocks = outer * chunks;
  const std::byte* sbase = src.data;
  std::byte* dbase = dst.data;
  const std::ptrdiff_t s_step = ss(axis), d_step = ds(axis);
  const std::ptrdiff_t s_lane = lane_axis >= 0 ? ss(lane_axis) : 0, d_lane = lane_axis >= 0 ? ds(lane_axis) : 0;
  const double* fw = weights.data() + size1;
  const std::vector<std::int64_t> map = core::border_map(-size1, n + size1 + size2, n, border);
  const auto s_item = static_cast<std::ptrdiff_t>(element_size(st));
  // In place only where each value is its own source (a block's lines read whole before written).
  const bool same_layout = sbase == dbase && s_step == d_step && s_lane == d_lane && s_str == d_str && st == dt;
  if (across_lines && lane_axis >= 0 && (!overlapping || same_layout)) {
    ShortLines lines{sbase, dbase, st, dt, n, size1, size2, sym, fw, map, cval, s_step, d_step, s_lane,
                     d_lane, lane_extent, ext, s_str, d_str, outer};
    certify(lines);
    correlate_short_lines(lines, nthreads);
    return;
  }
  // In place (or overlapping), rows are written before later outputs read them: the lines path
  // buffers whole lines first.
  if (lane_axis >= 0 && s_lane == s_item && !overlapping) {
    // The row: the lane axis with every other axis that continues it in memory in both arrays (the
    // x and channel axes of an image filtered along y make one row of width x channels).
    std::int64_t row = lane_extent;
    std::vector<std::int64_t> r_ext, r_s, r_d;
    std::vector<bool> used(ext.size(), false);
    for (bool merged = true; merged;) {
      merged = false;
      for (std::size_t k = 0; k < ext.size(); ++k)
        if (!used[k] && s_str[k] == row * s_lane && d_str[k] == row * d_lane) {
          row *= ext[k];
          used[k] = merged = true;
        }
    }
    for (std::size_t k = 0; k < ext.size(); ++k)
      if (!used[k]) r_ext.push_back(ext[k]), r_s.push_back(s_str[k]), r_d.push_back(d_str[k]);
    // Rows shorter than a few vectors vectorise badly; the lines path interleaves them instead.
    if (row >= 32) {
      std::int64_t r_outer = 1;
      for (std::int64_t e : r_ext) r_outer *= e;
      correlate_rows(Rows{sbase, dbase, st, dt, n, size1, size2, sym, fw, &map, cval, s_step, d_step, d_lane, row, r_ext,
                          r_s, r_d, r_outer},
                     nthreads);
      return;
    }
  }
#pragma omp parallel num_threads(nthreads)
  {
    const std::size_t len = static_cast<std::size_t>(n + size1 + size2);
    const std::size_t Bz = static_cast<std::size_t>(B);
    // Kept per thread across calls: freshly mapped buffers cost a page fault per 4 KiB every call.
    thread_local hwy::AlignedFreeUniquePtr<double[]> buf_store, out_store;
    thread_local std::size_t buf_size = 0, out_size = 0;
    if (buf_size < len * Bz) {
      buf_size = len * Bz;
      buf_store = hwy::AllocateAligned<double>(buf_size);
    }
    if (out_size < static_cast<std::size_t>(n) * Bz) {
      out_size = static_cast<std::size_t>(n) * Bz;
      out_store = hwy::AllocateAligned<double>(out_size);
    }
    double* const buf = buf_store.get();
    double* const out = out_store.get();
    // A block's first lane in the source (so) and the destination (doff).
    const auto offsets = [&](std::int64_t block, std::ptrdiff_t& so, std::ptrdiff_t& doff) {
      std::int64_t rest = block / chunks;
      const std::int64_t first = (block % chunks) * B;
      so = first * s_lane, doff = first * d_lane;
      for (std::size_t k = ext.size(); k-- > 0;) {
        const std::int64_t i = rest % ext[k];
        rest /= ext[k];
        so += i * s_str[k];
        doff += i * d_str[k];
      }
    };
#pragma omp for schedule(static)
    for (std::int64_t block = 0; block < blocks; ++block) {
      const std::int64_t count = std::min(B, lane_extent - (block % chunks) * B);
      std::ptrdiff_t so, doff;
      offsets(block, so, doff);
      // One packed line at a time, read from memory as it is converted: a short one (a volume's x
      // axis, a few hundred values) has the line two blocks on fetched meanwhile, as the
      // prefetchers stop at each 4 KiB page (float32 120x200x230's x 1.13x; longer lines, which
      // the prefetchers follow, 0.95x: bench/RESULTS.md, issue 43, twelfth session).
      if (B == 1 && s_step == s_item && n * s_item <= 4096 && block + kLinesAhead < blocks) {
        std::ptrdiff_t ahead, unused;
        offsets(block + kLinesAhead, ahead, unused);
        for (std::int64_t b = 0; b < n * s_item; b += 64) __builtin_prefetch(sbase + ahead + b);
      }
      // The lines extended by the border mode, as SciPy's line buffer, `count` lanes interleaved
      // (the unused lanes of a short block hold zeros): the line itself, then its extension copied
      // from the positions the border mode maps it to.
      double* line = buf + static_cast<std::size_t>(size1) * Bz;
      if (B == 1) {
        load(st, sbase + so, s_step, n, line);
      } else if (count == B && s_step == B * s_lane) {
        load(st, sbase + so, s_lane, n * B, line);  // lanes and positions adjacent: one run (pixels)
      } else {
        for (std::int64_t l = 0; l < n; ++l) {
          double* to = line + static_cast<std::size_t>(l) * Bz;
          load(st, sbase + so + l * s_step, s_lane, count, to);
          if (count < B) std::fill(to + count, to + B, 0.0);
        }
      }
      const auto extend = [&](std::size_t j) {
        double* to = buf + j * Bz;
        const std::int64_t m = map[j];
        if (m < 0) {
          std::fill(to, to + count, cval);
          std::fill(to + count, to + B, 0.0);
        } else {
          const double* from = buf + static_cast<std::size_t>(m + size1) * Bz;
          std::copy(from, from + B, to);
        }
      };
      for (std::size_t j = 0; j < static_cast<std::size_t>(size1); ++j) extend(j);
      for (std::size_t j = static_cast<std::size_t>(size1 + n); j < len; ++j) extend(j);
      const double* center = buf + static_cast<std::size_t>(size1) * Bz;
      ordered_correlate(center, out, static_cast<std::size_t>(n * B), fw, size1, size2, sym, Bz);
      if (B == 1) {
        store(dt, out, n, dbase + doff, d_step);
      } else if (count == B && d_step == B * d_lane) {
        store(dt, out, n * B, dbase + doff, d_lane);
      } else {
        for (std::int64_t l = 0; l < n; ++l) store(dt, out + l * B, count, dbase + doff + l * d_step, d_lane);
      }
    }
  }
}

// No axis to filter: the values converted to the output type as C converts them (SciPy copies so).
void convert_copy(const View& src, const View& dst) {
  const std::size_t se = element_size(src.type), de = element_size(dst.type);
  for (std::int64_t z = 0; z < src.depth(); ++z)
    for (std::int64_t y = 0; y < src.height(); ++y)
      for (std::int64_t x = 0; x < src.width(); ++x)
        for (int c = 0; c < src.channels; ++c) {
          double v = core::load_element(src.type, src.pixel(x, y, z) + static_cast<std::size_t>(c) * se);
          store(dst.type, &v, 1, dst.pixel(x, y, z) + static_cast<std::size_t>(c) * de, 0);
        }
}

// SciPy's weights along `axis`: the plan's (the spec's own from the Python drop-in, in NumPy's
// arithmetic; else the sampled Gaussian or its derivative as a correlation, as gaussian_filter1d).
const std::vector<double>& scipy_weights(const Plan& plan, int axis) {
  return *plan.axes[static_cast<std::size_t>(axis)].weights;
}

// x's pass (SciPy's weights, border and cval) over the rows of one plane of `dst` (y's lines of x's
// values), in place: the plane at offset 0 - a row finisher adds the plane's.
ShortLines x_of_plane_rows(const Plan& plan, const View& dst) {
  const std::vector<double>& w = scipy_weights(plan, 0);
  const int size1 = static_cast<int>(w.size() / 2), size2 = static_cast<int>(w.size()) - size1 - 1;
  const std::int64_t n = dst.extent[0];
  ShortLines x{static_cast<const std::byte*>(dst.data), static_cast<std::byte*>(dst.data), dst.type, dst.type, n, size1, size2,
               scipy_symmetry(w), w.data() + size1, core::border_map(-size1, n + size1 + size2, n, plan.spec.border[0]),
               plan.spec.cval,
               static_cast<std::ptrdiff_t>(element_size(dst.type)), static_cast<std::ptrdiff_t>(element_size(dst.type)),
               dst.stride[1], dst.stride[1], dst.extent[1], {}, {}, {}, 1};
  certify(x);
  return x;
}

// Plane z of a packed float64 volume rounded once into plane z of `to` (cpu::rounds_once): in one run
// where `to`'s plane is packed too (a row may be a pixel's few values), else row by row.
void round_plane(const View& from, const View& to, std::int64_t z) {
  const View f = plane_of(from, z), t = plane_of(to, z);
  if (planes_packed(t)) {
    from_doubles_rounded(t.type, reinterpret_cast<const double*>(f.data), static_cast<std::size_t>(t.width() * t.height() * t.channels),
                         t.data);
    return;
  }
  for (std::int64_t y = 0; y < t.height(); ++y) write_row(reinterpret_cast<const double*>(f.pixel(0, y)), t, y, true);
}

// A packed float64 volume's values rounded once into `to`, plane by plane.
void round_into(const View& from, const View& to, int threads) {
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t z = 0; z < to.depth(); ++z) round_plane(from, to, z);
}

// A 2D image's fused rows (Schedule::fused_axes): the certified 8-bit sums where the plan has them and
// these views allow, else SciPy's double sums; `finish` on each output row.
void scipy_order_image_rows(const Plan& plan, const View& src, const View& dst, int workers, const RowFinish& finish = {}) {
  if (!(plan.schedule.scipy_int_certified && scipy_order_rows_int_blur(plan, src, dst, workers, finish)))
    scipy_order_rows_blur(plan, src, dst, workers, finish);
}

}  // namespace

void scipy_order_blur(const Plan& plan, const View& src, const View& dst) {
  const int threads = plan.schedule.threads > 0 ? plan.schedule.threads : omp_get_max_threads();
  const Array s = array_of(src);
  // Rounded once into an integer output (cpu::rounds_once), a pass per axis stores its sums in a
  // float64 volume instead of the output (nothing rounded between axes); the fused rows read it and
  // round once as they write, or, where no rows fuse, it is rounded into the output at the end. Made
  // only where a pass per axis runs (z's before the fused rows, every axis where none fuse) or the
  // pixels' image does: fused planes and an image's fused rows need none.
  const bool z_pass = plan.axes[2].sigma > kSigmaCutoff && !plan.schedule.fused_z;
  const bool via_doubles = rounds_once(plan) && dst.type != ElementType::f64 &&
                           (plan.schedule.pixels_image || !plan.schedule.fused_axes || z_pass);
  std::optional<ScratchImage> doubles;
  View between = dst;  // where a pass per axis stores its result
  if (via_doubles) {
    const auto values = static_cast<std::size_t>(dst.width() * dst.height() * dst.depth() * dst.channels);
    doubles.emplace(values * sizeof(double), 0);
    between = View::packed(doubles->as<double>(), ElementType::f64, dst.width(), dst.height(), dst.depth(), dst.channels);
  }
  const Array b = array_of(between);
  // Schedule::pixels_image: z and y by the image's plan, then x (SciPy's last axis) across the
  // pixels - of each output row while in cache where the image's rows are fused, else in place
  // (rounded once: in the float64 volume, then rounded into the output).
  // Only where each pixel's values are packed (a padded pixel is not one).
  if (plan.schedule.pixels_image && pixels_packed(src) && pixels_packed(dst)) {
    const Plan& image = *plan.schedule.pixels_image;
    if (image.schedule.fused_axes && dst.channels == 1) {  // x on each of the image's output rows while in cache
      const ShortLines x = x_of_plane_rows(plan, between);
      const RowFinish finish = [&](std::int64_t z) {
        const std::ptrdiff_t at = z * between.stride[2];
        for (std::int64_t first = 0; first < x.lane_extent; first += kShortLinesBlock)
          short_lines_block(x, at + first * x.s_lane, at + first * x.d_lane, std::min(kShortLinesBlock, x.lane_extent - first));
        if (via_doubles) round_plane(between, dst, z);  // each plane rounded while in cache
      };
      scipy_order_image_rows(image, pixels_of(src), pixels_of(between),
                             image.schedule.threads > 0 ? image.schedule.threads : omp_get_max_threads(), finish);
      return;
    }
    scipy_order_blur(image, pixels_of(src), pixels_of(between));  // into float64 where rounded once: rounds nothing
    correlate1d(b, b, 1, scipy_weights(plan, 0), plan.spec.border[0], plan.spec.cval, threads, true, true);
    if (via_doubles) round_into(between, dst, threads);
    return;
  }
  bool first = true;
  if (plan.schedule.fused_z) {  // z, y and x plane by plane (Schedule::fused_z)
    scipy_order_planes_blur(plan, src, dst, threads);
    return;
  }
  for (int axis : plan.spec.axis_order) {
    // Fused (Schedule::fused_axes: y then x are the last axes SciPy filters): each plane's y and x in
    // one pass through a ring of rows, from the source, or in place after z's pass.
    if (plan.schedule.fused_axes && axis == 1) {
      const View& from = first ? src : between;
      if (dst.depth() == 1) {
        scipy_order_image_rows(plan, from, dst, threads);
        return;
      }
      // A volume's planes are apart: a plane a worker (bands of one plane would each refill a ring).
      // In place each plane is its own source (the front door copies a partly overlapping one).
      std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
      for (std::int64_t z = 0; z < dst.depth(); ++z) {
        try {
          scipy_order_rows_blur(plan, plane_of(from, z), plane_of(dst, z), 1);
        } catch (...) {
#pragma omp critical(fastblur_scipy_planes_failure)
          if (!failure) failure = std::current_exception();
        }
      }
      if (failure) std::rethrow_exception(failure);
      return;
    }
    if (!(plan.axes[static_cast<std::size_t>(axis)].sigma > kSigmaCutoff)) continue;
    const bool overlapping = !first || core::views_overlap(src, between);
    correlate1d(first ? s : b, b, axis + 1, scipy_weights(plan, axis), plan.spec.border[static_cast<std::size_t>(axis)],
                plan.spec.cval, threads, overlapping, plan.schedule.x_across_rows && axis == 0);
    first = false;
  }
  if (first) convert_copy(src, dst);
  else if (via_doubles) round_into(between, dst, threads);  // the passes' doubles, rounded once
}

}  // namespace fastblur::cpu
