#include "algorithms/folded_kernel.hpp"

#include <algorithm>
#include <cmath>

namespace fastblur::algo {

int folded_radius(std::int64_t n) { return static_cast<int>(std::clamp<std::int64_t>(n, 0, kMaxRadius)); }

std::optional<FoldedKernel> fold_gaussian(double sigma, int radius, std::int64_t n, Border border) {
  const int R = folded_radius(n);
  if (radius <= R || n < 1) return std::nullopt;
  FoldedKernel f;
  f.radius = R;
  f.weights.assign(2 * static_cast<std::size_t>(R) + 1, 0.0);
  const std::int64_t period = border == Border::wrap ? n : border == Border::reflect ? 2 * n
                              : border == Border::mirror ? std::max<std::int64_t>(1, 2 * n - 2) : 0;
  // Where tap k lands: the offset j nearest 0 that reads the same sample from every output. A
  // periodic tap at exactly half an even period is shared by +j and -j (both read the same
  // sample), half each, so the kernel stays symmetric.
  const std::int64_t edge = border == Border::nearest ? std::max<std::int64_t>(0, n - 1) : n;
  const auto add = [&](std::int64_t k, double w) {
    if (period == 0) {  // nearest, constant: every tap past the edge reads what the outermost reads
      const std::int64_t j = std::clamp<std::int64_t>(k, -edge, edge);
      f.weights[static_cast<std::size_t>(j + R)] += w;
      return;
    }
    std::int64_t j = ((k % period) + period) % period;
    if (2 * j > period) j -= period;
    if (period % 2 == 0 && 2 * j == period) {
      f.weights[static_cast<std::size_t>(R + j)] += 0.5 * w;
      f.weights[static_cast<std::size_t>(R - j)] += 0.5 * w;
    } else {
      f.weights[static_cast<std::size_t>(j + R)] += w;
    }
  };
  const double a = -0.5 / (sigma * sigma);
  double sum = 0.0, moment = 0.0;
  for (std::int64_t k = 0; k <= radius; ++k) {
    const double w = std::exp(a * static_cast<double>(k) * static_cast<double>(k));
    if (w == 0.0) break;  // and every tap further out
    add(k, w);
    if (k > 0) add(-k, w);
    sum += k > 0 ? 2 * w : w;
    moment += 2 * w * static_cast<double>(k) * static_cast<double>(k);
  }
  for (double& w : f.weights) w /= sum;
  f.achieved_sigma = std::sqrt(moment / sum);
  return f;
}

}  // namespace fastblur::algo
