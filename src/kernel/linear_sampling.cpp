// Seed 003 appendix A and seed 002: two taps -> one bilinear fetch, w = w1 + w2,
// o = (o1 w1 + o2 w2) / w. Exact when both weights share a sign (o then lies between o1 and o2).
#include <cmath>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {

namespace {
bool same_sign(double a, double b) { return (a >= 0.0 && b >= 0.0) || (a <= 0.0 && b <= 0.0); }

void emit_pair(std::vector<LinearTap>& out, double o1, double w1, double o2, double w2) {
  const double w = w1 + w2;
  if (same_sign(w1, w2) && w != 0.0) {
    out.push_back({(o1 * w1 + o2 * w2) / w, w});
  } else {
    if (w1 != 0.0) out.push_back({o1, w1});
    if (w2 != 0.0) out.push_back({o2, w2});
  }
}
}  // namespace

std::vector<LinearTap> linear_sampling_1d(const std::vector<double>& weights, int first_offset) {
  std::vector<LinearTap> out;
  const std::size_t n = weights.size();
  for (std::size_t i = 0; i < n; i += 2) {
    const double o1 = first_offset + static_cast<double>(i);
    if (i + 1 < n) emit_pair(out, o1, weights[i], o1 + 1.0, weights[i + 1]);
    else if (weights[i] != 0.0) out.push_back({o1, weights[i]});
  }
  return out;
}

std::vector<LinearTap> linear_sampling_centred(const std::vector<double>& w) {
  const int radius = static_cast<int>(w.size() / 2);
  bool symmetric = w.size() % 2 == 1;
  for (std::size_t k = 0; symmetric && k < w.size(); ++k) symmetric = w[k] == w[w.size() - 1 - k];
  if (!symmetric) return linear_sampling_1d(w, -radius);
  const auto at = [&](int x) { return w[static_cast<std::size_t>(x + radius)]; };
  std::vector<LinearTap> right;  // x > 0, pairs (1,2), (3,4), ...
  for (int x = 1; x <= radius; x += 2) {
    if (x + 1 <= radius) emit_pair(right, x, at(x), x + 1.0, at(x + 1));
    else right.push_back({static_cast<double>(x), at(x)});
  }
  std::vector<LinearTap> out;
  out.reserve(2 * right.size() + 1);
  for (auto it = right.rbegin(); it != right.rend(); ++it) out.push_back({-it->offset, it->weight});
  out.push_back({0.0, at(0)});
  out.insert(out.end(), right.begin(), right.end());
  return out;
}

std::vector<LinearTap> linear_sampling_gaussian(double sigma, int radius) {
  return linear_sampling_centred(gaussian_weights(sigma, radius));
}

std::vector<LinearTap2D> linear_sampling_2d(const std::vector<double>& weights, int cols, int rows,
                                            int first_x, int first_y) {
  if (cols < 1 || rows < 1 || weights.size() != static_cast<std::size_t>(cols) * rows)
    throw InvalidArgument("linear_sampling_2d: weights must hold cols*rows = " +
                          std::to_string(static_cast<long long>(cols) * rows) + " values");
  const auto at = [&](int x, int y) { return weights[static_cast<std::size_t>(y) * cols + x]; };
  std::vector<LinearTap2D> out;
  // Pairs one row of (up to) two taps; used for the quads that cannot be one fetch.
  const auto emit_row = [&](int x, int y, int nx) {
    std::vector<LinearTap> row;
    if (nx == 2) emit_pair(row, first_x + x, at(x, y), first_x + x + 1.0, at(x + 1, y));
    else if (at(x, y) != 0.0) row.push_back({static_cast<double>(first_x + x), at(x, y)});
    for (const auto& t : row) out.push_back({t.offset, static_cast<double>(first_y + y), t.weight});
  };
  for (int y = 0; y < rows; y += 2) {
    const int ny = y + 1 < rows ? 2 : 1;
    for (int x = 0; x < cols; x += 2) {
      const int nx = x + 1 < cols ? 2 : 1;
      const double w00 = at(x, y), w01 = nx == 2 ? at(x + 1, y) : 0.0;
      const double w10 = ny == 2 ? at(x, y + 1) : 0.0;
      const double w11 = (nx == 2 && ny == 2) ? at(x + 1, y + 1) : 0.0;
      const double sum = w00 + w01 + w10 + w11;
      const double scale = std::abs(w00) + std::abs(w01) + std::abs(w10) + std::abs(w11);
      const bool one_sign = (w00 >= 0 && w01 >= 0 && w10 >= 0 && w11 >= 0) ||
                            (w00 <= 0 && w01 <= 0 && w10 <= 0 && w11 <= 0);
      const bool rank1 = std::abs(w00 * w11 - w01 * w10) <= 1e-14 * scale * scale;
      if (scale == 0.0) continue;
      if (one_sign && rank1) {
        // Bilinear weights (1-fx)(1-fy), fx(1-fy), (1-fx)fy, fx fy reproduce a rank-1 quad.
        const double fx = (w01 + w11) / sum, fy = (w10 + w11) / sum;
        out.push_back({first_x + x + fx, first_y + y + fy, sum});
      } else {
        emit_row(x, y, nx);
        if (ny == 2) emit_row(x, y + 1, nx);
      }
    }
  }
  return out;
}

}  // namespace fastblur::kernel
