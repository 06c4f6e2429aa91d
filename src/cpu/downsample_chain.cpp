// downsample's 2D chain driver: the image reduced on both axes at once, blurred at low resolution,
// interpolated back - one read of the source and one write of the destination at full resolution,
// the rest on a quarter (factor 2), a sixteenth (factor 4) or a 64th (factor 8) of the samples, in float.
//
// The same function as the line driver (cpu/downsample.cpp): the per-axis operators (tent onto the
// block centres, low-resolution Gaussian, linear interpolation) act on different axes, so they
// commute, and a border's extension along one axis commutes with the other axis's operator. Only
// the blocks an output reads are made (for each axis, those the line driver's outputs read).
//
// Each worker makes a band of output rows, pulling rows through rings as it goes: source rows ->
// reduced and x-blurred block rows -> blurred block rows -> interpolated rows -> output rows. The
// low-resolution rows stay in the caches (no low-resolution image goes to memory and back: 512 MiB
// at 8192 x 8192 RGBA float, factor 2), and the rows more than one band reads are made once, first.
#include "algorithms/downsample.hpp"
#include "cpu/execute.hpp"

#include <omp.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/overlap.hpp"
#include "cpu/fir_simd.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "cpu/weighted_rows_simd.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {
namespace {

// One axis of the chain, in the line driver's padded coordinates (position X = image position +
// pad; block b's centre at b f + (f - 1)/2).
struct ChainAxis {
  int f = 0, r = 0;
  std::int64_t pad = 0;
  std::int64_t blur_lo = 0, blur_hi = 0;  // the blurred blocks the outputs interpolate between
  std::int64_t low_lo = 0, low_hi = 0;    // the reduced blocks their Gaussian reads
  std::int64_t x_lo = 0, x_hi = 0;        // the padded positions the tent reads for those
  std::vector<float> gauss_half;          // w[0..r] of the low-resolution Gaussian
  std::vector<float> tent;                // the 2f tent weights, offsets -f/2 .. 3f/2 - 1

