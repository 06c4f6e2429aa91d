#include "dlpack_arrays.hpp"

#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "fastblur/error.hpp"

namespace py = pybind11;

namespace fastblur::python {
namespace {

constexpr int kDLBoolCode = 6;  // DLPack 0.8's kDLBool (Debian's header is 0.6); PyTorch sends it for bool

// NumPy's type string for a DLPack type, or throws naming it.
std::string typestr_of(const DLDataType& t) {
  if (t.lanes != 1) throw InvalidArgument("DLPack arrays of vector elements (" + std::to_string(t.lanes) + " lanes) are not supported");
  const int bytes = t.bits / 8;
  const auto sized = [&](char kind, std::initializer_list<int> sizes) {
    for (int s : sizes)
      if (bytes == s && t.bits % 8 == 0) return std::string("=") + kind + std::to_string(bytes);
    throw InvalidArgument("DLPack arrays of " + std::to_string(t.bits) + "-bit elements of type code " +
                          std::to_string(t.code) + " are not supported");
  };
  switch (t.code) {
    case kDLInt: return sized('i', {1, 2, 4, 8});
    case kDLUInt: return sized('u', {1, 2, 4, 8});
    case kDLFloat: return sized('f', {2, 4, 8});
    case kDLComplex: return sized('c', {8, 16});
    case kDLBoolCode: return sized('b', {1});
    case kDLBfloat: throw InvalidArgument("bfloat16 arrays are not supported: convert them to float32 first");
    default: throw InvalidArgument("DLPack arrays of type code " + std::to_string(t.code) + " are not supported");
  }
}

const char* device_name(int type) {
  switch (type) {
    case kDLOpenCL: return "OpenCL";
    case kDLVulkan: return "Vulkan";
    case kDLMetal: return "Metal";
    case kDLROCM: return "ROCm";
    case kDLROCMHost: return "ROCm host";
    default: return "another device";
  }
}

}  // namespace

py::tuple import_dlpack(const py::capsule& capsule) {
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor"))
    throw InvalidArgument("not an unused DLPack capsule (named 'dltensor'): was it consumed already?");
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  // Ours from here: the capsule must no longer release it, and the consumer calls the deleter.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  py::capsule owner(managed, [](void* p) {
    auto* m = static_cast<DLManagedTensor*>(p);
    if (m->deleter) m->deleter(m);
  });
  const DLTensor& t = managed->dl_tensor;
  const int type = static_cast<int>(t.device.device_type);
  const std::string typestr = typestr_of(t.dtype);
  const py::ssize_t item = t.dtype.bits / 8;
  std::vector<py::ssize_t> shape(t.shape, t.shape + t.ndim), strides(static_cast<std::size_t>(t.ndim));
  for (int d = t.ndim - 1; d >= 0; --d) {
    const auto i = static_cast<std::size_t>(d);
    if (t.strides) strides[i] = static_cast<py::ssize_t>(t.strides[d]) * item;
    else strides[i] = d == t.ndim - 1 ? item : strides[i + 1] * shape[i + 1];
  }
  auto* data = static_cast<char*>(t.data) + t.byte_offset;
  if (type == kDLCPU || type == kDLCUDAHost) {
    py::array array(py::dtype::from_args(py::str(typestr)), shape, strides, data, owner);
    return py::make_tuple(type, t.device.device_id, array);
  }
  if (type == kDLCUDA || type == kDLCUDAManaged) {
    py::dict d;
    d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data), false);
    d["shape"] = py::tuple(py::cast(shape));
    d["strides"] = py::tuple(py::cast(strides));
    d["typestr"] = typestr;
    d["owner"] = owner;
    return py::make_tuple(type, t.device.device_id, d);
  }
  throw InvalidArgument(std::string("fastblur takes DLPack arrays in CPU or CUDA memory, not on ") + device_name(type) +
                        " (DLPack device type " + std::to_string(type) + ")");
}

CudaArray cuda_array_of(const py::dict& interface) {
  try {
    CudaArray a;
    a.data = py::cast<py::tuple>(interface["data"])[0].cast<std::uint64_t>();
    const auto shape = interface["shape"].cast<std::vector<std::int64_t>>();
    const py::dtype dtype = py::dtype::from_args(interface["typestr"]);
    a.shape.type = element_type_of(dtype);
    a.shape.extents = shape;
    const py::object strides = interface.contains("strides") ? py::object(interface["strides"]) : py::object(py::none());
    if (!strides.is_none()) {
      a.shape.byte_strides = strides.cast<std::vector<std::ptrdiff_t>>();
    } else {
      a.shape.byte_strides.resize(shape.size());
      std::ptrdiff_t step = dtype.itemsize();
      for (std::size_t d = shape.size(); d-- > 0;) a.shape.byte_strides[d] = step, step *= shape[d];
    }
    if (a.shape.byte_strides.size() != shape.size()) throw InvalidArgument("its strides and shape differ in length");
    return a;
  } catch (const py::cast_error& e) {
    throw InvalidArgument(std::string("a malformed __cuda_array_interface__: ") + e.what());
  } catch (const py::error_already_set& e) {
    throw InvalidArgument(std::string("a malformed __cuda_array_interface__: ") + e.what());
  }
}

}  // namespace fastblur::python
