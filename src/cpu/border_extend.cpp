#include "cpu/border_extend.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/border.hpp"
#include "core/threads.hpp"
#include "cpu/line_io.hpp"

namespace fastblur::cpu {

template <class T>
void extend_borders_2d(const View& src, const Plan& plan, T* padded, std::int64_t padded_width,
                       std::int64_t before_x, std::int64_t before_y, PaddedRect rect, int threads) {
  const int C = src.channels;
  const std::int64_t W = src.width(), H = src.height();
  const std::int64_t cols = rect.x1 - rect.x0 + 1, rows = rect.y1 - rect.y0 + 1;
  if (cols <= 0 || rows <= 0) return;
  const T cval = static_cast<T>(plan.spec.cval);
  threads = core::threads_for(static_cast<double>(rows) * static_cast<double>(cols * C), threads);
  std::vector<std::vector<T>> line(static_cast<std::size_t>(threads), std::vector<T>(static_cast<std::size_t>(W * C)));
  std::vector<std::vector<std::byte>> bytes(static_cast<std::size_t>(threads),
                                            std::vector<std::byte>(static_cast<std::size_t>(W * C) * 8));
  const std::vector<std::int64_t> map_x = core::border_map(rect.x0 - before_x, cols, W, plan.spec.border[0]);
  const std::vector<std::int64_t> map_y = core::border_map(rect.y0 - before_y, rows, H, plan.spec.border[1]);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t y = rect.y0; y <= rect.y1; ++y) {
    const int t = omp_get_thread_num();
    T* out = padded + static_cast<std::size_t>((y * padded_width + rect.x0) * C);
    const std::int64_t m = map_y[static_cast<std::size_t>(y - rect.y0)];
    if (m < 0) {
      std::fill(out, out + cols * C, cval);
      continue;
    }
    T* in = line[static_cast<std::size_t>(t)].data();
    read_row(src, 0, m, 0, W, in, bytes[static_cast<std::size_t>(t)].data());
    for (std::int64_t i = 0; i < cols; ++i) {
      const std::int64_t mx = map_x[static_cast<std::size_t>(i)];
      if (mx < 0) std::fill(out + i * C, out + (i + 1) * C, cval);
      else std::copy_n(in + mx * C, C, out + i * C);
    }
  }
}

template void extend_borders_2d<float>(const View&, const Plan&, float*, std::int64_t, std::int64_t, std::int64_t,
                                       PaddedRect, int);
template void extend_borders_2d<double>(const View&, const Plan&, double*, std::int64_t, std::int64_t, std::int64_t,
                                        PaddedRect, int);

}  // namespace fastblur::cpu
