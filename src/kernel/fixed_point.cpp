#include "kernel/fixed_point.hpp"

#include <cmath>

namespace fastblur::kernel {

std::optional<std::vector<std::int16_t>> fixed_point_half(const std::vector<double>& w) {
  if (w.size() % 2 == 0) return std::nullopt;
  const int radius = static_cast<int>(w.size() / 2);
  if (radius < 1 || radius > kFixedMaxRadius) return std::nullopt;
  double sum = 0.0;
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (!(w[k] >= 0.0) || w[k] != w[w.size() - 1 - k]) return std::nullopt;
    sum += w[k];
  }
  if (std::abs(sum - 1.0) > 1e-9) return std::nullopt;
  std::vector<std::int16_t> h(static_cast<std::size_t>(radius) + 1);
  long sides = 0;
  for (int k = 1; k <= radius; ++k) {
    const long q = std::lround(w[static_cast<std::size_t>(radius + k)] * 32768.0);
    if (q > 16384) return std::nullopt;
    h[static_cast<std::size_t>(k)] = static_cast<std::int16_t>(q);
    sides += 2 * q;
  }
  const long centre = 32768 - sides;
  if (centre < 0 || centre > 32767) return std::nullopt;
  h[0] = static_cast<std::int16_t>(centre);
  return h;
}

}  // namespace fastblur::kernel
