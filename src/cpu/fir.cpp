// The `fir` algorithm: exact separable convolution. A pass along x convolves each row (padded
// by the border mode) in SIMD across channels; passes along y and z combine whole rows, in column
// strips sized to stay in cache. Intermediates are packed float (double for f64) images.
#include "cpu/execute.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/border.hpp"
#include "core/overlap.hpp"
#include "core/size.hpp"
#include "cpu/fir_fixed.hpp"
#include "cpu/fir_simd.hpp"
#include "cpu/interleaved_pixels.hpp"
#include "cpu/line_io.hpp"
#include "cpu/pixels_view.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {
namespace {

template <class T>
std::vector<T> allocate(std::size_t count, const char* what) {
  // Refused before asking: no allocator can give more, and AddressSanitizer's operator new would
  // abort instead of throwing.
  if (count > core::kMaxAllocationBytes / sizeof(T))
    throw OutOfMemory(std::string("the ") + what + " would need " + std::to_string(count) + " x " +
                      std::to_string(sizeof(T)) + " bytes, more than can be addressed");
  try {
    return std::vector<T>(count);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(std::string("cannot allocate ") + std::to_string(count * sizeof(T)) +
                      " bytes for the " + what);
  } catch (const std::length_error&) {
    throw OutOfMemory(std::string("the ") + what + " would need more memory than can be addressed");
  }
}

// The half kernel w[0..r] of the axis's symmetric weights (the plan's) in the working type.
template <class T>
std::vector<T> half_kernel(const AxisPlan& ax) {
  const std::vector<double>& w = *ax.weights;
  const int radius = ax.radius;
  std::vector<T> h(static_cast<std::size_t>(radius) + 1);
  for (int k = 0; k <= radius; ++k) h[static_cast<std::size_t>(k)] = static_cast<T>(w[static_cast<std::size_t>(radius + k)]);
  return h;
}

struct Shape {
  std::int64_t W, H, D;
  int C;
  std::size_t row_len() const { return static_cast<std::size_t>(W) * static_cast<std::size_t>(C); }
};

// Per-thread scratch, allocated before a parallel region so nothing inside it can throw.
template <class T>
struct Scratch {
  std::vector<T> a, b;
  std::vector<std::byte> bytes;
  std::vector<const T*> ptrs;
};

// Rows along x: src row -> padded line -> convolved into out_buf (packed) or straight into dst.
template <class T>
void pass_x(const View& src, const Shape& s, const std::vector<T>& w, int r, Border border, T cval,
            T* out_buf, const View* dst, int threads) {
  const std::size_t C = static_cast<std::size_t>(s.C);
  const std::size_t L = s.row_len();
  const std::size_t padded_len = (static_cast<std::size_t>(s.W) + 2 * static_cast<std::size_t>(r)) * C;
  const std::size_t bytes = L * std::max(element_size(src.type), dst ? element_size(dst->type) : 1);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.a = allocate<T>(padded_len, "padded row");
    if (!out_buf) sc.b = allocate<T>(L, "row buffer");
    sc.bytes = allocate<std::byte>(bytes, "row buffer");
  }
  const std::int64_t rows = s.H * s.D;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < rows; ++row) {
    Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t y = row % s.H, z = row / s.H;
    T* P = sc.a.data();
    read_row(src, 0, y, z, s.W, P + static_cast<std::size_t>(r) * C, sc.bytes.data());
    core::extend_line(P, s.W, r, r, C, border, cval);
    T* o = out_buf ? out_buf + static_cast<std::size_t>(row) * L : sc.b.data();
    convolve_line(P, o, L, w.data(), r, C);
    if (!out_buf) write_row(o, *dst, 0, y, z, s.W, sc.bytes.data());
  }
}

// `count` pixels of C values, `from_step` values apart, to `to` `to_step` values apart: one x
// position of a block of rows into its row of lanes, and back. C of 1 to 4 unrolled (a loop over 3
// values per pixel costs more than the copy).
template <class T>
void transpose_pixels(const T* from, std::size_t from_step, T* to, std::size_t to_step, std::size_t count, std::size_t C) {
  const auto copy = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    for (std::size_t k = 0; k < count; ++k)
      for (std::size_t c = 0; c < N; ++c) to[k * to_step + c] = from[k * from_step + c];
  };
  switch (C) {
    case 1: return copy(std::integral_constant<std::size_t, 1>{});
    case 2: return copy(std::integral_constant<std::size_t, 2>{});
    case 3: return copy(std::integral_constant<std::size_t, 3>{});
    case 4: return copy(std::integral_constant<std::size_t, 4>{});
    default:
      for (std::size_t k = 0; k < count; ++k)
        for (std::size_t c = 0; c < C; ++c) to[k * to_step + c] = from[k * from_step + c];
  }
}

