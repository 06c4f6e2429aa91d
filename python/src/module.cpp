// The `fastblur._core` extension: array blurs, the planner, the metrics and the kernel helpers.
// The SciPy-compatible argument handling lives in Python (fastblur/__init__.py).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>

#include "array_views.hpp"
#include "dlpack_arrays.hpp"
#include "kept_outputs.hpp"
#include "fastblur/cuda.hpp"
#include "fastblur/derivative_sum.hpp"
#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "fastblur/fastblur.hpp"
#include "fastblur/kernel_sliding_dct.hpp"
#include "fastblur/plan.hpp"

namespace py = pybind11;
using namespace fastblur;

namespace {

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A Python value for a registry parameter, as its kind expects it.
ParameterValue to_value(const ParameterInfo& p, const py::handle& value) {
  const std::string key(p.key);
  try {
    switch (p.kind) {
      case ParameterInfo::Kind::integer:
        if (py::isinstance<py::bool_>(value)) break;
        if (py::isinstance<py::int_>(value)) return value.cast<std::int64_t>();
        return value.cast<double>();  // a whole real is accepted, as SciPy accepts 3.0 for an int
      case ParameterInfo::Kind::real: return value.cast<double>();
      case ParameterInfo::Kind::flag: return value.cast<bool>();
      case ParameterInfo::Kind::choice: return value.cast<std::string>();
      case ParameterInfo::Kind::real_list: return value.cast<std::vector<double>>();
    }
  } catch (const py::cast_error&) {
  }
  throw InvalidArgument(key + " must be " + p.range_text() + ", not " + std::string(py::str(py::repr(value))));
}

// Options beyond the SciPy signature: the registry's parameters by key (set_parameter checks them).
void apply_options(BlurSpec& spec, const py::dict& options) {
  const std::vector<ParameterInfo> known = all_parameters();
  for (const auto& [key_obj, value] : options) {
    const std::string key = py::str(key_obj);
    const ParameterInfo* info = nullptr;
    for (const ParameterInfo& p : known)
      if (p.key == key) info = &p;
    if (!info) {
      std::string names;
      for (const ParameterInfo& p : known) names += (names.empty() ? "" : ", ") + std::string(p.key);
      throw InvalidArgument("unknown option '" + key + "': expected one of " + names);
    }
    set_parameter(spec, key, to_value(*info, value));
  }
  check_options_apply(spec);  // the core's rule: another algorithm's option is refused, not ignored
}

BlurSpec base_spec(const std::string& algorithm, double tolerance, double cval, double truncate, int threads,
                   const py::dict& options, const std::string& rounding = "nearest") {
  BlurSpec spec;
  spec.rounding = parse_rounding(rounding);
  spec.algorithm = parse_algorithm(algorithm);
  spec.tolerance = tolerance;
  spec.cval = cval;
  spec.truncate = truncate;
  spec.threads = threads;
  apply_options(spec, options);
  return spec;
}

// The core's JSON (serialize.hpp) as Python data: one serialiser for every front end.
py::object from_json(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

template <class T>
py::array_t<double> to_array(const std::vector<T>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = static_cast<double>(v[i]);
  return a;
}

// The arrays' axes to filter, in the caller's order, each with its parameters and SciPy's weights.
std::vector<python::AxisRequest> axis_requests(const std::vector<int>& axes, const std::vector<double>& sigmas,
                                                   const std::vector<std::string>& modes, const std::vector<double>& radii,
                                                   const std::vector<int>& orders,
                                                   const std::vector<std::vector<double>>& weights) {
  std::vector<python::AxisRequest> req;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    // Radii travel as doubles: a Python int of any size arrives (exactly up to 2^53).
    const double r = radii.at(i);
    try {
      check_radius(r, OptionNames::python());  // the core's rule (validate.hpp)
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(std::string(e.what()) + " (axis " + std::to_string(axes[i]) + ", sigma " +
                            format_number(sigmas.at(i)) + ")");
    }
    req.push_back({axes[i], sigmas.at(i), parse_border(modes.at(i)), static_cast<int>(r), orders.at(i),
                   i < weights.size() ? weights[i] : std::vector<double>{}});
  }
  return req;
}

// A batch with a sigma per sample (fastblur.gaussian_filter_batch): axis 0 the samples', the two
// `axes` blurred, sample i with sigmas[i], radii[i] and weights[i] (one entry per axis).
std::vector<python::SampleRequests> sample_requests(const std::vector<int>& axes, const std::vector<std::vector<double>>& sigmas,
                                        const std::vector<std::string>& modes, const std::vector<std::vector<double>>& radii,
                                        const std::vector<int>& orders,
                                        const std::vector<std::vector<std::vector<double>>>& weights) {
  if (axes.size() != 2) throw InvalidArgument("a batch blurs two axes");
  std::vector<python::SampleRequests> samples;
  samples.reserve(sigmas.size());
  for (std::size_t i = 0; i < sigmas.size(); ++i) {
    const auto r = axis_requests(axes, sigmas[i], modes, radii.at(i), orders, i < weights.size() ? weights[i] : std::vector<std::vector<double>>{});
    samples.push_back({r.at(0), r.at(1)});
  }
  return samples;
}

// Data with holes in CUDA arrays (NaN omitted): each blur of the call on `stream` (cuda.hpp).
MissingData cuda_missing(bool omit_nan, bool preserve_nan) {
  MissingData m;
  m.omit_nan = omit_nan;
  m.preserve_nan = preserve_nan;
  return m;
}

// The registry and the common options' checks (the core's rules, in Python's words).
void bind_registry(py::module_& m) {
  m.def("version", [] { return std::string(FASTBLUR_VERSION_STRING); });
  m.attr("MAX_RADIUS") = kMaxRadius;
  m.attr("SIGMA_CUTOFF") = kSigmaCutoff;  // a sigma not above it leaves its axis alone (SciPy's rule)

  // The registry, as the core serialises it (the explorer's /api/info sends the same).
  m.def("algorithms", [] { return from_json(algorithms_json()); });
  // A parameter's command-line text read as the C++ command line reads it (set_parameter_text),
  // for `python3 -m fastblur`.
  m.def("parameter_from_text", [](const std::string& key, const std::string& text) -> py::object {
    BlurSpec spec;
    spec.algorithm = parameter_owner(key);
    set_parameter_text(spec, key, text);
    return std::visit([](const auto& v) -> py::object { return py::cast(v); }, get_parameter(spec, key));
  }, py::arg("key"), py::arg("text"));

  // The common options' and the device name's checks, the core's (validate.hpp), named as Python's
  // keyword arguments (threads arrive clamped to int64 by the caller).
  m.def(
      "check_options",
      [](double tolerance, std::int64_t threads) {
        const OptionNames names = OptionNames::python();
        check_tolerance(tolerance, names);
        check_threads(threads, names);
      },
      py::arg("tolerance"), py::arg("threads"));
  m.def(
      "check_cval", [](double cval, const std::string& rounding) {
        check_cval(cval, parse_rounding(rounding), OptionNames::python());
      },
      py::arg("cval"), py::arg("rounding"));
  m.def(
      "gives_scipy_bits",  // whether a call sends SciPy's weights (resolved_rounding, plan.hpp)
      [](const std::string& algorithm, double tolerance, const std::string& device, const std::string& rounding) {
        BlurSpec spec;
        spec.algorithm = parse_algorithm(algorithm);
        spec.tolerance = tolerance;
        spec.rounding = parse_rounding(rounding);
        const bool cpu = parse_device_name(device, OptionNames::python()).kind == DeviceName::Kind::cpu;
        return resolved_rounding(spec, cpu ? Backend::cpu : Backend::vulkan) == Rounding::scipy;
      },
      py::arg("algorithm"), py::arg("tolerance"), py::arg("device"), py::arg("rounding"));
  m.def(
      "check_device", [](const std::string& device) { (void)parse_device_name(device, OptionNames::python()); },
      py::arg("device"));
}

// NumPy arrays blurred, batches with a sigma per sample, and their plans.
void bind_array_blurs(py::module_& m) {
  m.def(
      "blur_axes",
      [](const py::array& src, py::array& dst, const std::vector<int>& axes, const std::vector<double>& sigmas,
                 const std::vector<std::string>& modes, const std::vector<double>& radii,
                 const std::vector<int>& orders, const std::vector<std::vector<double>>& weights, double cval,
                 double truncate, const std::string& algorithm, double tolerance, int threads, const py::dict& options,
                 const std::string& device, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, threads, options, rounding);
        python::blur_arrays(src, dst, axis_requests(axes, sigmas, modes, radii, orders, weights), base, Device::parse(device, OptionNames::python()));
      },
      py::arg("src"), py::arg("dst"), py::arg("axes"), py::arg("sigmas"), py::arg("modes"), py::arg("radii"),
      py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"), py::arg("algorithm"),
      py::arg("tolerance"), py::arg("threads"), py::arg("options"), py::arg("device"), py::arg("rounding"));

