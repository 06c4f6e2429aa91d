#pragma once
// NumPy arrays as fastblur views: up to three filtered axes become x, y, z; a small contiguous
// unfiltered axis becomes the channels; every other axis is looped over (a batch of blurs).
#include <pybind11/numpy.h>

#include <array>
#include <memory>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/cuda.hpp"
#include "fastblur/derivative_sum.hpp"
#include "fastblur/missing_data.hpp"
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

/// What the layout of a call reads of an array: its extents, byte strides and element type (a
/// NumPy array's, or a CUDA array's from its interface).
struct ArrayShape {
  std::vector<std::int64_t> extents;
  std::vector<std::ptrdiff_t> byte_strides;
  ElementType type = ElementType::f32;

  static ArrayShape of(const pybind11::array& a);
  int ndim() const noexcept { return static_cast<int>(extents.size()); }
  std::int64_t shape(int d) const { return extents[static_cast<std::size_t>(d)]; }
  std::ptrdiff_t strides(int d) const { return byte_strides[static_cast<std::size_t>(d)]; }
};

/// Blurs `src` into `dst` (same shape; library element types) along the requested axes (1 to 3,
/// distinct), with `base` giving everything else (algorithm, options, cval, truncate, threads).
/// Runs on `device`. Releases the GIL while computing. With Rounding::scipy the axes are filtered in
/// the order of `axes`.
void blur_arrays(const pybind11::array& src, pybind11::array& dst, const std::vector<AxisRequest>& axes,
                 const BlurSpec& base, const Device& device);
/// blur_arrays for data with holes (fastblur::blur with MissingData): `mask` None or an array of the
/// data's shape (bool/uint8 flags or float weights), laid out as the output is.
void blur_missing_arrays(const pybind11::array& src, pybind11::array& dst, const pybind11::object& mask,
                         const MissingData& missing, const std::vector<AxisRequest>& axes, const BlurSpec& base,
                         const Device& device);
/// fastblur::derivative_sum on arrays: terms[i] the requests of the i-th derivative's blur (the
/// same axes in each, laid out as blur_arrays lays them out), each blur of the batch on the CPU.
void derivative_sum_arrays(const pybind11::array& src, pybind11::array& dst, DerivativeSum kind,
                           const std::vector<std::vector<AxisRequest>>& terms, const BlurSpec& base);
/// An array in CUDA device memory, as its interface describes it (pointer, extents, byte strides).
struct CudaArray {
  std::uint64_t data = 0;
  ArrayShape shape;
};

/// blur_arrays for CUDA arrays on CUDA device `ordinal`, laid out and planned once for arrays of
/// these shapes, strides and types: run() blurs the arrays at two pointers (fastblur::cuda::blur
/// for each blur of the batch, its copies on `stream`) with nothing to parse, lay out or plan, so
/// Python repeats a call through it (fastblur/_foreign_arrays.py). Adjacent unfiltered axes that are
/// one axis in memory are merged first, so that an (N, C, H, W) batch is one blur of N C planes.
class PreparedCudaCall {
 public:
  PreparedCudaCall(const CudaArray& src, const CudaArray& dst, const std::vector<AxisRequest>& axes, const BlurSpec& base,
                   int ordinal);
  ~PreparedCudaCall();
  PreparedCudaCall(PreparedCudaCall&&) noexcept;
  void run(std::uint64_t src, std::uint64_t dst, std::uintptr_t stream) const;
  const Plan& plan() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The plan PreparedCudaCall runs for each blur of the batch.
Plan plan_cuda_arrays(const CudaArray& src, const CudaArray& dst, const std::vector<AxisRequest>& axes,
                      const BlurSpec& base, int ordinal);

/// Data with holes in CUDA arrays, laid out as PreparedCudaCall lays them out: fastblur::cuda::blur
/// with `missing` and the `mask` (null: none; the data's shape, laid out as the output is) for each
/// blur of the batch, its copies on `stream`; its plan (the pairs' blur).
void blur_cuda_missing(const CudaArray& src, const CudaArray& dst, const CudaArray* mask, const std::vector<AxisRequest>& axes,
                       const BlurSpec& base, const MissingData& missing, int ordinal, std::uintptr_t stream);
Plan plan_cuda_missing(const CudaArray& src, const CudaArray& dst, const CudaArray* mask, const std::vector<AxisRequest>& axes,
                       const BlurSpec& base, const MissingData& missing, int ordinal);

/// A batch with a sigma per sample: axis 0 of the arrays indexes the samples, and sample i is
/// blurred along two axes with samples[i]'s requests (the same two axes for every sample; the
/// other axes are channels or slices of their own). One core call: fastblur::blur_slices on the
/// arrays' stack of slices, sample i's slices with sample i's spec. Each sample's result is that of
/// blur_arrays on the sample alone. Throws InvalidArgument where the arrays' axes other than the two
/// blurred ones and the channels cannot be one axis of slices (the caller copies them then).
using SampleRequests = std::array<AxisRequest, 2>;
void blur_sample_arrays(const pybind11::array& src, pybind11::array& dst, const std::vector<SampleRequests>& samples,
                        const BlurSpec& base, const Device& device);
/// The same for CUDA arrays: one copy in, one Vulkan submission, one copy out (cuda::blur_slices).
void blur_cuda_sample_arrays(const CudaArray& src, const CudaArray& dst, const std::vector<SampleRequests>& samples,
                             const BlurSpec& base, int ordinal, std::uintptr_t stream);

/// The plan that blur_arrays runs for each blur of the batch (one plan serves them all): the same
/// layout, planned for `device` and not run. Only shapes, strides and types of the arrays are read.
Plan plan_arrays(const pybind11::array& src, const pybind11::array& dst, const std::vector<AxisRequest>& axes,
                 const BlurSpec& base, const Device& device);

}  // namespace fastblur::python