constexpr std::int64_t kAcrossRows = 64;  // short rows transposed at a time

// x's pass of `count` (up to kAcrossRows) packed short rows: transposed so that each x position is a
// row of lanes (a lane per row and channel), extended by the border mode as one line of lane
// groups, each output position convolve_rows over the positions - per lane the operations
// convolve_line does, so the same bits, in whole vectors - and transposed back into `rows_out`.
// `in` holds (W + 2 r) x kAcrossRows x C values and W x kAcrossRows x C more; `ptrs` W + 2 r.
template <class T>
void across_rows_block(const T* rows_in, T* rows_out, std::int64_t count, const Shape& s, const std::vector<T>& w, int r,
                       Border border, T cval, T* in, const T** ptrs) {
  const std::size_t C = static_cast<std::size_t>(s.C), L = s.row_len(), W = static_cast<std::size_t>(s.W);
  const std::size_t lanes = static_cast<std::size_t>(kAcrossRows) * C;
  const std::size_t positions = W + 2 * static_cast<std::size_t>(r);
  T* out = in + positions * lanes;
  const std::size_t used = static_cast<std::size_t>(count) * C;
  // Rows of 2-4 single values (an RGB(A) array's channel axis) are pixels of W values: Highway's
  // (de)interleaving, not a value at a time (31% of such a call, bench/RESULTS.md, issue 43).
  const bool pixels = C == 1 && W >= 2 && W <= 4;
  T* planar[4];
  if (pixels) {
    for (std::size_t x = 0; x < W; ++x) planar[x] = in + (x + static_cast<std::size_t>(r)) * lanes;
    deinterleave(rows_in, static_cast<std::size_t>(count), static_cast<int>(W), planar);
  } else {
    for (std::size_t x = 0; x < W; ++x)
      transpose_pixels(rows_in + x * C, L, in + (x + static_cast<std::size_t>(r)) * lanes, C, static_cast<std::size_t>(count), C);
  }
  core::extend_line(in, s.W, r, r, lanes, border, cval);
  for (std::size_t p = 0; p < positions; ++p) ptrs[p] = in + p * lanes;
  for (std::size_t x = 0; x < W; ++x) convolve_rows(ptrs + x, out + x * lanes, used, w.data(), r);
  if (pixels) {
    const T* made[4];
    for (std::size_t x = 0; x < W; ++x) made[x] = out + x * lanes;
    interleave(made, static_cast<std::size_t>(count), static_cast<int>(W), rows_out);
  } else {
    for (std::size_t x = 0; x < W; ++x)
      transpose_pixels(out + x * lanes, C, rows_out + x * C, L, static_cast<std::size_t>(count), C);
  }
}

// pass_x for rows shorter than a vector (Schedule::x_across_rows): kAcrossRows rows at a time
// (across_rows_block).
template <class T>
void pass_x_across_rows(const View& src, const Shape& s, const std::vector<T>& w, int r, Border border, T cval,
                        T* out_buf, const View* dst, int threads) {
  const std::size_t C = static_cast<std::size_t>(s.C), L = s.row_len(), W = static_cast<std::size_t>(s.W);
  const std::size_t lanes = static_cast<std::size_t>(kAcrossRows) * C;
  const std::size_t positions = W + 2 * static_cast<std::size_t>(r);
  const std::size_t bytes = L * std::max(element_size(src.type), dst ? element_size(dst->type) : 1);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.a = allocate<T>(positions * lanes + W * lanes, "block of rows");
    sc.b = allocate<T>(L * static_cast<std::size_t>(kAcrossRows), "rows buffer");
    sc.bytes = allocate<std::byte>(bytes, "row buffer");
    sc.ptrs.resize(positions);
  }
  const std::int64_t rows = s.H * s.D, blocks = (rows + kAcrossRows - 1) / kAcrossRows;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t block = 0; block < blocks; ++block) {
    Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t first = block * kAcrossRows, count = std::min(kAcrossRows, rows - first);
    // The block's rows, converted: in one run where the view is packed (a conversion per short row
    // costs more than its values).
    T* const rows_in = sc.b.data();
    if (src.is_packed()) read_row(src, 0, first % s.H, first / s.H, count * s.W, rows_in, sc.bytes.data());
    else
      for (std::int64_t k = 0; k < count; ++k)
        read_row(src, 0, (first + k) % s.H, (first + k) / s.H, s.W, rows_in + static_cast<std::size_t>(k) * L, sc.bytes.data());
    T* const rows_out = out_buf ? out_buf + static_cast<std::size_t>(first) * L : rows_in;
    across_rows_block(rows_in, rows_out, count, s, w, r, border, cval, sc.a.data(), sc.ptrs.data());
    if (out_buf) continue;
    if (dst->is_packed()) write_row(rows_out, *dst, 0, first % s.H, first / s.H, count * s.W, sc.bytes.data());
    else
      for (std::int64_t k = 0; k < count; ++k)
        write_row(rows_out + static_cast<std::size_t>(k) * L, *dst, 0, (first + k) % s.H, (first + k) / s.H, s.W,
                  sc.bytes.data());
  }
}

