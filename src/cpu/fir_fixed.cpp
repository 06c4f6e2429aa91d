#include "cpu/fir_fixed.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/border.hpp"
#include "core/overlap.hpp"
#include "cpu/fir_fixed_simd.hpp"
#include "kernel/fixed_point.hpp"

namespace fastblur::cpu {

void fir_fixed_u8(const Plan& plan, const View& src_in, const View& dst) {
  // A volume whose z axis is not filtered is a stack of images: each plane on its own. (Planes past
  // the first were once left unwritten - fuzz_blur's regression inplace-u8-u16-fixed-point.)
  if (src_in.depth() > 1) {
    for (std::int64_t z = 0; z < src_in.depth(); ++z) {
      View s = src_in, d = dst;
      s.data = src_in.pixel(0, 0, z);
      d.data = dst.pixel(0, 0, z);
      s.extent[2] = d.extent[2] = 1;
      fir_fixed_u8(plan, s, d);
    }
    return;
  }
  const std::int64_t W = src_in.width(), H = src_in.height();
  const std::size_t C = static_cast<std::size_t>(src_in.channels);
  const std::size_t L = static_cast<std::size_t>(W) * C;
  const int rx = plan.axes[0].radius, ry = plan.axes[1].radius;
  const std::vector<std::int16_t> wx = *kernel::fixed_point_half(*plan.axes[0].weights);
  const std::vector<std::int16_t> wy = *kernel::fixed_point_half(*plan.axes[1].weights);
  const auto cval = static_cast<std::int16_t>(std::lround(plan.spec.cval * 64.0));
  const Border bx = plan.spec.border[0], by = plan.spec.border[1];
  // In place (or overlapping), rows would be read after they are written: read a copy.
  std::vector<std::uint8_t> copy;
  View src = src_in;
  if (core::views_overlap(src_in, dst)) {
    copy.resize(L * static_cast<std::size_t>(H));
    for (std::int64_t y = 0; y < H; ++y)
      for (std::int64_t x = 0; x < W; ++x)
        std::memcpy(copy.data() + static_cast<std::size_t>(y) * L + static_cast<std::size_t>(x) * C, src_in.pixel(x, y, 0), C);
    src = View::packed(copy.data(), ElementType::u8, W, H, 1, src_in.channels);
  }
  const int threads = plan.schedule.threads;
  constexpr std::int64_t kBlock = kFixedRowBlock;  // output rows made at once by the y pass
  const std::size_t ring_rows = 2 * static_cast<std::size_t>(ry) + kBlock;
  std::int64_t band = std::max<std::int64_t>(std::max<std::int64_t>(16, 4 * ry), (H + 4 * threads - 1) / (4 * threads));
  band = std::min(band, H);
  const std::int64_t bands = (H + band - 1) / band;
  struct Scratch {
    std::vector<std::int16_t> ring, padded;
    std::vector<std::uint8_t> in, out;
    std::vector<const std::int16_t*> ptrs;
  };
  std::vector<Scratch> scratch(static_cast<std::size_t>(threads));
  for (Scratch& s : scratch) {
    s.ring.resize(ring_rows * L);
    s.padded.resize((static_cast<std::size_t>(W) + 2 * static_cast<std::size_t>(rx)) * C);
    s.in.resize(L);
    s.out.resize(kBlock * L);
    s.ptrs.resize(ring_rows);
  }
  const bool src_packed = src.stride[0] == static_cast<std::ptrdiff_t>(C);
  const bool dst_packed = dst.stride[0] == static_cast<std::ptrdiff_t>(C);
  const auto slot_of = [ring_rows](std::int64_t j) {
    const auto n = static_cast<std::int64_t>(ring_rows);
    return static_cast<std::size_t>(((j % n) + n) % n);
  };
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t t = 0; t < bands; ++t) {
    Scratch& s = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t y0 = t * band, y1 = std::min(H, y0 + band);
    std::int16_t* P = s.padded.data();
    // Input row j (border-mapped along y) convolved along x into ring slot j mod ring_rows.
    const auto x_row = [&](std::int64_t j) {
      std::int16_t* slot = s.ring.data() + slot_of(j) * L;
      const std::int64_t sy = core::border_index(j, H, by);
      if (sy < 0) {
        std::fill(slot, slot + L, cval);
        return;
      }
      const auto* row = reinterpret_cast<const std::uint8_t*>(src.pixel(0, sy, 0));
      if (!src_packed) {
        for (std::int64_t x = 0; x < W; ++x)
          std::memcpy(s.in.data() + static_cast<std::size_t>(x) * C, src.pixel(x, sy, 0), C);
        row = s.in.data();
      }
      u8_to_q6(row, P + static_cast<std::size_t>(rx) * C, L);
      core::extend_line(P, W, rx, rx, C, bx, cval);
      fixed_convolve_line(P + static_cast<std::size_t>(rx) * C, slot, L, wx.data(), rx, C);
    };
    for (std::int64_t j = y0 - ry; j < y0 + ry; ++j) x_row(j);
    for (std::int64_t j = y0; j < y1; j += kBlock) {
      const std::int64_t count = std::min(kBlock, y1 - j);
      for (std::int64_t m = 0; m < count; ++m) x_row(j + ry + m);
      for (std::size_t k = 0; k < ring_rows; ++k) s.ptrs[k] = s.ring.data() + slot_of(j - ry + static_cast<std::int64_t>(k)) * L;
      std::uint8_t* out[kBlock];
      for (std::int64_t m = 0; m < kBlock; ++m)
        out[m] = dst_packed && m < count ? reinterpret_cast<std::uint8_t*>(dst.pixel(0, j + m, 0))
                                         : s.out.data() + static_cast<std::size_t>(m) * L;
      if (count == kBlock) {
        fixed_convolve_rows_block_u8(s.ptrs.data(), out, L, wy.data(), ry);
      } else {
        std::int64_t m = 0;
        for (; m + 2 <= count; m += 2)
          fixed_convolve_rows2_u8(s.ptrs.data() + m, out[m], out[m + 1], L, wy.data(), ry);
        if (m < count) fixed_convolve_rows_u8(s.ptrs.data() + m, out[m], L, wy.data(), ry);
      }
      if (!dst_packed)
        for (std::int64_t row = j; row < j + count; ++row)
          for (std::int64_t x = 0; x < W; ++x)
            std::memcpy(dst.pixel(x, row, 0), s.out.data() + static_cast<std::size_t>(row - j) * L + static_cast<std::size_t>(x) * C, C);
    }
  }
}

}  // namespace fastblur::cpu
