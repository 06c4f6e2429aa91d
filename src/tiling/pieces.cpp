#include "tiling/pieces.hpp"

#include <algorithm>
#include <cmath>

#include "core/border.hpp"
#include "core/element_convert.hpp"
#include "fastblur/error.hpp"

namespace fastblur {

PieceGrid piece_grid(const Plan& plan) {
  PieceGrid g;
  for (const AxisPlan& a : plan.axes) g.align = std::max(g.align, a.align);
  for (std::size_t a = 0; a < 3; ++a) g.halo[a] = (plan.axes[a].support + g.align - 1) / g.align * g.align;
  return g;
}

}  // namespace fastblur

namespace fastblur::tiling {

std::vector<Piece> pieces(std::array<std::int64_t, 3> n, std::array<std::int64_t, 3> tile,
                          std::array<std::int64_t, 3> halo) {
  std::vector<Piece> out;
  for (std::int64_t z = 0; z < n[2]; z += tile[2])
    for (std::int64_t y = 0; y < n[1]; y += tile[1])
      for (std::int64_t x = 0; x < n[0]; x += tile[0]) {
        Piece p;
        p.lo = {x, y, z};
        p.hi = {std::min(x + tile[0], n[0]), std::min(y + tile[1], n[1]), std::min(z + tile[2], n[2])};
        for (std::size_t k = 0; k < 3; ++k) p.halo[k] = tile[k] < n[k] ? halo[k] : 0;
        out.push_back(p);
      }
  return out;
}

std::array<std::int64_t, 3> choose_tile(std::array<std::int64_t, 3> n, std::array<std::int64_t, 3> halo,
                                        std::int64_t align,
                                        const std::function<bool(std::array<std::int64_t, 3>)>& fits) {
  if (fits(n)) return n;
  std::array<std::vector<std::int64_t>, 3> options;
  for (std::size_t k = 0; k < 3; ++k) {
    options[k].push_back(n[k]);
    for (std::int64_t m = 1; m * align < n[k]; m = std::max(m + 1, m * 3 / 2)) options[k].push_back(m * align);
  }
  std::array<std::int64_t, 3> tile{};
  double best = INFINITY, best_count = INFINITY;
  for (std::int64_t tz : options[2])
    for (std::int64_t ty : options[1])
      for (std::int64_t tx : options[0]) {
        const std::array<std::int64_t, 3> t{tx, ty, tz};
        std::array<std::int64_t, 3> e{};
        double count = 1.0;
        for (std::size_t k = 0; k < 3; ++k) {
          e[k] = t[k] + (t[k] < n[k] ? 2 * halo[k] : 0);
          count *= static_cast<double>((n[k] + t[k] - 1) / t[k]);
        }
        if (!fits(e)) continue;
        const double volume = count * static_cast<double>(e[0]) * static_cast<double>(e[1]) * static_cast<double>(e[2]);
        if (volume < best || (volume == best && count < best_count)) best = volume, best_count = count, tile = t;
      }
  if (!std::isfinite(best))
    throw Unsupported("the data cannot be cut into pieces that fit: one piece with the algorithm's reach still exceeds "
                      "the limits; use the CPU");
  return tile;
}

void gather(const View& src, const Piece& p, const std::array<Border, 3>& border, double cval_in, float* out) {
  const auto e = p.extent();
  const int C = src.channels;
  const std::vector<std::int64_t> map_x = core::border_map(p.lo[0] - p.halo[0], e[0], src.width(), border[0]);
  const std::vector<std::int64_t> map_y = core::border_map(p.lo[1] - p.halo[1], e[1], src.height(), border[1]);
  const std::vector<std::int64_t> map_z = core::border_map(p.lo[2] - p.halo[2], e[2], src.depth(), border[2]);
  std::vector<float> row(static_cast<std::size_t>(src.width() * C));
  std::vector<std::byte> scratch(row.size() * 8);
  const float cval = static_cast<float>(cval_in);
  for (std::int64_t z = 0; z < e[2]; ++z)
    for (std::int64_t y = 0; y < e[1]; ++y) {
      const std::int64_t sz = map_z[static_cast<std::size_t>(z)], sy = map_y[static_cast<std::size_t>(y)];
      float* o = out + static_cast<std::size_t>((z * e[1] + y) * e[0] * C);
      if (sz < 0 || sy < 0) {
        std::fill(o, o + e[0] * C, cval);
        continue;
      }
      core::read_row(src, 0, sy, sz, src.width(), row.data(), scratch.data());
      for (std::int64_t x = 0; x < e[0]; ++x) {
        const std::int64_t sx = map_x[static_cast<std::size_t>(x)];
        for (int c = 0; c < C; ++c) o[x * C + c] = sx < 0 ? cval : row[static_cast<std::size_t>(sx * C + c)];
      }
    }
}

void put(const float* in, const Piece& p, const View& dst) {
  const auto e = p.extent();
  const int C = dst.channels;
  const std::int64_t w = p.hi[0] - p.lo[0];
  std::vector<std::byte> scratch(static_cast<std::size_t>(w * C) * 8);
  View part = dst;
  part.extent[0] = w;
  part.data = dst.pixel(p.lo[0], 0, 0);
  for (std::int64_t z = p.lo[2]; z < p.hi[2]; ++z)
    for (std::int64_t y = p.lo[1]; y < p.hi[1]; ++y) {
      const float* row = in + static_cast<std::size_t>(((z - p.lo[2] + p.halo[2]) * e[1] + (y - p.lo[1] + p.halo[1])) * e[0] * C +
                                                       p.halo[0] * C);
      core::write_row(row, part, 0, y, z, w, scratch.data());
    }
}

}  // namespace fastblur::tiling
