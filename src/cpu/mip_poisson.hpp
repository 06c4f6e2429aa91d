#pragma once
#include "fastblur/blur.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::cpu {

/// The schedule a spec runs (kernel::mip_poisson_schedule of its sigma and mip_poisson_samples).
/// Throws InvalidArgument unless sigma along z is 0 and sigma along x and y are both > 0.
kernel::MipPoissonSchedule mip_poisson_schedule_for(const BlurSpec& spec);

/// How one axis of n pixels is padded: the image starts at `before` in a padded line of `size`
/// pixels, both multiples of 2^max_level (the mip texels tile the image from its first pixel), far
/// enough that no fetch of the schedule reaches past the padding (so no clamping reaches the output).
struct MipPoissonPadding {
  std::int64_t before = 0, size = 0;
};
MipPoissonPadding mip_poisson_padding(std::int64_t n, const kernel::MipPoissonSchedule& schedule);

/// The `mip-poisson` algorithm (seed 003; the sampling in kernel_mip_poisson.hpp): the image is
/// extended by its border modes (scipy semantics; constant uses cval) far enough that no sample
/// reaches past the padding, its 2x2 box mip chain is built, and each pixel averages trilinear
/// fetches of the rotated, scaled sample set (its rotation: interleaved gradient noise of the
/// pixel's coordinates and spec.mip_poisson_frame). Float (double for f64), threads over rows.
/// Not shift-invariant: the rotation belongs to the pixel and the mip texels to blocks of 2^l
/// pixels from the padded origin. A noisy approximation for real-time use.
/// Accuracy at the default 32 samples (DESIGN.md metrics of analysis::measure_impulse: one frame,
/// one impulse), measured at sigma 1, 2, 5, 10, 20, 50 and asserted with a margin by
/// tests/cpu/mip_poisson_test.cpp:
///  - max error of the 1D response (the marginal) 0.025, 0.107, 0.122, 0.089, 0.081, 0.083;
///    L1 0.036 to 0.106; effective sigma within 0.8% (the variance is exact on average over
///    rotations and phases);
///  - 2D max error 0.044, 0.17, 0.57, 0.41, 0.37, 0.46: the rotation noise, which accumulating 16
///    frames (mip_poisson_frame 0..15) brings to 0.32 at sigma 5 and 0.26 at sigma 20;
///  - PSNR on the bundled scene 38 to 49 dB.
void mip_poisson_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::cpu