  m.def(
      "blur_sample_axes",
      [](const py::array& src, py::array& dst, const std::vector<int>& axes,
                        const std::vector<std::vector<double>>& sigmas, const std::vector<std::string>& modes,
                        const std::vector<std::vector<double>>& radii, const std::vector<int>& orders,
                        const std::vector<std::vector<std::vector<double>>>& weights, double cval, double truncate,
                        const std::string& algorithm, double tolerance, int threads, const py::dict& options,
                        const std::string& device, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, threads, options, rounding);
        python::blur_sample_arrays(src, dst, sample_requests(axes, sigmas, modes, radii, orders, weights), base,
                                   Device::parse(device, OptionNames::python()));
      },
      py::arg("src"), py::arg("dst"), py::arg("axes"), py::arg("sigmas"), py::arg("modes"), py::arg("radii"),
      py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"), py::arg("algorithm"),
      py::arg("tolerance"), py::arg("threads"), py::arg("options"), py::arg("device"), py::arg("rounding"));
  m.def(
      "blur_cuda_sample_axes",
      [](const py::dict& src, const py::dict& dst, int ordinal, std::uintptr_t stream,
                        const std::vector<int>& axes, const std::vector<std::vector<double>>& sigmas,
                        const std::vector<std::string>& modes, const std::vector<std::vector<double>>& radii,
                        const std::vector<int>& orders, const std::vector<std::vector<std::vector<double>>>& weights,
                        double cval, double truncate, const std::string& algorithm, double tolerance, const py::dict& options,
                        const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, 0, options, rounding);
        python::blur_cuda_sample_arrays(python::cuda_array_of(src), python::cuda_array_of(dst),
                                        sample_requests(axes, sigmas, modes, radii, orders, weights), base, ordinal, stream);
      },
      py::arg("src"), py::arg("dst"), py::arg("ordinal"), py::arg("stream"), py::arg("axes"), py::arg("sigmas"),
      py::arg("modes"), py::arg("radii"), py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"),
      py::arg("algorithm"), py::arg("tolerance"), py::arg("options"), py::arg("rounding"));

  // The plan blur_axes runs for the same arguments (arrays of that shape, strides and dtype).
  m.def(
      "plan_axes",
      [](const py::array& src, const py::array& dst, const std::vector<int>& axes,
                 const std::vector<double>& sigmas, const std::vector<std::string>& modes,
                 const std::vector<double>& radii, const std::vector<int>& orders,
                 const std::vector<std::vector<double>>& weights, double cval, double truncate,
                 const std::string& algorithm, double tolerance, int threads, const py::dict& options,
                 const std::string& device, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, threads, options, rounding);
        const Plan p = python::plan_arrays(src, dst, axis_requests(axes, sigmas, modes, radii, orders, weights), base,
                                           Device::parse(device, OptionNames::python()));
        return from_json(plan_json(p));  // fastblur.plan() lays it out in NumPy's order
      },
      py::arg("src"), py::arg("dst"), py::arg("axes"), py::arg("sigmas"), py::arg("modes"), py::arg("radii"),
      py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"), py::arg("algorithm"),
      py::arg("tolerance"), py::arg("threads"), py::arg("options"), py::arg("device"), py::arg("rounding"));
}

