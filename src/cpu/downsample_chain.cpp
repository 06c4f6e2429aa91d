// downsample's 2D chain driver: the image reduced on both axes at once, blurred at low resolution,
// interpolated back - one read of the source and one write of the destination at full resolution,
// the rest on a quarter (factor 2) or a sixteenth (factor 4) of the samples, in float.
//
// The same function as the line driver (cpu/downsample.cpp): the per-axis operators (tent onto the
// block centres, low-resolution Gaussian, linear interpolation) act on different axes, so they
// commute, and a border's extension along one axis commutes with the other axis's operator. Only
// the blocks an output reads are made (for each axis, those the line driver's outputs read).
#include "algorithms/downsample.hpp"
#include "cpu/execute.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/border.hpp"
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
// reserved before the parallel regions: an allocation that fails there throws OutOfMemory to the
// caller, where inside a region it would terminate the process.
struct WorkerMemory {
  RetainedBuffer ring, acc, low, filtered, up, bytes;
};
thread_local std::vector<WorkerMemory> t_chain_memory;
struct ChainRows {
  float *ring = nullptr, *acc = nullptr, *low = nullptr, *filtered = nullptr, *up = nullptr;
  std::byte* bytes = nullptr;
  std::vector<std::int64_t> ring_row, up_row;  // which source row / blurred block each slot holds
};
struct RowSizes {
  std::size_t ring, acc, low, filtered, up, bytes;  // in floats, bytes in bytes
};
std::vector<ChainRows> worker_rows(int threads, const RowSizes& n, std::vector<WorkerMemory>& temporary) {
  const std::size_t largest = std::max({n.ring, n.acc, n.low, n.filtered, n.up}) * sizeof(float) * 2;
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
    rows[t].filtered = floats(memory[t].filtered, n.filtered);
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

void downsample_chain_blur(const Plan& plan, const View& src, const View& dst) {
  const auto& resolved = algo::resolved_as<algo::DownsampleResolved>(plan);
  const ChainAxis ax(resolved.axes[0], src.width()), ay(resolved.axes[1], src.height());
  const std::int64_t W = src.width(), H = src.height();
  const std::size_t C = static_cast<std::size_t>(src.channels);
  const std::size_t row = static_cast<std::size_t>(W) * C;  // one image row, in floats
  const Border bx = plan.spec.border[0], by = plan.spec.border[1];
  const float cval = static_cast<float>(plan.spec.cval);
  const int threads = plan.schedule.threads;

  // The x-blurred low rows (ay.low_count() rows of ax.low_count() blocks) and the blurred ones.
  const std::size_t low_row = static_cast<std::size_t>(ax.low_count()) * C;
  const std::size_t blur_row = static_cast<std::size_t>(ax.blur_count()) * C;
  const double floats = static_cast<double>(low_row) * static_cast<double>(ay.low_count());
  if (floats * sizeof(float) > static_cast<double>(core::kMaxAllocationBytes))
    throw OutOfMemory("downsample's reduced image needs " + std::to_string(floats) + " x 4 bytes, more than can be addressed");
  ScratchImage xblur_image(static_cast<std::size_t>(floats) * sizeof(float), 0);
  ScratchImage blurred_image(static_cast<std::size_t>(blur_row) * static_cast<std::size_t>(ay.blur_count()) * sizeof(float), 1);
  float* xblur = xblur_image.as<float>();
  float* blurred = blurred_image.as<float>();

  const std::size_t x_row = static_cast<std::size_t>(ax.x_count()) * C;
  const std::int64_t before = -(ax.x_lo - ax.pad), after = (ax.x_hi - ax.pad) - (W - 1);
  if (before < 0 || after < 0) throw std::logic_error("downsample chain: the padding does not cover the tent's reach");
  const int ring_rows = 2 * ay.f;
  // A packed float source is read in place; any other through read_row into a ring of rows kept
  // while the next low row needs them. Rows outside a constant border are a row of cval.
  const bool read_direct = src.type == ElementType::f32 && src.stride[0] == static_cast<std::ptrdiff_t>(C * sizeof(float));
  // A packed float destination is written in place; any other through a row and write_row.
  const bool write_direct = dst.type == ElementType::f32 && dst.stride[0] == static_cast<std::ptrdiff_t>(C * sizeof(float));
  const std::vector<float> cval_row(by == Border::constant ? row : 0, cval);

  // Each worker's rows: the ring (read rows), the tent's sums along y (padded along x), a low row,
  // one phase's pixels, two interpolated (upsampled) rows and an output row.
  const std::int64_t per_phase = (W + ax.f - 1) / ax.f;
  std::vector<WorkerMemory> temporary;
  // Rows of the ring and of the interpolated rows start at the same place in a cache line as the
  // source's and the destination's rows (when these are float), and so does the tent's sum.
  const std::size_t ring_stride = whole_lines(row), up_stride = whole_lines(row) + kLineFloats;
  const std::size_t up_shift = write_direct ? line_shift(dst.pixel(0, 0, 0)) : 0;
  const std::size_t before_floats = static_cast<std::size_t>(before) * C;
  const std::size_t acc_shift =
      (kLineFloats + (read_direct ? line_shift(src.pixel(0, 0, 0)) : 0) - before_floats % kLineFloats) % kLineFloats;
  const RowSizes sizes{read_direct ? 0 : static_cast<std::size_t>(ring_rows) * ring_stride, x_row + kLineFloats,
                       low_row, std::max(x_row, static_cast<std::size_t>(per_phase) * C), 3 * up_stride, row * 8};
  std::vector<ChainRows> workers = worker_rows(threads, sizes, temporary);
  std::vector<const float*> xblur_rows(static_cast<std::size_t>(ay.low_count()));
  for (std::int64_t j = 0; j < ay.low_count(); ++j)
    xblur_rows[static_cast<std::size_t>(j)] = xblur + static_cast<std::size_t>(j) * low_row;
  const std::int64_t row_blocks = (ay.blur_count() + kRowBlock - 1) / kRowBlock;
  // Each output phase of a block (x = f m + p) interpolates blocks first[p] + m and the next at frac[p].
  std::vector<std::int64_t> first(static_cast<std::size_t>(ax.f));
  std::vector<float> frac(static_cast<std::size_t>(ax.f));
  for (int p = 0; p < ax.f; ++p) ax.at(p, first[static_cast<std::size_t>(p)], frac[static_cast<std::size_t>(p)]);

  // A stack (a volume whose z axis is not blurred) plane by plane: each plane is the image it is,
  // read whole before it is written, so in place holds.
  for (std::int64_t z = 0; z < src.depth(); ++z) {
    // 1. Reduce and blur along x: each low row is the tent over 2f rows, extended along x (the
    // extension commutes with the sum over rows), then the tent along x onto the block centres,
    // then the low-resolution Gaussian along x (fir's SIMD line).
    for (ChainRows& w : workers) w.ring_row.assign(static_cast<std::size_t>(ring_rows), INT64_MIN);
#pragma omp parallel num_threads(threads)
    {
      ChainRows& s = workers[static_cast<std::size_t>(omp_get_thread_num())];
      const float* rows[8];
      float* const acc = s.acc + acc_shift;
      const std::size_t x_taps = 2 * static_cast<std::size_t>(ax.f);
      const std::size_t filtered = x_row - (x_taps - 1) * C;
      const auto source_row = [&](std::int64_t Y) -> const float* {
        const std::int64_t y = core::border_index(Y - ay.pad, H, by);
        if (y < 0) return cval_row.data();
        if (read_direct) return reinterpret_cast<const float*>(src.pixel(0, y, z));
        const std::size_t slot = ring_slot(Y, ring_rows);
        float* ring = s.ring + slot * ring_stride;
        if (s.ring_row[slot] != Y) {
          s.ring_row[slot] = Y;
          read_row(src, 0, y, z, W, ring, s.bytes);
        }
        return ring;
      };
#pragma omp for schedule(static)
      for (std::int64_t j = 0; j < ay.low_count(); ++j) {
        const std::int64_t b = ay.low_lo + j;
        for (int k = 0; k < 2 * ay.f; ++k) rows[k] = source_row(b * ay.f + k - ay.f / 2);
        weighted_rows(rows, ay.tent.data(), 2 * ay.f, acc + before_floats, row);
        core::extend_line(acc, W, before, after, C, bx, cval);
        // Along x the tent at every position (the row at shifted offsets), then every f-th: block
        // bb's tent starts at padded position bb f - f/2, acc's pixel (bb - low_lo) f.
        for (std::size_t k = 0; k < x_taps; ++k) rows[k] = acc + k * C;
        weighted_rows(rows, ax.tent.data(), static_cast<int>(x_taps), s.filtered, filtered);
        copy_pixels(s.filtered, static_cast<std::size_t>(ax.f), s.low, 1, ax.low_count(), C);
        convolve_line(s.low, xblur + static_cast<std::size_t>(j) * low_row, blur_row, ax.gauss_half.data(), ax.r, C);
      }
    }

    // 2. The low-resolution Gaussian across rows.
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t g = 0; g < row_blocks; ++g) {
      const std::int64_t j0 = g * kRowBlock;
      float* out[kRowBlock];
      for (int m = 0; m < kRowBlock; ++m) out[m] = blurred + static_cast<std::size_t>(j0 + m) * blur_row;
      if (j0 + kRowBlock <= ay.blur_count()) {
        convolve_rows_block(xblur_rows.data() + j0, out, blur_row, ay.gauss_half.data(), ay.r);
      } else {
        for (std::int64_t j = j0; j < ay.blur_count(); ++j)
          convolve_rows(xblur_rows.data() + j, out[j - j0], blur_row, ay.gauss_half.data(), ay.r);
      }
    }

    // 3. Interpolate: each blurred row along x once, phase by phase (one pair of weights each: a
    // lerp of shifted blocks, its pixels put in their places), into a ring of two full rows; each
    // output row is the lerp of two of them.
    for (ChainRows& w : workers) w.up_row.assign(2, INT64_MIN);
#pragma omp parallel num_threads(threads)
    {
      ChainRows& s = workers[static_cast<std::size_t>(omp_get_thread_num())];
      const auto upsampled = [&](std::int64_t b) -> const float* {
        float* up = s.up + ring_slot(b, 2) * up_stride + up_shift;
        if (s.up_row[ring_slot(b, 2)] == b) return up;
        s.up_row[ring_slot(b, 2)] = b;
        const float* blocks = blurred + static_cast<std::size_t>(b - ay.blur_lo) * blur_row;
        for (int p = 0; p < ax.f && p < W; ++p) {
          const float tx = frac[static_cast<std::size_t>(p)];
          const float* a = blocks + static_cast<std::size_t>(first[static_cast<std::size_t>(p)] - ax.blur_lo) * C;
          const float* shifted[2] = {a, a + C};
          const float wx[2] = {1.0f - tx, tx};
          const std::int64_t count = (W - p + ax.f - 1) / ax.f;
          weighted_rows(shifted, wx, 2, s.filtered, static_cast<std::size_t>(count) * C);
          copy_pixels(s.filtered, 1, up + static_cast<std::size_t>(p) * C, static_cast<std::size_t>(ax.f), count, C);
        }
        return up;
      };
#pragma omp for schedule(static)
      for (std::int64_t y = 0; y < H; ++y) {
        std::int64_t b;
        float t;
        ay.at(y, b, t);
        const float* pair[2] = {upsampled(b), upsampled(b + 1)};
        const float wy[2] = {1.0f - t, t};
        float* out = write_direct ? reinterpret_cast<float*>(dst.pixel(0, y, z)) : s.up + 2 * up_stride;
        weighted_rows(pair, wy, 2, out, row);
        if (!write_direct) write_row(out, dst, 0, y, z, W, s.bytes);
      }
    }
  }
}

}  // namespace fastblur::cpu