  ChainAxis(const algo::DownsampleAxis& d, std::int64_t n) : f(d.factor), r(d.radius), pad(d.pad) {
    const auto floor_div = [](double v) { return static_cast<std::int64_t>(std::floor(v)); };
    blur_lo = floor_div((static_cast<double>(pad) - (f - 1) / 2.0) / f);
    blur_hi = floor_div((static_cast<double>(pad + n - 1) - (f - 1) / 2.0) / f) + 1;
    low_lo = blur_lo - r, low_hi = blur_hi + r;
    x_lo = low_lo * f - f / 2, x_hi = low_hi * f + 3 * f / 2 - 1;
    const std::vector<double> w = kernel::gaussian_weights(d.low_sigma, r);
    for (int k = 0; k <= r; ++k) gauss_half.push_back(static_cast<float>(w[static_cast<std::size_t>(r + k)]));
    for (double t : kernel::downsample_tent(f)) tent.push_back(static_cast<float>(t));
  }
  std::int64_t low_count() const { return low_hi - low_lo + 1; }
  std::int64_t blur_count() const { return blur_hi - blur_lo + 1; }
  std::int64_t x_count() const { return x_hi - x_lo + 1; }
  // Output i interpolates blurred blocks b and b + 1 at fraction t.
  void at(std::int64_t i, std::int64_t& b, float& t) const {
    const double u = (static_cast<double>(i + pad) - (f - 1) / 2.0) / f, fb = std::floor(u);
    b = static_cast<std::int64_t>(fb), t = static_cast<float>(u - fb);
  }
};

// Each worker's rows. Their memory is kept by the calling thread from one blur to the next (fresh
// pages every call cost page faults; and a vector resized up again memsets what it regrows), and
// reserved before the parallel region: an allocation that fails there throws OutOfMemory to the
// caller, where inside a region it would terminate the process.
// `phases` holds the tent's row split into its phases, then serves as the interpolation's row of a
// phase.
struct WorkerMemory {
  RetainedBuffer ring, acc, low, phases, xring, bring, up, bytes;
};
thread_local std::vector<WorkerMemory> t_chain_memory;
thread_local RetainedBuffer t_chain_stash, t_chain_shared;
struct ChainRows {
  float *ring = nullptr, *acc = nullptr, *low = nullptr, *phases = nullptr, *xring = nullptr, *bring = nullptr,
        *up = nullptr;
  std::byte* bytes = nullptr;
  // Which source row / x-blurred block row / interpolated row each slot holds.
  std::vector<std::int64_t> ring_row, xring_row, up_row;
  std::vector<const float*> taps;  // the x-blurred rows a block of blurred rows reads
};
struct RowSizes {
  std::size_t ring, acc, low, phases, xring, bring, up, bytes;  // in floats, bytes in bytes
};
std::vector<ChainRows> worker_rows(int threads, const RowSizes& n, std::vector<WorkerMemory>& temporary) {
  const std::size_t largest = std::max({n.ring, n.acc, n.low, n.phases, n.xring, n.bring, n.up}) * sizeof(float);
  std::vector<WorkerMemory>& memory = largest > kRetainLimit ? temporary : t_chain_memory;
  if (memory.size() < static_cast<std::size_t>(threads)) memory.resize(static_cast<std::size_t>(threads));
  std::vector<ChainRows> rows(static_cast<std::size_t>(threads));
  const auto floats = [](RetainedBuffer& b, std::size_t count) {
    return reinterpret_cast<float*>(b.reserve(std::max<std::size_t>(count, 1) * sizeof(float), "downsample's rows"));
  };
  for (std::size_t t = 0; t < rows.size(); ++t) {
    rows[t].ring = floats(memory[t].ring, n.ring);
    rows[t].acc = floats(memory[t].acc, n.acc);
    rows[t].low = floats(memory[t].low, n.low);
    rows[t].phases = floats(memory[t].phases, n.phases);
    rows[t].xring = floats(memory[t].xring, n.xring);
    rows[t].bring = floats(memory[t].bring, n.bring);
    rows[t].up = floats(memory[t].up, n.up);
    rows[t].bytes = memory[t].bytes.reserve(std::max<std::size_t>(n.bytes, 1), "downsample's rows");
  }
  return rows;
}

// Floats to skip from a 64-byte boundary to reach `like`'s place in its cache line, so that rows
// placed there and rows like it are loaded and stored in whole vectors that do not straddle two lines
// (weighted_rows aligns its vectors on its output; a straddling load costs about 1.5x here).
std::size_t line_shift(const void* like) {
  const auto a = reinterpret_cast<std::uintptr_t>(like);
  return a % sizeof(float) != 0 ? 0 : (a % 64) / sizeof(float);
}
constexpr std::size_t kLineFloats = 64 / sizeof(float);
std::size_t whole_lines(std::size_t floats) { return (floats + kLineFloats - 1) / kLineFloats * kLineFloats; }

// Float denormal inputs are read as zeros (load_as_float's contract). A source read in place is not
// converted, so on x86 the worker's arithmetic takes denormal operands as zeros instead (MXCSR's
// DAZ bit, per thread, restored on leaving); elsewhere the source is read through the conversion.
#if defined(__SSE__)
constexpr bool kDenormalsAsZeroInArithmetic = true;
class DenormalInputsAsZero {
 public:
  DenormalInputsAsZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x0040u); }
  ~DenormalInputsAsZero() { _mm_setcsr(saved_); }
  DenormalInputsAsZero(const DenormalInputsAsZero&) = delete;
  DenormalInputsAsZero& operator=(const DenormalInputsAsZero&) = delete;

 private:
  unsigned saved_;
};
#else
constexpr bool kDenormalsAsZeroInArithmetic = false;
struct DenormalInputsAsZero {};
#endif