// The columns a y or z pass takes at a time: the plan's strip in whole pixels, at most a row.
std::size_t strip_width(const Shape& s, std::int64_t strip_columns) {
  const std::size_t C = static_cast<std::size_t>(s.C);
  const std::size_t S = std::max<std::size_t>(C, static_cast<std::size_t>(std::max<std::int64_t>(strip_columns, 1)) / C * C);
  return std::min(S, s.row_len());
}

// Along y (axis 1) or z (axis 2) of a packed working image: output row j of outer index m is the
// weighted sum of input rows j-r..j+r. `s_a` steps along the pass axis, `s_b` along the outer one.
// The plan's `strip` columns at a time (sized so the strip's 2r + 1 rows stay in L2).
// `count` (1 to kRowBlock) output rows from 2 r + count rows (rows[0] is output row 0's row -r):
// kRowBlock at once where the block is whole, one by one for a band's last rows (the same bits).
template <class T>
void convolve_row_group(const T* const* rows, T* const* out, std::int64_t count, std::size_t n, const T* w, int r) {
  if (count == kRowBlock) {
    convolve_rows_block(rows, out, n, w, r);
    return;
  }
  for (std::int64_t q = 0; q < count; ++q) convolve_rows(rows + q, out[q], n, w, r);
}

template <class T>
void pass_rows(const T* in, std::size_t s_a, std::size_t s_b, std::int64_t N, std::int64_t M,
               const Shape& s, const std::vector<T>& w, int r, Border border, T cval, T* out,
               const View* dst, int axis, int threads, std::int64_t strip_columns) {
  const std::size_t L = s.row_len();
  constexpr std::int64_t kB = kRowBlock;  // output rows made at once
  const std::size_t taps = 2 * static_cast<std::size_t>(r) + kB;
  const std::size_t S = strip_width(s, strip_columns);
  const std::int64_t strips = static_cast<std::int64_t>((L + S - 1) / S);
  const std::int64_t block = std::min<std::int64_t>(N, std::max<std::int64_t>(64, 4 * static_cast<std::int64_t>(r)));
  const std::int64_t blocks = (N + block - 1) / block;
  const std::int64_t tasks = M * strips * blocks;
  std::vector<T> cval_row = allocate<T>(S, "border row");
  std::fill(cval_row.begin(), cval_row.end(), cval);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.ptrs.resize(taps);
    if (!out) {
      sc.b = allocate<T>(kB * S, "row buffer");
      sc.bytes = allocate<std::byte>(S * element_size(dst->type), "row buffer");
    }
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t t = 0; t < tasks; ++t) {
    Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t m = t / (strips * blocks);
    const std::int64_t strip = (t / blocks) % strips;
    const std::int64_t b = t % blocks;
    const std::size_t x0 = static_cast<std::size_t>(strip) * S;
    const std::size_t len = std::min(S, L - x0);
    const T* base = in + static_cast<std::size_t>(m) * s_b + x0;
    const std::int64_t end = std::min(N, (b + 1) * block);
    for (std::int64_t j = b * block; j < end; j += kB) {
      const std::int64_t count = std::min(kB, end - j);  // output rows j .. j + count - 1
      for (std::size_t k = 0; k < 2 * static_cast<std::size_t>(r) + static_cast<std::size_t>(count); ++k) {
        const std::int64_t idx = core::border_index(j + static_cast<std::int64_t>(k) - r, N, border);
        sc.ptrs[k] = idx < 0 ? cval_row.data() : base + static_cast<std::size_t>(idx) * s_a;
      }
      T* o[kB];
      for (std::int64_t q = 0; q < kB; ++q)
        o[q] = out ? out + static_cast<std::size_t>(m) * s_b + static_cast<std::size_t>(j + std::min(q, count - 1)) * s_a + x0
                   : sc.b.data() + static_cast<std::size_t>(q) * S;
      convolve_row_group(sc.ptrs.data(), o, count, len, w.data(), r);
      if (!out)
        for (std::int64_t q = 0; q < count; ++q) {
          const std::int64_t y = axis == 1 ? j + q : m, z = axis == 1 ? m : j + q;
          write_row(o[q], *dst, static_cast<std::int64_t>(x0) / s.C, y, z, static_cast<std::int64_t>(len) / s.C,
                    sc.bytes.data());
        }
    }
  }
}

