#pragma once
#include <cstdint>

#include "fastblur/blur.hpp"
#include "fastblur/kernel_dual_kawase.hpp"

namespace fastblur::cpu {

/// The schedule a spec runs (kernel::dual_kawase_schedule of its sigma, dual_kawase_levels and
/// dual_kawase_offset). Throws InvalidArgument unless the image is 2D (checked by the caller), sigma
/// along z is 0, and sigma along x and y are both >= kernel::kDualKawaseMinSigma.
kernel::DualKawaseSchedule dual_kawase_schedule_for(const BlurSpec& spec);

/// How one axis of n pixels is padded for the chain: the image starts at `before` in a padded line
/// of `size` texels, both multiples of 2^levels (so the coarsest texels tile the image from its
/// first pixel). The padding holds the whole footprint of every output pixel, and every texel any
/// pass reads for the output lies inside the padded line at every level: the clamping of a GPU's
/// fetches at the buffer's edge never reaches the output.
struct DualKawasePadding {
  std::int64_t before = 0, size = 0;
};
DualKawasePadding dual_kawase_padding(std::int64_t n, int levels, double offset);

/// The `dual-kawase` algorithm (Bjorge, SIGGRAPH 2015; taps in kernel_dual_kawase.hpp). The image
/// is extended by the border modes (scipy semantics, per axis; constant uses cval) to the padded
/// size of dual_kawase_padding, the chain runs on it and the image's pixels are cropped out.
/// Not shift-invariant: the result depends on the image's position relative to the blocks of
/// 2^levels pixels, which start at pixel 0. Each pass is computed as the sum of the separable
/// products of its taps (exactly the 2D bilinear taps), threads over rows, in float (double for
/// f64). Memory: about 4/3 of the padded image (the footprint grows like 2^levels (2.5 offset + 3)
/// pixels per side, about 5 sigma).
/// Accuracy (DESIGN.md metrics):
///  - analysis::measure_impulse (its impulse at the centre of its image: one phase), asserted by
///    tests/cpu/dual_kawase_test.cpp at sigma 1, 2, 5, 10, 20, 50: max error <= 0.34, 0.29, 0.105,
///    0.085, 0.08, 0.10; 2D max error <= 0.52, 0.63, 0.37, 0.30, 0.27, 0.34; effective sigma within
///    0.1%, 0.1%, 1%, 1.2%, 1.2%, 0.5%.
///  - worst over the phases: the 1D max error of kernel::dual_kawase_levels_for (<= 0.334 below
///    sigma 3.5, 0.154 from 5, 0.124 from 20); the 2D max error (sampled phases, sigma 1 to 64) up to
///    0.79 below sigma 3.5, 0.37 from 3.5 to 5, 0.63 from 5 to 20, 0.46 from 20: the 2D response's
///    peak is flatter than the Gaussian's (0.4 to 0.75 of it) although its marginals are close to
///    Gaussian; effective sigma per phase within 6% below sigma 3.5, 4% to 5, 2.5% from 5, and
///    exactly sigma on average over the phases.
void dual_kawase_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
