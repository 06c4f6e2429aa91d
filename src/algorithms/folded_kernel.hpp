#pragma once
// A Gaussian kernel whose radius reaches beyond its axis, folded onto what the border mode reads:
// taps that read the same sample under the border's extension (a period apart for wrap, reflect and
// mirror; beyond the edge for nearest and constant) are added into one. The same result, exactly (up
// to the rounding of the sums), at a radius bounded by the axis: `blur -s 2 --radius 8388608` of a
// 16x16 array took 2.4 s and 600 MB for a 33-tap result (issue 44).
#include <cstdint>
#include <optional>
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur::algo {

/// The radius a kernel is folded to on an axis of n samples: n, whatever the border. Every tap
/// needs at most that (half the period for wrap, reflect and mirror; n - 1 for nearest, n for
/// constant; the rest are zeros), and a support of the whole axis keeps pieces exact: a tile, band
/// or chunk with its halo is then the whole axis, whose plan folds the same way.
int folded_radius(std::int64_t n);

struct FoldedKernel {
  int radius = 0;               ///< folded_radius(n)
  std::vector<double> weights;  ///< 2 radius + 1, symmetric
  double achieved_sigma = 0.0;  ///< of the kernel before folding (its variance, not the fold's)
};

/// The sampled Gaussian of `sigma` truncated at `radius`, normalised, folded for an axis of n
/// samples under `border`; nothing where radius <= folded_radius(n). Taps beyond where
/// exp underflows to 0 are not visited: time and memory are bounded by sigma and n, not radius.
std::optional<FoldedKernel> fold_gaussian(double sigma, int radius, std::int64_t n, Border border);

}  // namespace fastblur::algo