// A ring slot's index for row (or block) Y of a ring of `size`.
std::size_t ring_slot(std::int64_t Y, int size) {
  return static_cast<std::size_t>(((Y % size) + size) % size);
}

// to[i to_step C + c] = from[i from_step C + c] for `pixels` pixels of C channels: every f-th pixel of
// a row gathered, or a phase's pixels put in their places (C known for the usual counts).
template <std::size_t C>
void copy_pixels(const float* from, std::size_t from_step, float* to, std::size_t to_step, std::int64_t pixels) {
  for (std::size_t i = 0; i < static_cast<std::size_t>(pixels); ++i)
    for (std::size_t c = 0; c < C; ++c) to[i * to_step * C + c] = from[i * from_step * C + c];
}
void copy_pixels(const float* from, std::size_t from_step, float* to, std::size_t to_step, std::int64_t pixels,
                 std::size_t C) {
  switch (C) {
    case 1: return copy_pixels<1>(from, from_step, to, to_step, pixels);
    case 2: return copy_pixels<2>(from, from_step, to, to_step, pixels);
    case 3: return copy_pixels<3>(from, from_step, to, to_step, pixels);
    default: return copy_pixels<4>(from, from_step, to, to_step, pixels);
  }
}

}  // namespace

namespace {

// What a chain's call works with, fixed before any row: the two axes, the rows' lengths and layouts,
// how the source is read and the destination written, and the bands of output rows of the workers.
struct ChainLayout {
  ChainAxis ax, ay;
  std::int64_t W, H;
  std::size_t C;
  std::size_t row;  // one image row, in floats
  Border bx, by;
  float cval;
  int threads;
  // Rows of ax.low_count() reduced blocks (then blurred along x) and of ax.blur_count() blurred ones.
  std::size_t low_row, blur_row, x_row;
  // Each worker keeps the x-blurred rows that a block of kRowBlock blurred rows reads (2 r + kRowBlock,
  // or all of them where there are fewer) and two blocks of blurred rows.
  std::int64_t xring_rows, bring_rows;
  // The tent's row split into its f phases, each low_count + 1 pixels, a whole number of cache lines.
  std::size_t phase_stride;
  std::int64_t before, after;  // the tent's reach beyond the image, each side
  int ring_rows;
  bool read_direct, write_direct, convert_source, convert_direct, stream;
  std::size_t ring_stride, up_stride, up_shift, before_floats, acc_shift;
  // Each output phase of a block (x = f m + p) interpolates blocks first[p] + m and the next at frac[p].
  std::vector<std::int64_t> first;
  std::vector<float> frac;
  std::vector<float> cval_row;  // rows outside a constant border

