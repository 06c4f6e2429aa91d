// CpuDriver::scipy_order with Schedule::scipy_u8_certified: a uint8 2D image filtered along y, then
// x, into uint8 - SciPy's order for an image - in one pass. Each worker makes a band of output rows:
// source rows enter a ring as floats (their 8-bit values); an output row's y pass sums the ring's
// rows into the x pass's line (SciPy stores y's result as uint8 and x reads it back: the sums give
// it as an integer already), the line is extended by x's border mode and its x pass writes the
// output row. Both passes give SciPy's truncated double sums from float32 sums with an error bound
// (cpu/scipy_u8_certified.hpp): no double arithmetic and nothing to convert between the axes.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <vector>

#include "core/overlap.hpp"
#include "cpu/execute.hpp"
#include "cpu/scipy_ring.hpp"
#include "cpu/scipy_u8_certified.hpp"
#include "kernel/certified_u8.hpp"

namespace fastblur::cpu {
namespace {

// A worker's rows, kept from call to call (fresh pages cost a fault per 4 KiB every call).
struct U8Buffers {
  std::vector<float> ring, line;
  std::vector<std::uint8_t> bytes, out;
};
thread_local U8Buffers t_u8;

// Row y of a uint8 view (C channels a pixel, pixels stride[0] apart) into `to`, packed.
void read_u8_row(const View& v, std::int64_t y, std::uint8_t* to) {
  const std::int64_t C = v.channels, W = v.width();
  const auto* from = reinterpret_cast<const std::uint8_t*>(v.pixel(0, y));
  if (v.stride[0] == C) {
    std::memcpy(to, from, static_cast<std::size_t>(W * C));
    return;
  }
  for (std::int64_t x = 0; x < W; ++x) std::memcpy(to + x * C, from + x * v.stride[0], static_cast<std::size_t>(C));
}

void write_u8_row(const std::uint8_t* from, const View& v, std::int64_t y) {
  const std::int64_t C = v.channels, W = v.width();
  auto* to = reinterpret_cast<std::uint8_t*>(v.pixel(0, y));
  for (std::int64_t x = 0; x < W; ++x) std::memcpy(to + x * v.stride[0], from + x * C, static_cast<std::size_t>(C));
}

}  // namespace

bool scipy_order_rows_u8_blur(const Plan& plan, const View& src, const View& dst, int workers) {
  // The plan's conditions (fir's schedule), on these views: a plan made for another call runs the other driver.
  const double cval = plan.spec.cval;
  if (!kernel::certified_u8_types(src.type, dst.type) || core::views_overlap(src, dst) || !kernel::cval_fits_u8(cval))
    return false;
  const std::int64_t W = dst.width(), H = dst.height(), C = dst.channels, row = W * C;
  const ScipyAxis y = scipy_axis(plan, 1, H), x = scipy_axis(plan, 0, W);
  const CertifiedU8Axis ky = certified_u8_axis(*plan.axes[1].weights), kx = certified_u8_axis(*plan.axes[0].weights);
  const auto fill = static_cast<std::uint8_t>(cval);
  const int taps = y.taps();
  const std::size_t pitch = ring_pitch(row, sizeof(float));
  const std::size_t line_len = static_cast<std::size_t>((W + x.size1 + x.size2) * C);
  const bool packed_out = dst.stride[0] == C;
  const Bands bands(H, workers);
  std::exception_ptr failure;
#pragma omp parallel for schedule(static, 1) num_threads(bands.workers())
  for (int b = 0; b < bands.workers(); ++b) {
    try {
      U8Buffers& buf = t_u8;
      buf.ring.resize(static_cast<std::size_t>(taps) * pitch);
      buf.line.resize(line_len);
      buf.out.resize(static_cast<std::size_t>(row));
      buf.bytes.resize(static_cast<std::size_t>(row));
      std::vector<const float*> rows(static_cast<std::size_t>(taps));
      const auto slot = [&](std::int64_t e) { return buf.ring.data() + static_cast<std::size_t>(e % taps) * pitch; };
      const auto enter = [&](std::int64_t e) {  // extended row e (position e - size1) into its slot
        const std::int64_t r = y.map[static_cast<std::size_t>(e)];
        if (r < 0) {
          std::fill(slot(e), slot(e) + row, static_cast<float>(fill));
        } else if (src.stride[0] == C) {
          widen_u8(reinterpret_cast<const std::uint8_t*>(src.pixel(0, r)), slot(e), static_cast<std::size_t>(row));
        } else {
          read_u8_row(src, r, buf.bytes.data());
          widen_u8(buf.bytes.data(), slot(e), static_cast<std::size_t>(row));
        }
      };
      const std::int64_t y0 = bands.start[static_cast<std::size_t>(b)], y1 = bands.start[static_cast<std::size_t>(b) + 1];
      for (std::int64_t e = y0; e + 1 < y0 + taps && y0 < y1; ++e) enter(e);
      float* line = buf.line.data();
      float* centre = line + x.size1 * C;
      for (std::int64_t out_y = y0; out_y < y1; ++out_y) {
        enter(out_y + taps - 1);
        for (int t = 0; t < taps; ++t) rows[static_cast<std::size_t>(t)] = slot(out_y + t);
        certified_u8_rows(rows.data() + y.size1, 0, centre, static_cast<std::size_t>(row), ky);
        // x: the line extended by its border mode, a pixel (C values) at a time, on both sides.
        const auto extend = [&](std::int64_t j) {
          const std::int64_t m = x.map[static_cast<std::size_t>(j)];
          float* to = line + j * C;
          if (m < 0) std::fill(to, to + C, static_cast<float>(fill));
          else std::copy(centre + m * C, centre + (m + 1) * C, to);
        };
        for (std::int64_t j = 0; j < x.size1; ++j) extend(j);
        for (std::int64_t j = x.size1 + W; j < x.size1 + W + x.size2; ++j) extend(j);
        std::uint8_t* made = packed_out ? reinterpret_cast<std::uint8_t*>(dst.pixel(0, out_y)) : buf.out.data();
        certified_u8_line(centre, C, made, static_cast<std::size_t>(row), kx);
        if (!packed_out) write_u8_row(made, dst, out_y);
      }
    } catch (...) {
#pragma omp critical(fastblur_scipy_u8_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  return true;
}

}  // namespace fastblur::cpu