// pass_rows in place on a packed working image (the caller's dst), for the same result with no
// second image: each task walks one column strip of one outer index along the pass axis, kRowBlock
// output rows at a time, and keeps the originals of the r rows behind them in a ring (rows ahead
// are still unwritten); under wrap the first r rows, which the last outputs need, are kept from the
// start.
template <class T>
void pass_rows_in_place(T* data, std::size_t s_a, std::size_t s_b, std::int64_t N, std::int64_t M, const Shape& s,
                        const std::vector<T>& w, int r, Border border, T cval, int threads, std::int64_t strip_columns) {
  const std::size_t L = s.row_len();
  constexpr std::int64_t kB = kRowBlock;  // output rows made at once
  const std::size_t taps = 2 * static_cast<std::size_t>(r) + kB;
  const std::size_t S = strip_width(s, strip_columns);
  const std::int64_t strips = static_cast<std::int64_t>((L + S - 1) / S);
  const std::int64_t tasks = M * strips;
  // The originals of the r rows behind a block and of the block itself (copied in before it is written).
  const std::int64_t ring_rows = r + kB, edge_rows = border == Border::wrap ? std::min<std::int64_t>(r, N) : 0;
  std::vector<T> cval_row = allocate<T>(S, "border row");
  std::fill(cval_row.begin(), cval_row.end(), cval);
  struct RingScratch {
    std::vector<T> ring, edge, out;
    std::vector<const T*> ptrs;
  };
  std::vector<RingScratch> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.ring = allocate<T>(static_cast<std::size_t>(ring_rows) * S, "row ring");
    sc.edge = allocate<T>(static_cast<std::size_t>(std::max<std::int64_t>(edge_rows, 1)) * S, "wrapped rows");
    sc.out = allocate<T>(static_cast<std::size_t>(kB) * S, "row buffer");
    sc.ptrs.resize(taps);
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t t = 0; t < tasks; ++t) {
    RingScratch& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t m = t / strips;
    const std::size_t x0 = static_cast<std::size_t>(t % strips) * S;
    const std::size_t len = std::min(S, L - x0);
    T* base = data + static_cast<std::size_t>(m) * s_b + x0;
    const auto row = [&](std::int64_t idx) { return base + static_cast<std::size_t>(idx) * s_a; };
    for (std::int64_t e = 0; e < edge_rows; ++e)
      std::copy(row(e), row(e) + len, sc.edge.data() + static_cast<std::size_t>(e) * S);
    for (std::int64_t j = 0; j < N; j += kB) {
      const std::int64_t count = std::min(kB, N - j);  // output rows j .. j + count - 1
      for (std::size_t k = 0; k < 2 * static_cast<std::size_t>(r) + static_cast<std::size_t>(count); ++k) {
        const std::int64_t idx = core::border_index(j + static_cast<std::int64_t>(k) - r, N, border);
        if (idx < 0) sc.ptrs[k] = cval_row.data();
        else if (idx >= j) sc.ptrs[k] = row(idx);  // not yet written
        else if (idx >= j - ring_rows) sc.ptrs[k] = sc.ring.data() + static_cast<std::size_t>(idx % ring_rows) * S;
        else sc.ptrs[k] = sc.edge.data() + static_cast<std::size_t>(idx) * S;  // wrap: idx < r
      }
      T* o[kB];
      for (std::int64_t q = 0; q < kB; ++q) o[q] = sc.out.data() + static_cast<std::size_t>(q) * S;
      convolve_row_group(sc.ptrs.data(), o, count, len, w.data(), r);
      for (std::int64_t q = 0; q < count; ++q) {
        std::copy(row(j + q), row(j + q) + len, sc.ring.data() + static_cast<std::size_t>((j + q) % ring_rows) * S);
        std::copy(o[q], o[q] + len, row(j + q));
      }
    }
  }
}

