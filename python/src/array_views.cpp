#include "array_views.hpp"

#include <algorithm>
#include <memory>
#include <span>
#include <cstdint>
#include <string>

#include "fastblur/error.hpp"

namespace py = pybind11;

namespace fastblur::python {

// By kind, size and byte order, not by identity: an unpickled array (a dask worker's piece) carries a
// dtype equal to numpy's own but a distinct object.
ElementType element_type_of(const py::dtype& dtype) {
  if (dtype.attr("isnative").cast<bool>()) {
    const char kind = dtype.kind();
    const auto size = dtype.itemsize();
    if (kind == 'b' && size == 1) return ElementType::b8;
    if (kind == 'u' && size == 1) return ElementType::u8;
    if (kind == 'u' && size == 2) return ElementType::u16;
    if (kind == 'u' && size == 4) return ElementType::u32;
    if (kind == 'u' && size == 8) return ElementType::u64;
    if (kind == 'i' && size == 1) return ElementType::i8;
    if (kind == 'i' && size == 2) return ElementType::i16;
    if (kind == 'i' && size == 4) return ElementType::i32;
    if (kind == 'i' && size == 8) return ElementType::i64;
    if (kind == 'f' && size == 2) return ElementType::f16;
    if (kind == 'f' && size == 4) return ElementType::f32;
    if (kind == 'f' && size == 8) return ElementType::f64;
  }
  throw py::type_error("fastblur computes bool, integer (8 to 64 bits) and float (16 to 64 bits) arrays in native "
                       "byte order, not " + std::string(py::str(static_cast<const py::handle&>(dtype))));
}

namespace {

// A call laid out: the spec and views of one blur, and the array axes looped over (a batch of blurs).
struct Layout {
  BlurSpec spec;
  View sv, dv;
  std::vector<int> batch;
};

}  // namespace

ArrayShape ArrayShape::of(const py::array& a) {
  ArrayShape s;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s.extents.push_back(a.shape(d)), s.byte_strides.push_back(a.strides(d));
  s.type = element_type_of(a.dtype());
  return s;
}

namespace {

Layout lay_out_call(const ArrayShape& src, const ArrayShape& dst, const std::vector<AxisRequest>& axes,
                    const BlurSpec& base, const Device& device) {
  const int ndim = static_cast<int>(src.ndim());
  if (dst.ndim() != src.ndim()) throw InvalidArgument("source and destination differ in rank");
  for (int d = 0; d < ndim; ++d)
    if (src.shape(d) != dst.shape(d)) throw InvalidArgument("source and destination differ in shape");
  if (axes.empty() || axes.size() > 3) throw InvalidArgument("between 1 and 3 axes are filtered per call");
  const ElementType st = src.type, dt = dst.type;

  // Filtered axes become x, y, z, the smallest source stride first (x runs along rows in memory).
  std::vector<AxisRequest> order = axes;
  std::stable_sort(order.begin(), order.end(), [&](const AxisRequest& a, const AxisRequest& b) {
    return std::abs(src.strides(a.axis)) < std::abs(src.strides(b.axis));
  });
  std::vector<bool> used(static_cast<std::size_t>(ndim), false);
  for (const AxisRequest& a : order) {
    if (a.axis < 0 || a.axis >= ndim || used[static_cast<std::size_t>(a.axis)])
      throw InvalidArgument("filtered axes must be distinct and within the array's rank");
    used[static_cast<std::size_t>(a.axis)] = true;
  }
  // The channel axis, by the rule every front end shares (fastblur::channel_axis).
  std::vector<std::int64_t> shape(static_cast<std::size_t>(ndim));
  std::vector<std::ptrdiff_t> s_strides(shape.size()), d_strides(shape.size());
  std::unique_ptr<bool[]> blurred(new bool[shape.size()]);
  for (int d = 0; d < ndim; ++d) {
    const auto i = static_cast<std::size_t>(d);
    shape[i] = src.shape(d), s_strides[i] = src.strides(d), d_strides[i] = dst.strides(d);
    blurred[i] = used[i];
  }
  int channel_axis = fastblur::channel_axis(shape, s_strides, element_size(st), d_strides, element_size(dt),
                                            std::span<const bool>(blurred.get(), shape.size()));
  if (channel_axis >= 0 && src.shape(channel_axis) == 1) channel_axis = -1;  // one channel: nothing to interleave
  std::vector<int> batch;
  for (int d = 0; d < ndim; ++d)
    if (!used[static_cast<std::size_t>(d)] && d != channel_axis && src.shape(d) > 1) batch.push_back(d);

  // Lays out the views and spec: `view_axes` become x, y, z (smallest source stride first), each
  // filtered with its request or, for an unfiltered axis, left alone (sigma 0).
  BlurSpec spec = base;
  View sv, dv;
  sv.type = st;
  dv.type = dt;
  sv.channels = dv.channels = channel_axis >= 0 ? static_cast<int>(src.shape(channel_axis)) : 1;
  const auto lay_out = [&](std::vector<AxisRequest> view_axes) {
    std::stable_sort(view_axes.begin(), view_axes.end(), [&](const AxisRequest& a, const AxisRequest& b) {
      return std::abs(src.strides(a.axis)) < std::abs(src.strides(b.axis));
    });
    for (std::size_t i = 0; i < 3; ++i) {
      if (i < view_axes.size()) {
        const AxisRequest& a = view_axes[i];
        spec.sigma[i] = a.sigma;
        spec.border[i] = a.border;
        spec.order[i] = a.order;
        if (a.radius >= 0) spec.radius[i] = a.radius;
        else spec.radius[i].reset();
        spec.weights[i] = a.weights;
        sv.extent[i] = dv.extent[i] = src.shape(a.axis);
        sv.stride[i] = src.strides(a.axis);
        dv.stride[i] = dst.strides(a.axis);
      } else {
        spec.sigma[i] = 0.0;
        spec.order[i] = 0;
        spec.radius[i].reset();
        spec.weights[i].clear();
        sv.extent[i] = dv.extent[i] = 1;
        // Unused axes of extent 1 still need plausible strides.
        sv.stride[i] = i == 0 ? sv.channels * static_cast<std::ptrdiff_t>(element_size(st)) : sv.stride[i - 1] * sv.extent[i - 1];
        dv.stride[i] = i == 0 ? dv.channels * static_cast<std::ptrdiff_t>(element_size(dt)) : dv.stride[i - 1] * dv.extent[i - 1];
      }
    }
    // Rounding::scipy filters the axes in the order the caller listed them (SciPy's), the view's
    // other axes after them.
    std::vector<int> seq;
    for (const AxisRequest& a : axes)
      for (std::size_t i = 0; i < view_axes.size() && i < 3; ++i)
        if (view_axes[i].axis == a.axis) seq.push_back(static_cast<int>(i));
    for (int i = 0; i < 3; ++i)
      if (std::find(seq.begin(), seq.end(), i) == seq.end()) seq.push_back(i);
    spec.axis_order = {seq[0], seq[1], seq[2]};
  };
  // Fewer filtered axes than the array has (gaussian_filter1d, a sigma of 0 on an axis): the
  // largest unfiltered axes join the view with sigma 0, so that one call filters every line at
  // once instead of one call per line or plane (a 256^3 gaussian_filter1d made 65536 calls and
  // ran slower than SciPy; on a GPU each call is a dispatch). Only where that is the same filter:
  // the algorithms that filter each axis on its own (not the planar ones) on a backend that runs
  // them on volumes (the registry's capabilities).
  bool folded = false;
  if (order.size() < 3 && !batch.empty()) {
    std::vector<int> extra = batch;
    std::stable_sort(extra.begin(), extra.end(), [&](int a, int b) { return src.shape(a) > src.shape(b); });
    extra.resize(std::min(extra.size(), 3 - order.size()));
    std::vector<AxisRequest> view_axes = order;
    for (int d : extra) view_axes.push_back(AxisRequest{d, 0.0, Border::reflect, -1, 0});
    lay_out(view_axes);
    Algorithm chosen = Algorithm::automatic;
    try {
      py::gil_scoped_release release;  // the planner may measure candidates
      chosen = make_plan(spec, sv, device).algorithm;
    } catch (const Error&) {
      // Not folded: the call below reports whatever is wrong with the request itself.
    }
    const AlgorithmInfo& info = algorithm_info(chosen);
    const bool per_axis = chosen != Algorithm::automatic && info.capabilities.separable &&
                          info.runs_on(device.is_cpu() ? Backend::cpu : Backend::vulkan, 3);
    if (per_axis) {
      folded = true;
      std::erase_if(batch, [&](int d) { return std::find(extra.begin(), extra.end(), d) != extra.end(); });
    }
  }
  if (!folded) lay_out(order);
  return Layout{spec, sv, dv, batch};
}

// Calls fn(source offset, destination offset), in bytes, for each blur of the batch: every index of
// the batch axes (one call where there are none).
template <class Fn>
void for_each_blur(const std::vector<int>& batch, const ArrayShape& s, const ArrayShape& d, Fn fn) {
  std::vector<std::int64_t> index(batch.size(), 0);
  for (;;) {
    std::ptrdiff_t so = 0, d_o = 0;
    for (std::size_t b = 0; b < batch.size(); ++b) so += index[b] * s.strides(batch[b]), d_o += index[b] * d.strides(batch[b]);
    fn(so, d_o);
    std::size_t b = 0;
    for (; b < batch.size(); ++b) {
      if (++index[b] < s.shape(batch[b])) break;
      index[b] = 0;
    }
    if (b == batch.size()) return;
  }
}

}  // namespace

Plan plan_arrays(const py::array& src, const py::array& dst, const std::vector<AxisRequest>& axes, const BlurSpec& base,
                 const Device& device) {
  Layout l = lay_out_call(ArrayShape::of(src), ArrayShape::of(dst), axes, base, device);
  py::gil_scoped_release release;  // the planner may measure candidates
  return make_plan(l.spec, l.sv, l.dv.type, device);
}

void blur_arrays(const py::array& src, py::array& dst, const std::vector<AxisRequest>& axes, const BlurSpec& base,
                 const Device& device) {
  if (!dst.writeable()) throw InvalidArgument("the output array is read-only");
  const ArrayShape s = ArrayShape::of(src), d = ArrayShape::of(dst);
  Layout l = lay_out_call(s, d, axes, base, device);
  const auto* src_base = static_cast<const std::byte*>(src.data());
  auto* dst_base = static_cast<std::byte*>(dst.mutable_data());
  py::gil_scoped_release release;
  for_each_blur(l.batch, s, d, [&](std::ptrdiff_t so, std::ptrdiff_t d_o) {
    l.sv.data = const_cast<std::byte*>(src_base + so);
    l.dv.data = dst_base + d_o;
    blur(l.sv, l.dv, l.spec, device);
  });
}

namespace {
// A mask laid out (as an output of the data's call) into the same blurs as the call's output, or refused.
void check_mask_layout(const Layout& data, const Layout& mask) {
  if (mask.batch != data.batch || mask.dv.extent != data.dv.extent || mask.dv.channels != data.dv.channels)
    throw InvalidArgument("the mask is laid out unlike the output: give it C-contiguous");
}
}  // namespace

void blur_missing_arrays(const py::array& src, py::array& dst, const py::object& mask, const MissingData& missing,
                         const std::vector<AxisRequest>& axes, const BlurSpec& base, const Device& device) {
  if (!dst.writeable()) throw InvalidArgument("the output array is read-only");
  const ArrayShape s = ArrayShape::of(src), d = ArrayShape::of(dst);
  Layout l = lay_out_call(s, d, axes, base, device);
  const bool has_mask = !mask.is_none();
  py::array mask_array;
  ArrayShape ms;
  Layout lm;
  if (has_mask) {
    mask_array = py::reinterpret_borrow<py::array>(mask);
    ms = ArrayShape::of(mask_array);
    if (ms.extents != s.extents) throw InvalidArgument("the mask's shape differs from the data's");
    lm = lay_out_call(s, ms, axes, base, device);
    check_mask_layout(l, lm);
  }
  // The batch's offsets, in one order for the three arrays.
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> offsets;
  for_each_blur(l.batch, s, d, [&](std::ptrdiff_t so, std::ptrdiff_t d_o) { offsets.emplace_back(so, d_o); });
  std::vector<std::ptrdiff_t> mask_offsets;
  if (has_mask) for_each_blur(l.batch, s, ms, [&](std::ptrdiff_t, std::ptrdiff_t m_o) { mask_offsets.push_back(m_o); });
  const auto* src_base = static_cast<const std::byte*>(src.data());
  auto* dst_base = static_cast<std::byte*>(dst.mutable_data());
  const auto* mask_base = has_mask ? static_cast<const std::byte*>(mask_array.data()) : nullptr;
  py::gil_scoped_release release;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    l.sv.data = const_cast<std::byte*>(src_base + offsets[i].first);
    l.dv.data = dst_base + offsets[i].second;
    MissingData m = missing;
    if (has_mask) {
      m.mask = lm.dv;
      m.mask.data = const_cast<std::byte*>(mask_base + mask_offsets[i]);
    }
    blur(l.sv, l.dv, l.spec, m, device);
  }
}