// Arrays of other libraries: DLPack, CUDA arrays (with holes too) on their GPU.
void bind_cuda_arrays(py::module_& m) {
  // Arrays of other libraries (issue 30): a DLPack capsule taken over (CPU memory as a NumPy array,
  // CUDA memory as an interface dict), and CUDA arrays blurred on their GPU through the Vulkan
  // backend (fastblur/cuda.hpp), laid out as blur_axes lays out NumPy arrays.
  m.def("import_dlpack", &python::import_dlpack, py::arg("capsule"));
  m.def("cuda_device_of", [](std::uint64_t pointer) { return cuda::device_of(pointer); }, py::arg("pointer"));
  m.def("cuda_imports", [] { return cuda::imports(); });
  m.def("cuda_last_timing", [] {
    const cuda::CallTiming t = cuda::last_timing();
    py::dict d;
    d["handoff"] = std::string(to_string(t.handoff));
    d["total_ms"] = t.total_ms;
    d["copy_in_wait_ms"] = t.copy_in_wait_ms;
    d["plan_ms"] = t.plan_ms;
    d["record_ms"] = t.record_ms;
    d["run_ms"] = t.run_ms;
    d["device_ms"] = t.device_ms;
    d["convert_in_ms"] = t.convert_in_ms;
    d["algorithm_ms"] = t.algorithm_ms;
    d["convert_out_ms"] = t.convert_out_ms;
    return d;
  });
  m.def(
      "cuda_handoff",
      [](int ordinal) {
        std::string why;
        const CudaHandoff h = cuda::handoff(ordinal, &why);
        py::dict d;
        d["handoff"] = std::string(to_string(h));
        d["why"] = why;
        d["ring"] = cuda::ring_size(ordinal);
        return d;
      },
      py::arg("ordinal"));
  m.def(
      "cuda_device_name",
      [](int ordinal) { return cuda::vulkan_device_for(ordinal).description(); }, py::arg("ordinal"));
  // A CUDA call laid out and planned once; run() repeats it on arrays of the same shapes, strides
  // and types at other pointers (Python keeps it per call signature: _foreign_arrays.py).
  py::class_<python::PreparedCudaCall>(m, "CudaCall")
      .def("run", &python::PreparedCudaCall::run, py::arg("src"), py::arg("dst"), py::arg("stream"))
      .def_property_readonly("plan", [](const python::PreparedCudaCall& c) { return from_json(plan_json(c.plan())); });
  m.def(
      "prepare_cuda_axes",
      [](const py::dict& src, const py::dict& dst, int ordinal, const std::vector<int>& axes,
                 const std::vector<double>& sigmas, const std::vector<std::string>& modes,
                 const std::vector<double>& radii, const std::vector<int>& orders,
                 const std::vector<std::vector<double>>& weights, double cval, double truncate,
                 const std::string& algorithm, double tolerance, const py::dict& options, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, 0, options, rounding);
        return python::PreparedCudaCall(python::cuda_array_of(src), python::cuda_array_of(dst),
                                        axis_requests(axes, sigmas, modes, radii, orders, weights), base, ordinal);
      },
      py::arg("src"), py::arg("dst"), py::arg("ordinal"), py::arg("axes"), py::arg("sigmas"), py::arg("modes"),
      py::arg("radii"), py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"),
      py::arg("algorithm"), py::arg("tolerance"), py::arg("options"), py::arg("rounding"));
  m.def(
      "blur_cuda_axes_missing",
      [](const py::dict& src, const py::dict& dst, int ordinal, bool omit_nan, bool preserve_nan,
                               const std::vector<int>& axes, const std::vector<double>& sigmas,
                               const std::vector<std::string>& modes, const std::vector<double>& radii,
                               const std::vector<int>& orders, const std::vector<std::vector<double>>& weights, double cval,
                               double truncate, const std::string& algorithm, double tolerance, const py::dict& options,
                               std::uintptr_t stream, const std::optional<py::dict>& mask) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, 0, options, "nearest");
        const std::optional<python::CudaArray> m = mask ? std::optional(python::cuda_array_of(*mask)) : std::nullopt;
        python::blur_cuda_missing(python::cuda_array_of(src), python::cuda_array_of(dst), m ? &*m : nullptr,
                                  axis_requests(axes, sigmas, modes, radii, orders, weights), base,
                                  cuda_missing(omit_nan, preserve_nan), ordinal, stream);
      },
      py::arg("src"), py::arg("dst"), py::arg("ordinal"), py::arg("omit_nan"), py::arg("preserve_nan"), py::arg("axes"),
      py::arg("sigmas"), py::arg("modes"), py::arg("radii"), py::arg("orders"), py::arg("weights"), py::arg("cval"),
      py::arg("truncate"), py::arg("algorithm"), py::arg("tolerance"), py::arg("options"), py::arg("stream"),
      py::arg("mask") = py::none());
  m.def(
      "plan_cuda_axes_missing",
      [](const py::dict& src, const py::dict& dst, int ordinal, bool omit_nan, bool preserve_nan,
                               const std::vector<int>& axes, const std::vector<double>& sigmas,
                               const std::vector<std::string>& modes, const std::vector<double>& radii,
                               const std::vector<int>& orders, const std::vector<std::vector<double>>& weights, double cval,
                               double truncate, const std::string& algorithm, double tolerance, const py::dict& options,
                               const std::optional<py::dict>& mask) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, 0, options, "nearest");
        const std::optional<python::CudaArray> m = mask ? std::optional(python::cuda_array_of(*mask)) : std::nullopt;
        return from_json(plan_json(python::plan_cuda_missing(python::cuda_array_of(src), python::cuda_array_of(dst),
                                                             m ? &*m : nullptr,
                                                             axis_requests(axes, sigmas, modes, radii, orders, weights), base,
                                                             cuda_missing(omit_nan, preserve_nan), ordinal)));
      },
      py::arg("src"), py::arg("dst"), py::arg("ordinal"), py::arg("omit_nan"), py::arg("preserve_nan"), py::arg("axes"),
      py::arg("sigmas"), py::arg("modes"), py::arg("radii"), py::arg("orders"), py::arg("weights"), py::arg("cval"),
      py::arg("truncate"), py::arg("algorithm"), py::arg("tolerance"), py::arg("options"), py::arg("mask") = py::none());
  m.def(
      "plan_cuda_axes",
      [](const py::dict& src, const py::dict& dst, int ordinal, const std::vector<int>& axes,
                 const std::vector<double>& sigmas, const std::vector<std::string>& modes,
                 const std::vector<double>& radii, const std::vector<int>& orders,
                 const std::vector<std::vector<double>>& weights, double cval, double truncate,
                 const std::string& algorithm, double tolerance, const py::dict& options, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, 0, options, rounding);
        return from_json(plan_json(python::plan_cuda_arrays(python::cuda_array_of(src), python::cuda_array_of(dst),
                                                            axis_requests(axes, sigmas, modes, radii, orders, weights),
                                                            base, ordinal)));
      },
      py::arg("src"), py::arg("dst"), py::arg("ordinal"), py::arg("axes"), py::arg("sigmas"), py::arg("modes"),
      py::arg("radii"), py::arg("orders"), py::arg("weights"), py::arg("cval"), py::arg("truncate"),
      py::arg("algorithm"), py::arg("tolerance"), py::arg("options"), py::arg("rounding"));
}