// Both passes of a 2D blur fused by a rolling ring of rows (as OpenCV's FilterEngine): each thread
// takes a band of output rows; every input row it needs is read once, in full and in order,
// convolved along x into a ring of 2 ry + kRowBlock rows, and each block of kRowBlock output rows
// combines the ring's rows along y, then goes to dst. No intermediate image crosses main memory: the image is read once and
// written once (plus 2 ry rows per band for the halos). For radii up to kFusedMaxRadius, where the
// ring stays in cache; src and dst must not overlap. `bx`, `by`: the image's x and y borders.
template <class T>
void fir_fused_2d(const View& src, const View& dst, const Shape& s, Border bx, Border by, T cval, int rx, int ry,
                  const std::vector<T>& wx, const std::vector<T>& wy, int threads, const Rows<T>* rows = nullptr) {
  const std::size_t C = static_cast<std::size_t>(s.C);
  const std::size_t L = s.row_len();
  constexpr std::int64_t kB = kRowBlock;  // output rows made at once
  const std::size_t ring_rows = 2 * static_cast<std::size_t>(ry) + kB;
  // Bands: a few per thread so uneven rows balance; at least 4 ry rows each, so the halo rows
  // recomputed at a band's start stay a small share.
  const std::int64_t planes_rows = s.H * s.D;
  std::int64_t band = std::max<std::int64_t>(std::max<std::int64_t>(16, 4 * ry), (s.H + 4 * threads - 1) / (4 * threads));
  band = std::min(band, s.H);
  const std::int64_t bands_per_plane = (s.H + band - 1) / band;
  const std::int64_t tasks = bands_per_plane * s.D;
  (void)planes_rows;
  struct RingScratch {
    std::vector<T> ring, padded, out;
    std::vector<std::byte> bytes;
    std::vector<const T*> ptrs;
  };
  std::vector<RingScratch> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.ring = allocate<T>(ring_rows * L, "row ring");
    sc.padded = allocate<T>((static_cast<std::size_t>(s.W) + 2 * static_cast<std::size_t>(rx)) * C, "padded row");
    sc.out = allocate<T>(kB * L, "row buffer");
    sc.bytes = allocate<std::byte>(L * 8, "row buffer");
    sc.ptrs.resize(ring_rows);
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t t = 0; t < tasks; ++t) {
    RingScratch& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t z = t / bands_per_plane, y0 = (t % bands_per_plane) * band, y1 = std::min(s.H, y0 + band);
    T* P = sc.padded.data();
    // Input row j (any integer: border-mapped along y) convolved along x into ring slot j mod ring_rows.
    const auto x_row = [&](std::int64_t j) {
      T* slot = sc.ring.data() + static_cast<std::size_t>(((j % static_cast<std::int64_t>(ring_rows)) +
                                                            static_cast<std::int64_t>(ring_rows)) %
                                                           static_cast<std::int64_t>(ring_rows)) * L;
      const std::int64_t sy = core::border_index(j, s.H, by);
      if (sy < 0) {
        std::fill(slot, slot + L, cval);
        return;
      }
      if (rows) rows->read(sy, P + static_cast<std::size_t>(rx) * C);
      else read_row(src, 0, sy, z, s.W, P + static_cast<std::size_t>(rx) * C, sc.bytes.data());
      core::extend_line(P, s.W, rx, rx, C, bx, cval);
      convolve_line(P, slot, L, wx.data(), rx, C);
    };
    for (std::int64_t j = y0 - ry; j < y0 + ry; ++j) x_row(j);
    for (std::int64_t j = y0; j < y1; j += kB) {
      const std::int64_t count = std::min(kB, y1 - j);  // output rows j .. j + count - 1
      for (std::int64_t q = 0; q < count; ++q) x_row(j + ry + q);
      for (std::size_t k = 0; k < ring_rows; ++k) {
        const std::int64_t row = j - ry + static_cast<std::int64_t>(k);
        sc.ptrs[k] = sc.ring.data() + static_cast<std::size_t>(((row % static_cast<std::int64_t>(ring_rows)) +
                                                                static_cast<std::int64_t>(ring_rows)) %
                                                               static_cast<std::int64_t>(ring_rows)) * L;
      }
      T* o[kB];
      for (std::int64_t q = 0; q < kB; ++q) o[q] = sc.out.data() + static_cast<std::size_t>(q) * L;
      convolve_row_group(sc.ptrs.data(), o, count, L, wy.data(), ry);
      for (std::int64_t q = 0; q < count; ++q) {
        if (rows) rows->write(j + q, o[q]);
        else write_row(o[q], dst, 0, j + q, z, s.W, sc.bytes.data());
      }
    }
  }
}