void derivative_sum_arrays(const py::array& src, py::array& dst, DerivativeSum kind,
                           const std::vector<std::vector<AxisRequest>>& terms, const BlurSpec& base) {
  if (!dst.writeable()) throw InvalidArgument("the output array is read-only");
  if (terms.empty()) throw InvalidArgument("derivative_sum needs one term or more");
  const ArrayShape s = ArrayShape::of(src), d = ArrayShape::of(dst);
  const Device cpu = Device::cpu();
  std::vector<Layout> layouts;
  for (const auto& axes : terms) layouts.push_back(lay_out_call(s, d, axes, base, cpu));
  std::vector<BlurSpec> specs;
  for (const Layout& l : layouts) {
    if (l.batch != layouts[0].batch || l.sv.extent != layouts[0].sv.extent || l.sv.channels != layouts[0].sv.channels)
      throw InvalidArgument("derivative_sum: the terms lay the arrays out differently");
    specs.push_back(l.spec);
  }
  Layout l = layouts[0];
  const auto* src_base = static_cast<const std::byte*>(src.data());
  auto* dst_base = static_cast<std::byte*>(dst.mutable_data());
  py::gil_scoped_release release;
  for_each_blur(l.batch, s, d, [&](std::ptrdiff_t so, std::ptrdiff_t d_o) {
    l.sv.data = const_cast<std::byte*>(src_base + so);
    l.dv.data = dst_base + d_o;
    derivative_sum(l.sv, l.dv, kind, specs);
  });
}

