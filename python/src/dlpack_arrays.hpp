#pragma once
// Arrays of other libraries (PyTorch, CuPy, JAX, ...) through DLPack and CUDA's array interface:
// CPU memory becomes a NumPy array over the same bytes, CUDA memory a CudaArray (issue 30).
#include <pybind11/pybind11.h>

#include "array_views.hpp"

namespace fastblur::python {

/// Takes an unused DLPack capsule ("dltensor", what `x.__dlpack__()` returns) and returns
/// (device_type, device_id, payload): for CPU memory (kDLCPU, kDLCUDAHost) a writable NumPy array
/// over the tensor's bytes, which releases the tensor when it dies; for CUDA memory (kDLCUDA,
/// kDLCUDAManaged) a dict in the form of __cuda_array_interface__ (data, shape, strides in bytes,
/// typestr) with an "owner" that releases the tensor when it dies. Throws ValueError for other
/// devices, vector lanes and types NumPy lacks (bfloat16), naming what is there.
pybind11::tuple import_dlpack(const pybind11::capsule& capsule);

/// A CudaArray from a __cuda_array_interface__ dict (data, shape, typestr, strides or None for
/// C order); throws ValueError for a malformed one.
CudaArray cuda_array_of(const pybind11::dict& interface);

}  // namespace fastblur::python