// Short x rows (Schedule::x_across_rows) with y or z filtered: x across rows into a packed working
// image, which is then read as a 2D image of W x C-value pixels (width H, height D): y is that
// image's x pass and z its y pass, in whole vectors instead of strips of W x C values. The working
// image is dst where dst holds T packed, else a scratch image converted into dst at the end.
template <class T>
void fir_short_x(const Plan& plan, const View& src, const View& dst, const Shape& s, const bool (&active)[3],
                 const int (&radius)[3], const std::vector<T>& wx) {
  const int threads = plan.schedule.threads;
  const T cval = static_cast<T>(plan.spec.cval);
  const auto& border = plan.spec.border;
  // Schedule::fused_axes: y and z as the image's x and y through the ring of rows (fir_fused_2d),
  // x across each source row's pixels as it enters - no working image. Pixels packed and src apart
  // from dst (the ring reads rows in place would have overwritten).
  if (plan.schedule.fused_axes && active[2] && pixels_packed(src) && pixels_packed(dst) && !core::views_overlap(src, dst)) {
    const View from = pixels_of(src), to = pixels_of(dst);
    const Shape image_shape{s.H, s.D, 1, static_cast<int>(s.row_len())};
    const Shape x_rows{s.W, kAcrossRows, 1, s.C};  // a block of the image's pixels as x's short rows
    const std::size_t L = image_shape.row_len(), lanes = static_cast<std::size_t>(kAcrossRows * s.C);
    const std::size_t positions = static_cast<std::size_t>(s.W + 2 * radius[0]);
    std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
    for (auto& sc : scratch) {
      sc.a = allocate<T>(positions * lanes + static_cast<std::size_t>(s.W) * lanes, "block of rows");
      sc.b = allocate<T>(L, "row buffer");
      sc.bytes = allocate<std::byte>(L * std::max(element_size(src.type), element_size(dst.type)), "row buffer");
      sc.ptrs.resize(positions);
    }
    Rows<T> rows;
    rows.width = image_shape.W, rows.height = image_shape.H, rows.channels = image_shape.C;
    // x on each source row as it enters the ring: x, then y and z, as the passes run them (their bits).
    rows.read = [&](std::int64_t y, T* row) {
      Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
      read_row(from, 0, y, 0, from.width(), sc.b.data(), sc.bytes.data());
      for (std::int64_t first = 0; first < image_shape.W; first += kAcrossRows)
        across_rows_block(sc.b.data() + static_cast<std::size_t>(first) * s.row_len(), row + static_cast<std::size_t>(first) * s.row_len(),
                          std::min(kAcrossRows, image_shape.W - first), x_rows, wx, radius[0], border[0], cval, sc.a.data(),
                          sc.ptrs.data());
    };
    rows.write = [&](std::int64_t y, const T* row) {
      write_row(row, to, 0, y, 0, to.width(), scratch[static_cast<std::size_t>(omp_get_thread_num())].bytes.data());
    };
    const std::vector<T> identity{T(1)};
    fir_fused_2d<T>(from, to, image_shape, border[1], border[2], cval, active[1] ? radius[1] : 0, radius[2],
                    active[1] ? half_kernel<T>(plan.axes[1]) : identity, half_kernel<T>(plan.axes[2]), threads, &rows);
    return;
  }
  constexpr ElementType kT = std::is_same_v<T, float> ? ElementType::f32 : ElementType::f64;
  const std::size_t total = s.row_len() * static_cast<std::size_t>(s.H) * static_cast<std::size_t>(s.D);
  const bool in_dst = dst.type == kT && dst.is_packed();
  std::optional<ScratchImage> scratch;
  if (!in_dst) scratch.emplace(total * sizeof(T), 0);
  T* work = in_dst ? static_cast<T*>(dst.data) : scratch->as<T>();
  pass_x_across_rows<T>(src, s, wx, radius[0], border[0], cval, work, nullptr, threads);
  const Shape folded{s.H, s.D, 1, static_cast<int>(s.row_len())};
  if (active[1]) {  // in place, row by row
    const View image = View::packed(work, kT, folded.W, folded.H, 1, folded.C);
    pass_x<T>(image, folded, half_kernel<T>(plan.axes[1]), radius[1], border[1], cval, work, nullptr, threads);
  }
  if (active[2])
    pass_rows_in_place<T>(work, folded.row_len(), folded.row_len() * static_cast<std::size_t>(folded.H), folded.H, 1,
                          folded, half_kernel<T>(plan.axes[2]), radius[2], border[2], cval, threads,
                          plan.schedule.strip[2]);
  if (in_dst) return;
  // Into dst's type (integers rounded to nearest and saturated), a band of rows per thread.
  const std::int64_t rows = s.H * s.D;
  std::vector<std::vector<std::byte>> bytes(static_cast<std::size_t>(threads));
  for (auto& b : bytes) b = allocate<std::byte>(s.row_len() * element_size(dst.type), "row buffer");
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t band = 0; band < threads; ++band) {
    const std::int64_t r0 = rows * band / threads, r1 = rows * (band + 1) / threads;
    std::byte* scatter = bytes[static_cast<std::size_t>(omp_get_thread_num())].data();
    if (dst.is_packed()) {
      if (r1 > r0) write_row(work + static_cast<std::size_t>(r0) * s.row_len(), dst, 0, r0 % s.H, r0 / s.H, (r1 - r0) * s.W, scatter);
    } else {
      for (std::int64_t row = r0; row < r1; ++row)
        write_row(work + static_cast<std::size_t>(row) * s.row_len(), dst, 0, row % s.H, row / s.H, s.W, scatter);
    }
  }
}