namespace {

// Unfiltered neighbours d, d + 1 that step as one axis in both arrays (stride[d] = extent[d + 1]
// stride[d + 1]) become one axis; `axes` is renumbered to match.
void merge_unfiltered(ArrayShape& a, ArrayShape& b, std::vector<AxisRequest>& axes) {
  const auto filtered = [&](int d) {
    return std::any_of(axes.begin(), axes.end(), [&](const AxisRequest& r) { return r.axis == d; });
  };
  for (int d = a.ndim() - 2; d >= 0; --d) {
    if (filtered(d) || filtered(d + 1)) continue;
    const auto i = static_cast<std::size_t>(d);
    if (a.byte_strides[i] != a.extents[i + 1] * a.byte_strides[i + 1] ||
        b.byte_strides[i] != b.extents[i + 1] * b.byte_strides[i + 1])
      continue;
    for (ArrayShape* s : {&a, &b}) {
      s->extents[i] *= s->extents[i + 1];
      s->byte_strides[i] = s->byte_strides[i + 1];
      s->extents.erase(s->extents.begin() + d + 1);
      s->byte_strides.erase(s->byte_strides.begin() + d + 1);
    }
    for (AxisRequest& r : axes)
      if (r.axis > d + 1) --r.axis;
  }
}

// A layout's view at a CUDA pointer. Axes of extent 1 get the packed stride, whatever the array's
// (the copies read a pitch only where there is more than one row or plane).
cuda::DeviceView device_view(const View& v, std::uint64_t data) {
  cuda::DeviceView d;
  d.data = data;
  d.extent = v.extent;
  d.channels = v.channels;
  d.type = v.type;
  std::ptrdiff_t packed = v.channels * static_cast<std::ptrdiff_t>(element_size(v.type));
  for (std::size_t i = 0; i < 3; ++i) {
    d.stride[i] = v.extent[i] > 1 ? v.stride[i] : packed;
    packed = d.stride[i] * d.extent[i];
  }
  return d;
}

// A call on CUDA arrays laid out: the arrays with unfiltered neighbours merged, and their layout.
struct CudaLayout {
  ArrayShape s, d;
  Layout l;
};

CudaLayout lay_out_cuda(const CudaArray& src, const CudaArray& dst, const std::vector<AxisRequest>& axes,
                        const BlurSpec& base, int ordinal) {
  ArrayShape s = src.shape, d = dst.shape;
  std::vector<AxisRequest> merged = axes;
  merge_unfiltered(s, d, merged);
  Layout l = lay_out_call(s, d, merged, base, cuda::vulkan_device_for(ordinal));
  return CudaLayout{std::move(s), std::move(d), std::move(l)};
}

}  // namespace