  ChainLayout(const Plan& plan, const View& src, const View& dst, const FloatRows* rows)
      : ax(algo::resolved_as<algo::DownsampleResolved>(plan).axes[0], src.width()),
        ay(algo::resolved_as<algo::DownsampleResolved>(plan).axes[1], src.height()),
        W(src.width()),
        H(src.height()),
        C(static_cast<std::size_t>(src.channels)),
        row(static_cast<std::size_t>(W) * C),
        bx(plan.spec.border[0]),
        by(plan.spec.border[1]),
        cval(static_cast<float>(plan.spec.cval)),
        threads(plan.schedule.threads) {
    low_row = static_cast<std::size_t>(ax.low_count()) * C;
    blur_row = static_cast<std::size_t>(ax.blur_count()) * C;
    x_row = static_cast<std::size_t>(ax.x_count()) * C;
    xring_rows = std::min<std::int64_t>(2 * ay.r + kRowBlock, ay.low_count());
    bring_rows = 2 * kRowBlock;
    const double ring_floats = static_cast<double>(low_row) * static_cast<double>(xring_rows);
    if (ring_floats * sizeof(float) > static_cast<double>(core::kMaxAllocationBytes))
      throw OutOfMemory("downsample's rows need " + std::to_string(ring_floats) + " x 4 bytes, more than can be addressed");
    phase_stride = whole_lines((static_cast<std::size_t>(ax.low_count()) + 1) * C);
    before = -(ax.x_lo - ax.pad), after = (ax.x_hi - ax.pad) - (W - 1);
    if (before < 0 || after < 0) throw std::logic_error("downsample chain: the padding does not cover the tent's reach");
    ring_rows = 2 * ay.f;
    // A packed float source is read in place; any other through read_row into a ring of rows kept
    // while the next low row needs them. Rows outside a constant border are a row of cval.
    read_direct = !rows && kDenormalsAsZeroInArithmetic && src.type == ElementType::f32 &&
                  src.stride[0] == static_cast<std::ptrdiff_t>(C * sizeof(float));
    // A packed float destination is written in place; any other through a row and write_row.
    write_direct = !rows && dst.type == ElementType::f32 && dst.stride[0] == static_cast<std::ptrdiff_t>(C * sizeof(float));
    // Packed 8- and 16-bit sources are converted as the tent reads them (no float ring between).
    convert_source = !rows && src.type != ElementType::f32 && src.stride[0] == static_cast<std::ptrdiff_t>(C * element_size(src.type));
    convert_direct = !rows && !write_direct && dst.stride[0] == static_cast<std::ptrdiff_t>(C * element_size(dst.type));
    // The plan's choice for a destination larger than the caches (Schedule::stream_destination).
    stream = write_direct && plan.schedule.stream_destination;
    // Rows of the ring and of the interpolated rows start at the same place in a cache line as the
    // source's and the destination's rows (when these are float), and so does the tent's sum.
    ring_stride = whole_lines(row), up_stride = whole_lines(row) + kLineFloats;
    up_shift = write_direct ? line_shift(dst.pixel(0, 0, 0)) : 0;
    before_floats = static_cast<std::size_t>(before) * C;
    acc_shift = (kLineFloats + (read_direct ? line_shift(src.pixel(0, 0, 0)) : 0) - before_floats % kLineFloats) % kLineFloats;
    first.resize(static_cast<std::size_t>(ax.f));
    frac.resize(static_cast<std::size_t>(ax.f));
    for (int p = 0; p < ax.f; ++p) ax.at(p, first[static_cast<std::size_t>(p)], frac[static_cast<std::size_t>(p)]);
    cval_row.assign(by == Border::constant ? row : 0, cval);
  }