template <class T>
void fir_typed(const Plan& plan, const View& src, const View& dst) {
  const Shape s{src.width(), src.height(), src.depth(), src.channels};
  bool active[3];
  int radius[3];
  for (std::size_t a = 0; a < 3; ++a) {
    radius[a] = plan.axes[a].radius;
    active[a] = plan.axes[a].active && radius[a] > 0;
  }
  const int threads = plan.schedule.threads;
  const T cval = static_cast<T>(plan.spec.cval);
  const auto& border = plan.spec.border;
  const int last = active[2] ? 2 : active[1] ? 1 : active[0] ? 0 : -1;
  const std::vector<T> identity{T(1)};
  const std::vector<T> wx = active[0] ? half_kernel<T>(plan.axes[0]) : identity;
  const int rx = active[0] ? radius[0] : 0;
  const auto x_pass = plan.schedule.x_across_rows ? &pass_x_across_rows<T> : &pass_x<T>;

  // Both passes fused through a ring of rows; it reads rows the output has overwritten in place, so
  // an in-place call runs the axis passes.
  if (plan.schedule.driver == CpuDriver::fused_rows && !active[2] && active[1] && !core::views_overlap(src, dst)) {
    fir_fused_2d<T>(src, dst, s, border[0], border[1], cval, rx, radius[1], wx, half_kernel<T>(plan.axes[1]), threads);
    return;
  }

  if (last <= 0) {  // at most the x pass: rows go straight from src to dst
    // No shortcut for an in-place identity: the row pass reads f32 denormals as zero, and an
    // aliased blur must give what the same blur between separate buffers gives.
    x_pass(src, s, wx, rx, border[0], cval, nullptr, &dst, threads);
    return;
  }
  const std::size_t total = s.row_len() * static_cast<std::size_t>(s.H) * static_cast<std::size_t>(s.D);
  // Worked in dst or in a scratch image: either way it must be addressable (a packed dst larger than
  // that cannot exist, and is refused before it is written).
  if (total > core::kMaxAllocationBytes / sizeof(T))
    throw OutOfMemory("the working image needs " + std::to_string(total) + " x " + std::to_string(sizeof(T)) +
                      " bytes, more than can be addressed");
  if (plan.schedule.x_across_rows && last > 0) {
    fir_short_x<T>(plan, src, dst, s, active, radius, wx);
    return;
  }
  const std::size_t L = s.row_len(), plane = L * static_cast<std::size_t>(s.H);
  // A dst that holds T packed is the working image: x into it (row by row, so in place too), then y
  // and z in place through rings of rows - no whole-size scratch (a 1024^3 float volume: 4 GiB
  // less, and the page faults of touching it, 2.5 s here).
  constexpr ElementType kT = std::is_same_v<T, float> ? ElementType::f32 : ElementType::f64;
  if (dst.type == kT && dst.is_packed()) {
    T* out = static_cast<T*>(dst.data);
    x_pass(src, s, wx, rx, border[0], cval, out, nullptr, threads);
    if (active[1])
      pass_rows_in_place<T>(out, L, plane, s.H, s.D, s, half_kernel<T>(plan.axes[1]), radius[1],
                            border[1], cval, threads, plan.schedule.strip[1]);
    if (active[2])
      pass_rows_in_place<T>(out, plane, L, s.D, s.H, s, half_kernel<T>(plan.axes[2]), radius[2],
                            border[2], cval, threads, plan.schedule.strip[2]);
    return;
  }
  ScratchImage first(total * sizeof(T), 0);
  std::optional<ScratchImage> second;
  T* A = first.as<T>();
  T* B = nullptr;
  x_pass(src, s, wx, rx, border[0], cval, A, nullptr, threads);
  if (active[1]) {
    const bool final = last == 1;
    if (!final) {
      second.emplace(total * sizeof(T), 1);
      B = second->as<T>();
    }
    pass_rows<T>(A, L, plane, s.H, s.D, s, half_kernel<T>(plan.axes[1]), radius[1], border[1], cval, B,
                 final ? &dst : nullptr, 1, threads, plan.schedule.strip[1]);
    if (!final) std::swap(A, B);
  }
  if (active[2]) {
    pass_rows<T>(A, plane, L, s.D, s.H, s, half_kernel<T>(plan.axes[2]), radius[2], border[2], cval,
                 nullptr, &dst, 2, threads, plan.schedule.strip[2]);
  }
}

}  // namespace