struct PreparedCudaCall::Impl {
  CudaLayout c;
  int ordinal = 0;
  Plan plan;
};

PreparedCudaCall::PreparedCudaCall(const CudaArray& src, const CudaArray& dst, const std::vector<AxisRequest>& axes,
                                   const BlurSpec& base, int ordinal)
    : impl_(std::make_unique<Impl>(Impl{lay_out_cuda(src, dst, axes, base, ordinal), ordinal, Plan{}})) {
  py::gil_scoped_release release;
  impl_->plan = cuda::plan(device_view(impl_->c.l.sv, src.data), device_view(impl_->c.l.dv, dst.data), impl_->c.l.spec, ordinal);
}
PreparedCudaCall::~PreparedCudaCall() = default;
PreparedCudaCall::PreparedCudaCall(PreparedCudaCall&&) noexcept = default;

const Plan& PreparedCudaCall::plan() const noexcept { return impl_->plan; }

void PreparedCudaCall::run(std::uint64_t src, std::uint64_t dst, std::uintptr_t stream) const {
  const CudaLayout& c = impl_->c;
  py::gil_scoped_release release;
  for_each_blur(c.l.batch, c.s, c.d, [&](std::ptrdiff_t so, std::ptrdiff_t d_o) {
    cuda::blur(device_view(c.l.sv, src + static_cast<std::uint64_t>(so)), device_view(c.l.dv, dst + static_cast<std::uint64_t>(d_o)),
               impl_->plan, impl_->ordinal, stream);
  });
}