// Data with holes, the derivative family in the core, and the per-axis checks.
void bind_missing_and_derivatives(py::module_& m) {
  // A blur of data with holes (fastblur::blur with MissingData): the weights from NaN (omit_nan), a
  // mask array (None, or of the data's shape) or an alpha channel; the rest as blur_axes.
  m.def(
      "blur_axes_missing",
      [](const py::array& src, py::array& dst, const py::object& mask, bool omit_nan, bool alpha,
                 bool preserve_nan, const std::vector<int>& axes, const std::vector<double>& sigmas,
                 const std::vector<std::string>& modes, const std::vector<double>& radii, const std::vector<int>& orders,
                 const std::vector<std::vector<double>>& weights, double cval, double truncate,
                 const std::string& algorithm, double tolerance, int threads, const py::dict& options,
                 const std::string& device) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, threads, options, "nearest");
        MissingData missing;
        missing.omit_nan = omit_nan;
        missing.alpha = alpha;
        missing.preserve_nan = preserve_nan;
        python::blur_missing_arrays(src, dst, mask, missing, axis_requests(axes, sigmas, modes, radii, orders, weights), base,
                                    Device::parse(device, OptionNames::python()));
      },
      py::arg("src"), py::arg("dst"), py::arg("mask"), py::arg("omit_nan"), py::arg("alpha"), py::arg("preserve_nan"),
      py::arg("axes"), py::arg("sigmas"), py::arg("modes"), py::arg("radii"), py::arg("orders"), py::arg("weights"),
      py::arg("cval"), py::arg("truncate"), py::arg("algorithm"), py::arg("tolerance"), py::arg("threads"),
      py::arg("options"), py::arg("device"));

  // gaussian_laplace / gaussian_gradient_magnitude in the core (fastblur::derivative_sum): `terms`
  // holds each derivative's (axes, sigmas, modes, radii, orders, weights), the rest as blur_axes.
  using TermArgs = std::tuple<std::vector<int>, std::vector<double>, std::vector<std::string>, std::vector<double>,
                              std::vector<int>, std::vector<std::vector<double>>>;
  m.def(
      "derivative_sum_axes",
      [](const py::array& src, py::array& dst, const std::string& kind, const std::vector<TermArgs>& terms,
                 double cval, double truncate, const std::string& algorithm, double tolerance, int threads,
                 const py::dict& options, const std::string& rounding) {
        const BlurSpec base = base_spec(algorithm, tolerance, cval, truncate, threads, options, rounding);
        std::vector<std::vector<python::AxisRequest>> term_requests;
        for (const TermArgs& t : terms)
          term_requests.push_back(std::apply(axis_requests, t));
        const DerivativeSum k = kind == "laplace" ? DerivativeSum::laplace
                                : kind == "gradient_magnitude"
                                    ? DerivativeSum::gradient_magnitude
                                    : throw InvalidArgument("derivative_sum: kind is laplace or gradient_magnitude");
        python::derivative_sum_arrays(src, dst, k, term_requests, base);
      },
      py::arg("src"), py::arg("dst"), py::arg("kind"), py::arg("terms"), py::arg("cval"), py::arg("truncate"),
      py::arg("algorithm"), py::arg("tolerance"), py::arg("threads"), py::arg("options"), py::arg("rounding"));

  // One axis's step of gaussian_laplace / gaussian_gradient_magnitude in the output's type (fastblur/
  // derivative_sum.hpp): `total` and `term` (None for a single axis) C-contiguous, of one type and size.
  m.def(
      "derivative_sum_step",
      [](const std::string& kind, py::array total, const py::object& term, bool first, bool last, int threads) {
        const auto type_of = [](const py::array& a) {
          if (a.dtype().is(py::dtype::of<double>())) return ElementType::f64;
          if (a.dtype().is(py::dtype::of<float>())) return ElementType::f32;
          throw InvalidArgument("derivative_sum_step takes float32 or float64 arrays");
        };
        if (!(total.flags() & py::array::c_style) || !total.writeable())
          throw InvalidArgument("derivative_sum_step: the total must be a writable C-contiguous array");
        const ElementType type = type_of(total);
        const void* term_data = nullptr;
        py::array term_array;
        if (!term.is_none()) {
          term_array = py::reinterpret_borrow<py::array>(term);
          if (!(term_array.flags() & py::array::c_style) || type_of(term_array) != type ||
              term_array.size() != total.size())
            throw InvalidArgument("derivative_sum_step: the term must be a C-contiguous array like the total");
          term_data = term_array.data();
        }
        const DerivativeSum k = kind == "laplace" ? DerivativeSum::laplace
                                : kind == "gradient_magnitude"
                                    ? DerivativeSum::gradient_magnitude
                                    : throw InvalidArgument("derivative_sum_step: kind is laplace or gradient_magnitude");
        void* data = total.mutable_data();
        const auto count = static_cast<std::size_t>(total.size());
        py::gil_scoped_release release;
        derivative_sum_step(k, type, data, term_data, count, first, last, threads);
      },
      py::arg("kind"), py::arg("total"), py::arg("term"), py::arg("first"), py::arg("last"), py::arg("threads") = 0);

  // The per-axis arguments checked as a blur would check them, for calls with nothing to blur (an
  // empty array): a radius past the limit is refused there too.
  m.def(
      "check_axes",
      [](const std::vector<int>& axes, const std::vector<double>& sigmas, const std::vector<std::string>& modes,
                 const std::vector<double>& radii, const std::vector<int>& orders) {
        (void)axis_requests(axes, sigmas, modes, radii, orders, {});
      },
      py::arg("axes"), py::arg("sigmas"), py::arg("modes"), py::arg("radii"), py::arg("orders"));
}

