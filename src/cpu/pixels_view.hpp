#pragma once
// A view whose x rows are a few values (an (h, w, 3) array's channel axis as x) seen as the 2D
// image its first two axes make: each x row one pixel of x x channels values, y and z the image's
// x and y (Schedule::pixels_image, fir's short x rows fused).
#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// Whether each x row's values lie packed (x's stride one pixel of the view), so that it is one pixel.
bool pixels_packed(const View& v);

/// The view as that image (pixels_packed views only).
View pixels_of(const View& v);

}  // namespace fastblur::cpu