Plan plan_cuda_arrays(const CudaArray& src, const CudaArray& dst, const std::vector<AxisRequest>& axes,
                      const BlurSpec& base, int ordinal) {
  return PreparedCudaCall(src, dst, axes, base, ordinal).plan();
}

namespace {

// A call's mask laid out as its output: the same batch and blurs (the mask's offsets for each), or refused.
std::vector<std::ptrdiff_t> mask_offsets(const CudaLayout& c, const CudaArray& src, const CudaArray& mask,
                                         const std::vector<AxisRequest>& axes, const BlurSpec& base, int ordinal,
                                         View& mask_view) {
  if (mask.shape.extents != src.shape.extents) throw InvalidArgument("the mask's shape differs from the data's");
  const CudaLayout cm = lay_out_cuda(src, mask, axes, base, ordinal);
  check_mask_layout(c.l, cm.l);
  std::vector<std::ptrdiff_t> offsets;
  for_each_blur(cm.l.batch, cm.s, cm.d, [&](std::ptrdiff_t, std::ptrdiff_t m_o) { offsets.push_back(m_o); });
  mask_view = cm.l.dv;
  return offsets;
}

}  // namespace

void blur_cuda_missing(const CudaArray& src, const CudaArray& dst, const CudaArray* mask, const std::vector<AxisRequest>& axes,
                       const BlurSpec& base, const MissingData& missing, int ordinal, std::uintptr_t stream) {
  const CudaLayout c = lay_out_cuda(src, dst, axes, base, ordinal);
  View mv;
  const std::vector<std::ptrdiff_t> mo = mask ? mask_offsets(c, src, *mask, axes, base, ordinal, mv) : std::vector<std::ptrdiff_t>{};
  py::gil_scoped_release release;
  std::size_t i = 0;
  for_each_blur(c.l.batch, c.s, c.d, [&](std::ptrdiff_t so, std::ptrdiff_t d_o) {
    const cuda::DeviceView m = mask ? device_view(mv, mask->data + static_cast<std::uint64_t>(mo.at(i))) : cuda::DeviceView{};
    ++i;
    cuda::blur(device_view(c.l.sv, src.data + static_cast<std::uint64_t>(so)),
               device_view(c.l.dv, dst.data + static_cast<std::uint64_t>(d_o)), c.l.spec, missing, ordinal, stream, m);
  });
}

