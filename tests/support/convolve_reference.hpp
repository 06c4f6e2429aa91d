#pragma once
// The exact result of any separable filter: each axis convolved in double with a given centred
// kernel, borders extended as scipy.ndimage does. The oracle for algorithms that are exact
// convolutions with their own equivalent kernel (box, kawase, ...).
#include <array>
#include <cmath>
#include <vector>

#include "core/border.hpp"
#include "support/test_support.hpp"

namespace fastblur::test {

// Direct double-precision correlation of each axis with the given kernels: tap t at offset t - n/2
// (centred for odd n; an even kernel reaches one sample less to the right).
inline void convolve_reference(const View& src, const View& dst, const std::array<std::vector<double>, 3>& k,
                        const BlurSpec& spec) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  std::vector<double> img(static_cast<std::size_t>(W * H * D * C));
  auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z, int c) -> double& {
    return img[static_cast<std::size_t>(((z * H + y) * W + x) * C + c)];
  };
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y)
      for (std::int64_t x = 0; x < W; ++x)
        for (int c = 0; c < C; ++c) at(x, y, z, c) = test::get(src, x, y, z, c);
  for (int a = 0; a < 3; ++a) {
    if (k[a].empty()) continue;
    const std::int64_t n = src.extent[a], half = static_cast<std::int64_t>(k[a].size() / 2);
    double gain = 0.0;
    for (double v : k[a]) gain += v;
    // A one-sample line (every tap reads its one sample) is left alone by a kernel of unit gain (the
    // approximations' gains differ from 1 by their error); other kernels scale it (correlate's).
    if (n == 1 && spec.border[a] != Border::constant && std::abs(gain - 1.0) < 1e-3) continue;
    std::vector<double> out = img;
    for (std::int64_t z = 0; z < D; ++z)
      for (std::int64_t y = 0; y < H; ++y)
        for (std::int64_t x = 0; x < W; ++x)
          for (int c = 0; c < C; ++c) {
            const std::int64_t p[3] = {x, y, z};
            double s = 0.0;
            for (std::int64_t t = 0; t < static_cast<std::int64_t>(k[a].size()); ++t) {  // even lengths too
              const std::int64_t j = t - half;
              const std::int64_t m = core::border_index(p[a] + j, n, spec.border[a]);
              std::int64_t q[3] = {x, y, z};
              q[a] = m;
              s += k[a][static_cast<std::size_t>(t)] * (m < 0 ? spec.cval : at(q[0], q[1], q[2], c));
            }
            out[static_cast<std::size_t>(((z * H + y) * W + x) * C + c)] = s;
          }
    img = std::move(out);
  }
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y)
      for (std::int64_t x = 0; x < W; ++x)
        for (int c = 0; c < C; ++c) test::set(dst, x, y, z, c, at(x, y, z, c));
}

}  // namespace fastblur::test