  RowSizes sizes() const {
    return {read_direct ? 0 : static_cast<std::size_t>(ring_rows) * ring_stride,
            x_row + kLineFloats,
            low_row,
            static_cast<std::size_t>(ax.f) * phase_stride,
            static_cast<std::size_t>(xring_rows) * low_row,
            static_cast<std::size_t>(bring_rows) * blur_row,
            3 * up_stride,
            row * 8};
  }
  // Worker t makes output rows [band(t), band(t + 1)) (none where the band is empty), from the
  // blurred blocks [b0, b1] (its first row's and the block after its last row's); these read the
  // x-blurred rows [b0 - r, b1 + r], which read the padded source rows [(b0 - r) f - f/2, (b1 + r) f +
  // 3f/2 - 1].
  std::int64_t band(int t) const { return H * t / threads; }
  bool band_empty(int t) const { return band(t) == band(t + 1); }
  void band_blocks(int t, std::int64_t& b0, std::int64_t& b1) const {
    float unused;
    ay.at(band(t), b0, unused), ay.at(band(t + 1) - 1, b1, unused);
    ++b1;
  }
};

// Rows some workers read from a slot of their own instead of where they lie: slot[i] >= 0 for row
// (or block row) first + i, kept as rows[slot[i]].
struct RowSlots {
  std::int64_t first = 0;
  std::vector<std::int64_t> slot, rows;
  std::int64_t at(std::int64_t y) const { return slot.empty() ? -1 : slot[static_cast<std::size_t>(y - first)]; }
};

// In place, a worker writes rows that others read (near its band's ends, and across a wrapping or
// reflecting border), and rows that it reads itself through the border after writing them. Those
// rows are copied, as floats, before anything is written: the stash. Every other row a worker reads
// is in its own band and read before it writes it (its reads run (r + 1) f rows ahead of its writes).
RowSlots in_place_stash(const ChainLayout& L) {
  RowSlots stash;
  stash.slot.assign(static_cast<std::size_t>(L.H), -1);
  const ChainAxis& ay = L.ay;
  for (int t = 0; t < L.threads; ++t) {
    if (L.band_empty(t)) continue;
    std::int64_t b0, b1;
    L.band_blocks(t, b0, b1);
    for (std::int64_t Y = (b0 - ay.r) * ay.f - ay.f / 2; Y <= (b1 + ay.r) * ay.f + 3 * ay.f / 2 - 1; ++Y) {
      const std::int64_t y = core::border_index(Y - ay.pad, L.H, L.by);
      const bool own = Y - ay.pad == y && y >= L.band(t) && y < L.band(t + 1);
      if (y >= 0 && !own && stash.slot[static_cast<std::size_t>(y)] < 0) {
        stash.slot[static_cast<std::size_t>(y)] = static_cast<std::int64_t>(stash.rows.size());
        stash.rows.push_back(y);
      }
    }
  }
  return stash;
}

// The x-blurred rows that more than one worker reads (about 2 r + 1 around each band's edge: at
// factor 4 and sigma 50 a third of them at 1080p) are made once, shared, before any output row.
RowSlots shared_block_rows(const ChainLayout& L) {
  RowSlots shared;
  shared.first = L.ay.low_lo;
  std::vector<int> readers(static_cast<std::size_t>(L.ay.low_count()), 0);
  for (int t = 0; t < L.threads; ++t) {
    if (L.band_empty(t)) continue;
    std::int64_t b0, b1;
    L.band_blocks(t, b0, b1);
    for (std::int64_t j = b0 - L.ay.r; j <= b1 + L.ay.r; ++j) ++readers[static_cast<std::size_t>(j - L.ay.low_lo)];
  }
  shared.slot.assign(readers.size(), -1);
  for (std::size_t i = 0; i < readers.size(); ++i)
    if (readers[i] > 1)
      shared.slot[i] = static_cast<std::int64_t>(shared.rows.size()), shared.rows.push_back(L.ay.low_lo + static_cast<std::int64_t>(i));
  return shared;
}

// One worker's part of one plane: its band of output rows, pulled through its rings (source rows ->
// reduced and x-blurred block rows -> blurred block rows -> interpolated rows -> output rows).
class ChainWorker {
 public:
  ChainWorker(const ChainLayout& layout, const View& src, const View& dst, const FloatRows* rows, std::int64_t z,
              ChainRows& memory, const RowSlots& stash, const float* stash_rows, const RowSlots& shared, float* shared_rows)
      : L(layout), src_(src), dst_(dst), rows_(rows), z_(z), s(memory), stash_(stash), stash_rows_(stash_rows),
        shared_(shared), shared_rows_(shared_rows), acc_(memory.acc + layout.acc_shift) {
    s.ring_row.assign(static_cast<std::size_t>(L.ring_rows), INT64_MIN);
    s.xring_row.assign(static_cast<std::size_t>(L.xring_rows), INT64_MIN);
    s.up_row.assign(2, INT64_MIN);
  }