Plan plan_cuda_missing(const CudaArray& src, const CudaArray& dst, const CudaArray* mask, const std::vector<AxisRequest>& axes,
                       const BlurSpec& base, const MissingData& missing, int ordinal) {
  const CudaLayout c = lay_out_cuda(src, dst, axes, base, ordinal);
  View mv;
  const std::vector<std::ptrdiff_t> mo = mask ? mask_offsets(c, src, *mask, axes, base, ordinal, mv) : std::vector<std::ptrdiff_t>{};
  py::gil_scoped_release release;
  return cuda::plan(device_view(c.l.sv, src.data), device_view(c.l.dv, dst.data), c.l.spec, missing, ordinal,
                    mask ? device_view(mv, mask->data + static_cast<std::uint64_t>(mo.at(0))) : cuda::DeviceView{});
}

namespace {

// A batch of samples laid out as a stack of 2D slices: the two blurred axes are x and y (the smaller
// source stride x), a small contiguous unfiltered axis the channels, and every other axis - the
// samples' and any before the blurred ones (an NCHW batch's C) - one axis of slices, z.
struct SamplesLayout {
  View sv, dv;
  bool first_is_x = true;               // the requests' first axis is x
  std::int64_t slices_per_sample = 1;
};

SamplesLayout lay_out_samples(const ArrayShape& src, const ArrayShape& dst, int a, int b) {
  const int ndim = src.ndim();
  if (dst.ndim() != ndim) throw InvalidArgument("source and destination differ in rank");
  for (int d = 0; d < ndim; ++d)
    if (src.shape(d) != dst.shape(d)) throw InvalidArgument("source and destination differ in shape");
  if (a < 1 || b < 1 || a >= ndim || b >= ndim || a == b)
    throw InvalidArgument("a batch blurs two distinct axes after its first (the samples')");
  std::vector<std::int64_t> shape(static_cast<std::size_t>(ndim));
  std::vector<std::ptrdiff_t> ss(shape.size()), ds(shape.size());
  std::unique_ptr<bool[]> blurred(new bool[shape.size()]);
  for (int d = 0; d < ndim; ++d) {
    const auto i = static_cast<std::size_t>(d);
    shape[i] = src.shape(d), ss[i] = src.strides(d), ds[i] = dst.strides(d), blurred[i] = d == a || d == b;
  }
  int channel = fastblur::channel_axis(shape, ss, element_size(src.type), ds, element_size(dst.type),
                                       std::span<const bool>(blurred.get(), shape.size()));
  if (channel == 0 || (channel >= 0 && src.shape(channel) == 1)) channel = -1;  // the samples' axis is never channels
  SamplesLayout l;
  l.first_is_x = std::abs(src.strides(a)) <= std::abs(src.strides(b));
  const int x = l.first_is_x ? a : b, y = l.first_is_x ? b : a;
  l.sv.type = src.type, l.dv.type = dst.type;
  l.sv.channels = l.dv.channels = channel >= 0 ? static_cast<int>(src.shape(channel)) : 1;
  l.sv.extent = l.dv.extent = {src.shape(x), src.shape(y), 1};
  l.sv.stride = {src.strides(x), src.strides(y), 0};
  l.dv.stride = {dst.strides(x), dst.strides(y), 0};
  // The slices' axes, in order, must step as one axis in both arrays.
  std::vector<int> slices;
  for (int d = 0; d < ndim; ++d)
    if (d != a && d != b && d != channel && (d == 0 || src.shape(d) > 1)) slices.push_back(d);
  for (std::size_t k = 0; k + 1 < slices.size(); ++k) {
    const int d = slices[k], e = slices[k + 1];
    if (src.strides(d) != src.shape(e) * src.strides(e) || dst.strides(d) != dst.shape(e) * dst.strides(e))
      throw InvalidArgument("a batch whose slices are not one axis in memory");
  }
  std::int64_t n = 1;
  for (int d : slices) n *= src.shape(d);
  l.slices_per_sample = n / src.shape(0);
  l.sv.extent[2] = l.dv.extent[2] = n;
  l.sv.stride[2] = n > 1 ? src.strides(slices.back()) : l.sv.stride[1] * l.sv.extent[1];
  l.dv.stride[2] = n > 1 ? dst.strides(slices.back()) : l.dv.stride[1] * l.dv.extent[1];
  return l;
}

// Each slice's spec: its sample's requests on x and y (SciPy's order: the requests' own).
std::vector<BlurSpec> slice_specs(const SamplesLayout& l, const std::vector<SampleRequests>& samples, const BlurSpec& base) {
  std::vector<BlurSpec> specs;
  specs.reserve(samples.size() * static_cast<std::size_t>(l.slices_per_sample));
  for (const SampleRequests& r : samples) {
    BlurSpec spec = base;
    for (std::size_t i = 0; i < 2; ++i) {
      const AxisRequest& q = r[l.first_is_x ? i : 1 - i];
      spec.sigma[i] = q.sigma;
      spec.border[i] = q.border;
      spec.order[i] = q.order;
      if (q.radius >= 0) spec.radius[i] = q.radius;
      spec.weights[i] = q.weights;
    }
    spec.sigma[2] = 0.0;
    spec.axis_order = l.first_is_x ? std::array<int, 3>{0, 1, 2} : std::array<int, 3>{1, 0, 2};
    for (std::int64_t k = 0; k < l.slices_per_sample; ++k) specs.push_back(spec);
  }
  return specs;
}

void check_samples(const ArrayShape& src, const std::vector<SampleRequests>& samples) {
  if (src.ndim() < 3) throw InvalidArgument("a batch has a samples' axis and two blurred axes: at least 3 dimensions");
  if (static_cast<std::int64_t>(samples.size()) != src.shape(0))
    throw InvalidArgument("a sigma per sample: " + std::to_string(samples.size()) + " for " + std::to_string(src.shape(0)) +
                          " samples");
}

}  // namespace

