#pragma once
// A volume whose x rows are a few values filtered last by SciPy's order (an (h, w, 3) array under
// one sigma) as the 2D image SciPy's first two axes see: x's values become each pixel's channels,
// y and z the image's x and y (Schedule::pixels_image).
#include <optional>

#include "algorithms/descriptor.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::planner {

/// The request and shape of z and y's blur as an image of x's pixels.
struct PixelsImage {
  BlurSpec spec;
  algo::Shape shape;
};

/// Where `plan` (scheduled for `shape`) runs z and y as an image of x's pixels: a CPU scipy-order
/// plan with x rows of 2-4 values across rows, x last in its axis order and y or z filtered.
std::optional<PixelsImage> pixels_image(const Plan& plan, const algo::Shape& shape);

}  // namespace fastblur::planner