  // 1. Block row j reduced: the tent over 2f rows, extended along x (the extension commutes with
  // the sum over rows), the tent along x onto the block centres, then the low-resolution Gaussian
  // along x (fir's SIMD line).
  void reduce(std::int64_t j, float* out) {
    const ChainAxis &ax = L.ax, &ay = L.ay;
    const std::size_t C = L.C;
    const float* rows[16];
    const void* raw[16];
    bool all_raw = L.convert_source;
    for (int k = 0; k < 2 * ay.f && all_raw; ++k) all_raw = (raw[k] = raw_row(j * ay.f + k - ay.f / 2)) != nullptr;
    if ((!all_raw || !weighted_rows_from(raw, src_.type, ay.tent.data(), 2 * ay.f, acc_ + L.before_floats, L.row)) &&
        !summed_by_caller(j)) {
      for (int k = 0; k < 2 * ay.f; ++k) rows[k] = source_row(j * ay.f + k - ay.f / 2);
      weighted_rows(rows, ay.tent.data(), 2 * ay.f, acc_ + L.before_floats, L.row);
    }
    core::extend_line(acc_, L.W, L.before, L.after, static_cast<int>(C), L.bx, L.cval);
    // Along x the tent at the block centres only: block bb's tent starts at padded position
    // bb f - f/2, acc's pixel (bb - low_lo) f, so its tap k reads pixel (bb - low_lo) f + k, which
    // is pixel (bb - low_lo) + k / f of phase k % f. The row is split into its f phases (every
    // f-th pixel, low_count + 1 each), and the tent is a weighted sum of those rows at shifted
    // offsets (2 taps per full-resolution pixel; at every position it was 2 f).
    for (int p = 0; p < ax.f; ++p)
      copy_pixels(acc_ + static_cast<std::size_t>(p) * C, static_cast<std::size_t>(ax.f),
                  s.phases + static_cast<std::size_t>(p) * L.phase_stride, 1, ax.low_count() + 1, C);
    const std::size_t x_taps = 2 * static_cast<std::size_t>(ax.f);
    for (std::size_t k = 0; k < x_taps; ++k)
      rows[k] = s.phases + (k % static_cast<std::size_t>(ax.f)) * L.phase_stride + k / static_cast<std::size_t>(ax.f) * C;
    weighted_rows(rows, ax.tent.data(), static_cast<int>(x_taps), s.low, L.low_row);
    convolve_line(s.low, out, L.blur_row, ax.gauss_half.data(), ax.r, static_cast<int>(C));
  }

  // The band's output rows: each the lerp of two interpolated rows.
  void run_band(int t) {
    const std::int64_t y0 = L.band(t), y1 = L.band(t + 1);
    if (y0 >= y1) return;
    L.band_blocks(t, blurred_to_, band_last_);
    for (std::int64_t y = y0; y < y1; ++y) {
      std::int64_t b;
      float ty;
      L.ay.at(y, b, ty);
      const float* pair[2] = {upsampled(b), upsampled(b + 1)};
      const float wy[2] = {1.0f - ty, ty};
      // Packed 8- and 16-bit rows are converted as the lerp writes them (no float row between).
      if (L.convert_direct && weighted_pair_to(pair, wy, dst_.type, dst_.pixel(0, y, z_), L.row)) continue;
      if (rows_ && rows_->write_lerp && rows_->write_lerp(y, pair[0], pair[1], wy[0], wy[1])) continue;
      float* out = L.write_direct ? reinterpret_cast<float*>(dst_.pixel(0, y, z_)) : s.up + 2 * L.up_stride;
      if (L.stream) weighted_pair_stream(pair, wy, out, L.row);
      else weighted_rows(pair, wy, 2, out, L.row);
      if (rows_) rows_->write(y, out);
      else if (!L.write_direct) write_row(out, dst_, 0, y, z_, L.W, s.bytes);
    }
  }

