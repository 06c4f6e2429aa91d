#pragma once
// NumPy arrays as fastblur views: up to three filtered axes become x, y, z; a small contiguous
// unfiltered axis becomes the channels; every other axis is looped over (a batch of blurs).
#include <pybind11/numpy.h>

#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/device.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::python {

/// One filtered array axis and its parameters.
struct AxisRequest {
  int axis = 0;
  double sigma = 0.0;
  Border border = Border::reflect;
  int radius = -1;  ///< -1: from truncate
  int order = 0;
  std::vector<double> weights{};  ///< SciPy's correlation weights (BlurSpec::weights), or empty
};

/// The library's element type for a NumPy dtype, or throws pybind11::type_error.
ElementType element_type_of(const pybind11::dtype& dtype);

/// Blurs `src` into `dst` (same shape; library element types) along the requested axes (1 to 3,
/// distinct), with `base` giving everything else (algorithm, options, cval, truncate, threads).
/// Runs on `device`. Releases the GIL while computing. With Rounding::scipy the axes are filtered in
/// the order of `axes`.
void blur_arrays(const pybind11::array& src, pybind11::array& dst, const std::vector<AxisRequest>& axes,
                 const BlurSpec& base, const Device& device);
/// The plan that blur_arrays runs for each blur of the batch (one plan serves them all): the same
/// layout, planned for `device` and not run. Only shapes, strides and types of the arrays are read.
Plan plan_arrays(const pybind11::array& src, const pybind11::array& dst, const std::vector<AxisRequest>& axes,
                 const BlurSpec& base, const Device& device);

}  // namespace fastblur::python