// What ran, the devices, and analyze.
void bind_runs_and_analysis(py::module_& m) {
  // What the last blur on this thread ran (for tests: the plan printed is the plan run).
  m.def("last_run", []() -> py::object {
    const std::optional<RunRecord> r = last_run();
    if (!r) return py::none();
    return from_json(run_json(*r));
  });

  m.def("devices", [] { return from_json(devices_json()); });

  m.def(
      "analyze",
      [](const std::string& algorithm, double sigma, const py::dict& options, bool anisotropy, bool psnr) {
        const BlurSpec spec = base_spec(algorithm, 0.0, 0.0, 4.0, 0, options);
        std::string json;
        {
          py::gil_scoped_release release;
          json = analysis::analysis_json(analysis::analyze(spec, sigma, anisotropy, psnr));  // the CLI's own
        }
        return from_json(json);
      },
      py::arg("algorithm"), py::arg("sigma"), py::arg("options"), py::arg("anisotropy"), py::arg("psnr"));
}

// The kernel helpers (weights, schedules, presets).
// The drop-in's new outputs (kept_outputs.hpp): arrays whose memory is reused once freed.
void bind_kept_outputs(py::module_& m) {
  m.def("new_output", [](const py::dtype& dtype, const std::vector<py::ssize_t>& shape) {
    return fastblur::python::new_output(dtype, shape);
  });
  m.def("set_kept_output_limit", [](std::size_t bytes) { return fastblur::python::set_kept_output_limit(bytes); });
  m.def("kept_outputs", [] {
    return py::make_tuple(fastblur::python::kept_output_bytes(), fastblur::python::kept_output_blocks());
  });
}

