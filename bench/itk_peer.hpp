// ITK's SmoothingRecursiveGaussianImageFilter (Deriche-style 4th-order recursive Gaussian) on a
// float volume, the peer issue 6 names for the 3D rows. Kept in its own translation unit so the
// benchmark compiles ITK's headers once and builds without ITK when it is not installed.
#pragma once

#include <cstdint>

namespace fastblur_bench {

// Blurs the packed w x h x d float volume `in` into `out` with sigma in voxels along every axis,
// on `threads` threads. ITK extends the volume by its edge values (fastblur's Border::nearest).
void itk_recursive_gaussian(const float* in, float* out, std::int64_t w, std::int64_t h, std::int64_t d,
                            double sigma, int threads);

}  // namespace fastblur_bench