bool fir_rows_available(const Plan& plan) {
  return plan.algorithm == Algorithm::fir && plan.schedule.driver == CpuDriver::fused_rows &&
         plan.schedule.intermediate == ElementType::f32 && plan.extent[2] == 1 && plan.axes[1].active &&
         plan.axes[1].radius > 0 && !plan.axes[2].active;
}

void fir_rows_blur(const Plan& plan, const FloatRows& rows) {
  if (!fir_rows_available(plan) || rows.width != plan.extent[0] || rows.height != plan.extent[1] ||
      rows.channels != plan.channels)
    throw std::logic_error("internal: fir_rows_blur runs a 2D float fused-rows fir plan of the rows' shape");
  const Shape s{rows.width, rows.height, 1, rows.channels};
  const bool x = plan.axes[0].active && plan.axes[0].radius > 0;
  const std::vector<float> identity{1.0f};
  const View none{};  // the rows stand for both views
  fir_fused_2d<float>(none, none, s, plan.spec.border[0], plan.spec.border[1], static_cast<float>(plan.spec.cval),
                      x ? plan.axes[0].radius : 0, plan.axes[1].radius,
                      x ? half_kernel<float>(plan.axes[0]) : identity, half_kernel<float>(plan.axes[1]),
                      plan.schedule.threads, &rows);
}

void fir_blur(const Plan& plan, const View& src, const View& dst) {
  if (plan.schedule.driver == CpuDriver::scipy_order) {
    scipy_order_blur(plan, src, dst);
    return;
  }
  if (plan.schedule.driver == CpuDriver::lines) {  // any kernel (derivatives, the caller's), in double
    fir_lines_blur(plan, src, dst);
    return;
  }
  if (plan.schedule.driver == CpuDriver::fixed_point) fir_fixed_u8(plan, src, dst);
  else if (plan.schedule.intermediate == ElementType::f64) fir_typed<double>(plan, src, dst);
  else fir_typed<float>(plan, src, dst);
}

}  // namespace fastblur::cpu
