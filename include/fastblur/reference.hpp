#pragma once
/// @file
/// Double-precision references that every algorithm is tested against. Simple and slow on purpose.
#include "fastblur/blur.hpp"
#include "fastblur/view.hpp"

namespace fastblur::reference {

/// Separable convolution in double: each axis in turn, the intermediate kept in double, one
/// rounding at the end. Honours every field of BlurSpec but `algorithm` and `threads`.
void separable_blur(const View& src, const View& dst, const BlurSpec& spec);

/// Direct (non-separable) convolution in double with the outer product of the 1D kernels: one sum
/// over the whole (2r+1)^d neighbourhood per pixel. For small images in tests only.
void naive_blur(const View& src, const View& dst, const BlurSpec& spec);

}  // namespace fastblur::reference