void bind_kernels(py::module_& m) {
  // Kernel helpers.
  m.def("gaussian_weights", [](double sigma, int radius, int order) {
    return to_array(kernel::gaussian_derivative_weights(sigma, order, radius));
  });
  m.def("radius_for_precision", &kernel::radius_for_precision);
  m.def("sigma_for_precision", &kernel::sigma_for_precision);
  m.def("binomial_weights", [](int order) { return to_array(kernel::binomial_weights(order)); });
  m.def("incremental_gaussian", [](double sigma, int count, double delta, bool two_exponentials) {
    return to_array(kernel::incremental_gaussian(kernel::incremental_coefficients(sigma, delta, two_exponentials), count));
  });
  m.def("linear_sampling", [](const std::vector<double>& weights, int first_offset) {
    const auto taps = kernel::linear_sampling_1d(weights, first_offset);
    py::array_t<double> a({static_cast<py::ssize_t>(taps.size()), py::ssize_t{2}});
    for (std::size_t i = 0; i < taps.size(); ++i) {
      a.mutable_at(static_cast<py::ssize_t>(i), 0) = taps[i].offset;
      a.mutable_at(static_cast<py::ssize_t>(i), 1) = taps[i].weight;
    }
    return a;
  });
  m.def("linear_sampling_gaussian", [](double sigma, int radius) {
    const auto taps = kernel::linear_sampling_gaussian(sigma, radius);
    py::array_t<double> a({static_cast<py::ssize_t>(taps.size()), py::ssize_t{2}});
    for (std::size_t i = 0; i < taps.size(); ++i) {
      a.mutable_at(static_cast<py::ssize_t>(i), 0) = taps[i].offset;
      a.mutable_at(static_cast<py::ssize_t>(i), 1) = taps[i].weight;
    }
    return a;
  });
  m.def("linear_sampling_2d", [](const py::array_t<double, py::array::c_style | py::array::forcecast>& w, int first_x,
                                 int first_y) {
    if (w.ndim() != 2) throw InvalidArgument("linear_sampling_2d: weights must be a 2D array");
    const std::vector<double> v(w.data(), w.data() + w.size());
    const auto taps = kernel::linear_sampling_2d(v, static_cast<int>(w.shape(1)), static_cast<int>(w.shape(0)), first_x, first_y);
    py::array_t<double> a({static_cast<py::ssize_t>(taps.size()), py::ssize_t{3}});
    for (std::size_t i = 0; i < taps.size(); ++i) {
      a.mutable_at(static_cast<py::ssize_t>(i), 0) = taps[i].x;
      a.mutable_at(static_cast<py::ssize_t>(i), 1) = taps[i].y;
      a.mutable_at(static_cast<py::ssize_t>(i), 2) = taps[i].weight;
    }
    return a;
  });
  m.def("kawase_schedule", [](double sigma, int passes) { return to_array(kernel::kawase_schedule(sigma, passes)); });
  m.def("kawase_kernel", [](const std::vector<double>& offsets) { return to_array(kernel::kawase_kernel(offsets)); });
  m.def("kawase_presets", [] {
    py::dict d;
    d["0,1,2,2,3"] = to_array(kernel::kawase_preset_01223());
    d["2,3,3,3"] = to_array(kernel::kawase_preset_2333());
    return d;
  });
  m.def("box_passes", [](double sigma, int passes, bool integer_widths) {
    const auto p = integer_widths ? kernel::integer_box_passes(sigma, passes) : kernel::extended_box_passes(sigma, passes);
    py::array_t<double> a({static_cast<py::ssize_t>(p.size()), py::ssize_t{2}});
    for (std::size_t i = 0; i < p.size(); ++i) {
      a.mutable_at(static_cast<py::ssize_t>(i), 0) = p[i].radius;
      a.mutable_at(static_cast<py::ssize_t>(i), 1) = p[i].alpha;
    }
    return a;
  });
  m.def("sliding_dct_kernel", [](double sigma, int order) {
    const auto k = kernel::sliding_dct_kernel(sigma, order);
    return py::make_tuple(k.radius, to_array(k.beta), to_array(kernel::sliding_dct_weights(k)));
  });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "fastblur's compiled core; use the functions of the fastblur package.";

  // Library errors become the Python exceptions a SciPy user expects.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const Unsupported& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const OutOfMemory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    }
  });

  bind_registry(m);
  bind_array_blurs(m);
  bind_cuda_arrays(m);
  bind_missing_and_derivatives(m);
  bind_runs_and_analysis(m);
  bind_kernels(m);
  bind_kept_outputs(m);
}