 private:
  // Source row Y (padded coordinates) as floats: cval's row, the stash's, the source's where it lies,
  // or read into the ring.
  const float* source_row(std::int64_t Y) {
    const std::int64_t y = core::border_index(Y - L.ay.pad, L.H, L.by);
    if (y < 0) return L.cval_row.data();
    if (stash_.at(y) >= 0) return stash_rows_ + static_cast<std::size_t>(stash_.at(y)) * L.row;
    if (L.read_direct) return reinterpret_cast<const float*>(src_.pixel(0, y, z_));
    const std::size_t slot = ring_slot(Y, L.ring_rows);
    float* ring = s.ring + slot * L.ring_stride;
    if (s.ring_row[slot] != Y) {
      s.ring_row[slot] = Y;
      if (rows_) rows_->read(y, ring);
      else read_row(src_, 0, y, z_, L.W, ring, s.bytes);
    }
    return ring;
  }
  // A packed 8- or 16-bit source row the tent may read where it lies (converting as it sums), or
  // null where the row is cval's, stashed or not packed.
  const void* raw_row(std::int64_t Y) const {
    const std::int64_t y = core::border_index(Y - L.ay.pad, L.H, L.by);
    if (!L.convert_source || y < 0 || stash_.at(y) >= 0) return nullptr;
    return src_.pixel(0, y, z_);
  }
  // The caller's rows of block row j's tent summed where they lie (Rows::sum_rows), when each is one
  // of the image's rows (not cval's).
  bool summed_by_caller(std::int64_t j) {
    if (!rows_ || !rows_->sum_rows) return false;
    const ChainAxis& ay = L.ay;
    std::int64_t ys[16];
    for (int k = 0; k < 2 * ay.f; ++k)
      if ((ys[k] = core::border_index(j * ay.f + k - ay.f / 2 - ay.pad, L.H, L.by)) < 0) return false;
    return rows_->sum_rows(ys, ay.tent.data(), 2 * ay.f, acc_ + L.before_floats);
  }
  const float* x_blurred(std::int64_t j) {
    const std::int64_t shared_at = shared_.at(j);
    if (shared_at >= 0) return shared_rows_ + static_cast<std::size_t>(shared_at) * L.low_row;
    const std::size_t slot = ring_slot(j, static_cast<int>(L.xring_rows));
    float* out = s.xring + slot * L.low_row;
    if (s.xring_row[slot] != j) s.xring_row[slot] = j, reduce(j, out);
    return out;
  }
  // 2. Blurred rows b0 .. b0 + n - 1 (n <= kRowBlock): the low-resolution Gaussian across the
  // x-blurred rows, kRowBlock at a time where there are as many.
  void blur_block(std::int64_t b0, std::int64_t n) {
    const ChainAxis& ay = L.ay;
    for (std::int64_t k = 0; k < 2 * ay.r + n; ++k) s.taps[static_cast<std::size_t>(k)] = x_blurred(b0 - ay.r + k);
    float* out[kRowBlock];
    for (std::int64_t m = 0; m < n; ++m) out[m] = s.bring + ring_slot(b0 + m, static_cast<int>(L.bring_rows)) * L.blur_row;
    if (n == kRowBlock) {
      convolve_rows_block(s.taps.data(), out, L.blur_row, ay.gauss_half.data(), ay.r);
    } else {
      for (std::int64_t m = 0; m < n; ++m) convolve_rows(s.taps.data() + m, out[m], L.blur_row, ay.gauss_half.data(), ay.r);
    }
  }
  // 3. Blurred row b along x (phase by phase: a lerp of shifted blocks, its pixels put in their
  // places), kept in a ring of two full rows.
  const float* upsampled(std::int64_t b) {
    const ChainAxis& ax = L.ax;
    const std::size_t C = L.C;
    float* up = s.up + ring_slot(b, 2) * L.up_stride + L.up_shift;
    if (s.up_row[ring_slot(b, 2)] == b) return up;
    s.up_row[ring_slot(b, 2)] = b;
    while (blurred_to_ <= b) {  // b <= band_last_, so each block has at least one row
      const std::int64_t n = std::min<std::int64_t>(kRowBlock, band_last_ - blurred_to_ + 1);
      blur_block(blurred_to_, n);
      blurred_to_ += n;
    }
    const float* blocks = s.bring + ring_slot(b, static_cast<int>(L.bring_rows)) * L.blur_row;
    for (int p = 0; p < ax.f && p < L.W; ++p) {
      const float tx = L.frac[static_cast<std::size_t>(p)];
      const float* a = blocks + static_cast<std::size_t>(L.first[static_cast<std::size_t>(p)] - ax.blur_lo) * C;
      const float* shifted[2] = {a, a + C};
      const float wx[2] = {1.0f - tx, tx};
      const std::int64_t count = (L.W - p + ax.f - 1) / ax.f;
      weighted_rows(shifted, wx, 2, s.phases, static_cast<std::size_t>(count) * C);
      copy_pixels(s.phases, 1, up + static_cast<std::size_t>(p) * C, static_cast<std::size_t>(ax.f), count, C);
    }
    return up;
  }

