#pragma once
// What convolution with a symmetric kernel does to each frequency of a periodic signal. Every
// border mode but nearest and constant extends a line periodically (wrap: period n, reflect: 2n,
// mirror: 2n-2), and on a circle convolution is a product with the DFT of the kernel folded onto
// that circle - whatever the radius, even one beyond the line.
#include <cstdint>
#include <vector>

namespace fastblur::cpu {

/// The kernel w_j = half[|j|], j = -r..r (r = half.size() - 1), folded onto a circle of `period`
/// points: folded[m] = sum of w_j over all j = m (mod period), m = 0..period-1.
std::vector<double> fold_symmetric_kernel(const std::vector<double>& half, std::int64_t period);

/// lambda_k = sum_{j=-r..r} w_j cos(2 pi k j / period) for k = 0..period/2: the DFT of the folded
/// kernel, which is real because the kernel is even. Computed in O(r + period log period).
std::vector<double> symmetric_kernel_spectrum(const std::vector<double>& half, std::int64_t period);

}  // namespace fastblur::cpu