void blur_sample_arrays(const py::array& src, py::array& dst, const std::vector<SampleRequests>& samples, const BlurSpec& base,
                        const Device& device) {
  if (!dst.writeable()) throw InvalidArgument("the output array is read-only");
  const ArrayShape s = ArrayShape::of(src), d = ArrayShape::of(dst);
  check_samples(s, samples);
  if (samples.empty()) return;
  SamplesLayout l = lay_out_samples(s, d, samples.front()[0].axis, samples.front()[1].axis);
  const std::vector<BlurSpec> specs = slice_specs(l, samples, base);
  l.sv.data = const_cast<void*>(src.data());
  l.dv.data = dst.mutable_data();
  py::gil_scoped_release release;
  blur_slices(l.sv, l.dv, specs, device);
}

void blur_cuda_sample_arrays(const CudaArray& src, const CudaArray& dst, const std::vector<SampleRequests>& samples,
                             const BlurSpec& base, int ordinal, std::uintptr_t stream) {
  check_samples(src.shape, samples);
  if (samples.empty()) return;
  const SamplesLayout l = lay_out_samples(src.shape, dst.shape, samples.front()[0].axis, samples.front()[1].axis);
  const std::vector<BlurSpec> specs = slice_specs(l, samples, base);
  py::gil_scoped_release release;
  cuda::blur_slices(device_view(l.sv, src.data), device_view(l.dv, dst.data), specs, ordinal, stream);
}

}  // namespace fastblur::python