  const ChainLayout& L;
  const View &src_, &dst_;
  const FloatRows* rows_;
  std::int64_t z_;
  ChainRows& s;
  const RowSlots& stash_;
  const float* stash_rows_;
  const RowSlots& shared_;
  float* shared_rows_;
  float* acc_;
  std::int64_t blurred_to_ = 0, band_last_ = 0;  // the next blurred block to make, the band's last
};

// The chain over views, or over the caller's rows where `rows` is given (src and dst then only
// describe the image's shape).
void chain(const Plan& plan, const View& src, const View& dst, const FloatRows* rows) {
  const ChainLayout L(plan, src, dst, rows);
  std::vector<WorkerMemory> temporary;
  std::vector<ChainRows> workers = worker_rows(L.threads, L.sizes(), temporary);
  for (ChainRows& w : workers) w.taps.resize(static_cast<std::size_t>(2 * L.ay.r + kRowBlock));
  const RowSlots stash = !rows && core::views_overlap(src, dst) ? in_place_stash(L) : RowSlots{};
  float* stash_rows = reinterpret_cast<float*>(
      t_chain_stash.reserve(std::max<std::size_t>(stash.rows.size() * L.row, 1) * sizeof(float), "downsample's rows"));
  const RowSlots shared = shared_block_rows(L);
  float* shared_rows = reinterpret_cast<float*>(
      t_chain_shared.reserve(std::max<std::size_t>(shared.rows.size() * L.low_row, 1) * sizeof(float), "downsample's rows"));
  // A stack (a volume whose z axis is not blurred) plane by plane.
  for (std::int64_t z = 0; z < src.depth(); ++z) {
    for (std::size_t i = 0; i < stash.rows.size(); ++i)
      read_row(src, 0, stash.rows[i], z, L.W, stash_rows + i * L.row, workers[0].bytes);
#pragma omp parallel num_threads(L.threads)
    {
      const int t = omp_get_thread_num();
      const DenormalInputsAsZero denormals_as_zero;
      ChainWorker worker(L, src, dst, rows, z, workers[static_cast<std::size_t>(t)], stash, stash_rows, shared, shared_rows);
#pragma omp for schedule(static)
      for (std::size_t i = 0; i < shared.rows.size(); ++i) worker.reduce(shared.rows[i], shared_rows + i * L.low_row);
      worker.run_band(t);
    }
  }
}

}  // namespace

void downsample_chain_blur(const Plan& plan, const View& src, const View& dst) { chain(plan, src, dst, nullptr); }

bool chain_rows_available(const Plan& plan) {
  return plan.algorithm == Algorithm::downsample && plan.schedule.driver == CpuDriver::chain && plan.extent[2] == 1;
}

void downsample_chain_rows(const Plan& plan, const FloatRows& rows) {
  if (!chain_rows_available(plan) || rows.width != plan.extent[0] || rows.height != plan.extent[1] ||
      rows.channels != plan.channels)
    throw std::logic_error("internal: downsample_chain_rows runs a 2D chain plan of the rows' shape");
  const View shape = View::packed(static_cast<float*>(nullptr), ElementType::f32, rows.width, rows.height, 1, rows.channels);
  chain(plan, shape, shape, &rows);
}

}  // namespace fastblur::cpu
