"""Arrays of other libraries (PyTorch, CuPy, JAX, ...), taken where they are (issue 30).

- CPU memory (``__dlpack__`` on the CPU): read and written in place through a NumPy view of the
  same bytes (``_core.import_dlpack``), the result given back as the caller's library's array
  (its ``from_dlpack``), no copy either way.
- CUDA memory (``__cuda_array_interface__``, or ``__dlpack__`` on a CUDA device): blurred on the
  same GPU by the Vulkan backend (fastblur/cuda.hpp: one device copy in and one out, on the
  library's current stream); a new output is the library's own ``empty_like``.

Nothing here chooses how to blur: the calls go to the core's front door as NumPy arrays do."""
import sys

import numpy as np

from . import _core, _mask_rules

_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13  # DLPack's device types
_LAYOUT_REFUSED = "a layout the copies cannot take"  # the core's words (src/cuda_arrays.cpp, check_view)
_OTHER_DEVICES = {4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI", 10: "ROCm", 11: "ROCm host", 12: "an extension device",
                  14: "oneAPI"}


def _library(x):
    return sys.modules.get(type(x).__module__.split(".")[0])


def _has_cuda_interface(x):
    try:
        return hasattr(x, "__cuda_array_interface__")
    except Exception:  # a library that refuses for this array (say a tensor that requires grad) says why later
        return True


def is_foreign(x):
    """Whether x is another library's array (not NumPy's) that speaks DLPack or CUDA's interface.
    The class is asked first: reading a tensor's __cuda_array_interface__ builds it (about 10 us in
    PyTorch), and a call asked it nine times."""
    if x is None or isinstance(x, (np.ndarray, np.generic, np.dtype, type, str)):
        return False
    kind = type(x)
    if hasattr(kind, "__cuda_array_interface__") or (hasattr(kind, "__dlpack__") and hasattr(kind, "__dlpack_device__")):
        return True
    return _has_cuda_interface(x) or (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"))


def on_cuda(x):
    """Whether x is a foreign array in CUDA memory: its DLPack device where it has one (a tuple,
    cheap), else whether it offers CUDA's interface."""
    if not is_foreign(x):
        return False
    if hasattr(x, "__dlpack_device__"):
        try:
            device = int(x.__dlpack_device__()[0])
        except Exception:  # a library that refuses (say a tensor that requires grad): its interface says why later
            return _has_cuda_interface(x)
        if device in (_CUDA, _CUDA_MANAGED):
            return True
        if device in (_CPU, _CUDA_HOST):
            return False
    return _has_cuda_interface(x)


def _from_dlpack(like):
    """The from_dlpack of like's library, or raises TypeError naming the library."""
    root = _library(like)
    for path in ("from_dlpack", "utils.dlpack.from_dlpack", "dlpack.from_dlpack"):
        f = root
        for part in path.split("."):
            f = getattr(f, part, None)
        if callable(f):
            return f
    raise TypeError(f"fastblur gives results back through the array's library's from_dlpack, which "
                    f"{type(like).__module__} lacks: pass a NumPy array or output= an array of your own")


def host_view(x):
    """A foreign CPU array as a writable NumPy array over its bytes; anything else as it is."""
    if not is_foreign(x):
        return x
    device = tuple(int(v) for v in x.__dlpack_device__())
    if device[0] not in (_CPU, _CUDA_HOST):
        where = _OTHER_DEVICES.get(device[0], "another device")
        raise ValueError(f"fastblur takes arrays in CPU or CUDA memory, not on {where} (DLPack device {device})")
    return _core.import_dlpack(x.__dlpack__())[2]


def give_back(result, like, given_output):
    """The call's result in the caller's kind: the caller's own output array where one was given,
    else like's library's array over result's bytes (NumPy's result where like is NumPy's)."""
    if is_foreign(given_output):
        return given_output
    if is_foreign(like):
        return _from_dlpack(like)(result)
    return result


class CudaArray:
    """A foreign array in CUDA memory: its interface (data, shape, strides, typestr), device ordinal
    and the stream its library is working on."""

    def __init__(self, x, interface=None):
        self.obj = x
        self._owner = None  # keeps a DLPack capsule's tensor alive for the call
        if interface is None:
            try:
                interface = x.__cuda_array_interface__  # read once: building it costs the library
            except AttributeError:
                interface = None
        if interface is not None:
            self.interface = dict(interface)
            self.ordinal = _core.cuda_device_of(int(self.interface["data"][0])) if self.interface["data"][0] else 0
            self.stream = self._library_stream()
            if self.stream is None:
                stream = self.interface.get("stream")  # the producer's (version 3); None: the default stream
                self.stream = int(stream) if stream is not None else 0
        else:
            self.ordinal = int(x.__dlpack_device__()[1])
            self.stream = self._library_stream()
            if self.stream is None:
                self.stream = 0
            # DLPack's stream numbers: 1 is the legacy default stream (0 is not allowed).
            _, _, self.interface = _core.import_dlpack(x.__dlpack__(stream=self.stream or 1))
            self._owner = self.interface.pop("owner")
        self.shape = tuple(int(n) for n in self.interface["shape"])
        self.ndim = len(self.shape)
        self.dtype = np.dtype(self.interface["typestr"])
        self.interface.setdefault("strides", None)  # absent: C order

    def _library_stream(self):
        """The current stream of the array's library on its device (the caller's stream), if known."""
        name = type(self.obj).__module__.split(".")[0]
        if name == "torch":
            import torch
            return int(torch.cuda.current_stream(self.ordinal).cuda_stream)
        if name == "cupy":
            import cupy
            with cupy.cuda.Device(self.ordinal):
                return int(cupy.cuda.get_current_stream().ptr)
        return None

    def c_ordered(self):
        """Whether its elements lie in C order with no gaps."""
        strides, step = self.interface["strides"], self.dtype.itemsize
        if strides is None:
            return True
        for n, stride in zip(reversed(self.shape), reversed(strides)):
            if n > 1 and stride != step:
                return False
            step *= n
        return True

    def empty_like(self, dtype=None):
        """A new array of the same library, shape and device (C order)."""
        lib = _library(self.obj)
        name = lib.__name__ if lib else "?"
        if dtype is not None and np.dtype(dtype) != self.dtype:
            raise NotImplementedError("for CUDA arrays output= is None or an array of the same library, not a dtype")
        if name == "torch":
            import torch
            return torch.empty(self.shape, dtype=self.obj.dtype, device=self.obj.device)
        if name == "cupy":
            import cupy
            with cupy.cuda.Device(self.ordinal):
                return cupy.empty(self.shape, dtype=self.dtype)
        f = getattr(lib, "empty_like", None)
        if f is None:
            raise TypeError(f"fastblur makes a CUDA result with its library's empty_like, which {name} lacks: "
                            "pass output= an array of your own")
        return f(self.obj)

    def contiguous(self):
        """A C-ordered copy by the array's library (for layouts the core cannot copy as they are)."""
        name = type(self.obj).__module__.split(".")[0]
        if name == "torch":
            return CudaArray(self.obj.contiguous())
        if name == "cupy":
            import cupy
            return CudaArray(cupy.ascontiguousarray(self.obj))
        out = CudaArray(self.empty_like())
        out.obj[...] = self.obj
        return out


def cuda_filter(src, output, active, cval, truncate, algorithm, tolerance, options, rounding, requests, signature=None,
                missing=None):
    """Blurs the CudaArray `src` into `output` (None, or a CUDA array of a library) along the
    active axes, as __init__._filter does for NumPy arrays; returns the output array. A call the
    core runs in one prepared call is remembered under `signature` (repeat_call's key). `missing`:
    (omit_nan, preserve_nan) for data with holes, the core's normalized convolution on the device."""
    if output is not None and is_foreign(output):
        dst = CudaArray(output, signature[2][3] if signature is not None else None)
    else:
        dst = CudaArray(src.empty_like(output))
    if dst.shape != src.shape:
        raise RuntimeError("output shape not correct")
    if dst.ordinal != src.ordinal:
        raise ValueError(f"input and output are on different CUDA devices ({src.ordinal} and {dst.ordinal})")
    if not active or 0 in src.shape:
        if active:
            _core.check_axes(*requests(active, with_weights=False)[:5])
        dst.obj[...] = src.obj
        return dst.obj
    if missing is not None:
        return _cuda_filter_missing(src, dst, active, cval, truncate, algorithm, tolerance, options, requests, missing)
    work = dst
    for start in range(0, len(active), 3):  # the core filters up to three axes per call
        args = (*requests(active[start:start + 3]), cval, truncate, algorithm, tolerance, options, rounding)
        source = src if start == 0 else work
        try:
            call = _core.prepare_cuda_axes(source.interface, work.interface, src.ordinal, *args)
        except ValueError as e:  # a layout the core's copies cannot take: C-ordered copies by the library
            if _LAYOUT_REFUSED not in str(e) or start > 0:
                raise
            src = src if src.c_ordered() else src.contiguous()
            work = dst if dst.c_ordered() else CudaArray(dst.empty_like())
            call, signature = _core.prepare_cuda_axes(src.interface, work.interface, src.ordinal, *args), None
        call.run(int(source.interface["data"][0]) if start else int(src.interface["data"][0]),
                 int(work.interface["data"][0]), src.stream)
        if signature is not None and len(active) <= 3 and work is dst:
            _remember(signature[0], call)
    if work is not dst:
        dst.obj[...] = work.obj
    return dst.obj


def _cuda_filter_missing(src, dst, active, cval, truncate, algorithm, tolerance, options, requests, missing):
    """Data with holes: one core call over up to three axes (the weights cannot be split across
    calls), C-ordered copies where the core's copies cannot take the layout."""
    if len(active) > 3:
        raise NotImplementedError("missing data (nan_policy='omit', mask) is blurred over at most three axes a call")
    omit_nan, preserve_nan, mask = missing
    mask = cuda_mask(mask, src) if mask is not None else None
    args = (*requests(active), float(cval), truncate, algorithm, tolerance, options)
    work = dst

    def run(src, work):
        _core.blur_cuda_axes_missing(src.interface, work.interface, src.ordinal, omit_nan, preserve_nan, *args, src.stream,
                                     mask=mask.interface if mask is not None else None)

    try:
        run(src, work)
    except ValueError as e:
        if _LAYOUT_REFUSED not in str(e):
            raise
        src = src if src.c_ordered() else src.contiguous()
        work = dst if dst.c_ordered() else CudaArray(dst.empty_like())
        run(src, work)
    if work is not dst:
        dst.obj[...] = work.obj
    return dst.obj


def cuda_mask(mask, data):
    """A call's mask on CUDA arrays as the core takes it (fastblur/cuda.hpp): a C-ordered CUDA array
    of the data's shape on its device, bytes where it flags missing values (nonzero = missing) or
    float32 / float16 certainty weights; or raises. A PyTorch or CuPy mask is made so by its library
    (bool or integers as flags, other floats as float32, broadcast to the data's shape) and its
    weights checked to lie in [0, 1] (one reduction on the device, and a wait for it); another
    library's mask must already be so (its weights are taken as given)."""
    if not on_cuda(mask):
        raise TypeError("with CUDA arrays the mask is a CUDA array too (on the data's device), not "
                        f"{type(mask).__name__}")
    m = CudaArray(mask)
    if m.ordinal != data.ordinal:
        raise ValueError(f"the mask is on CUDA device {m.ordinal}, the data on {data.ordinal}")
    _mask_rules.check_mask(m.dtype, m.shape, data.shape)
    name = type(mask).__module__.split(".")[0]
    if name == "torch":
        import torch
        x = (mask != 0).to(torch.uint8) if m.dtype.kind in "biu" else mask if m.dtype == np.float16 else mask.float()
        x = x.broadcast_to(data.shape).contiguous()
    elif name == "cupy":
        import cupy
        with cupy.cuda.Device(data.ordinal):
            x = (mask != 0).astype(cupy.uint8) if m.dtype.kind in "biu" else mask if m.dtype == np.float16 else \
                mask.astype(cupy.float32)
            x = cupy.ascontiguousarray(cupy.broadcast_to(x, data.shape))
    else:
        if m.shape != data.shape or not m.c_ordered() or m.dtype not in (np.bool_, np.uint8, np.float16, np.float32):
            raise TypeError(f"a CUDA mask of {name} is taken as the core takes it: C-ordered, the data's shape "
                            f"{data.shape}, bool or uint8 flags or float16/float32 weights (or give a PyTorch or "
                            "CuPy mask)")
        if m.dtype == np.bool_:
            m.interface["typestr"] = "|u1"  # the same bytes: nonzero = missing
        return m
    if m.dtype.kind == "f" and bool(((x < 0) | (x > 1) | (x != x)).any()):
        raise ValueError("mask weights must lie in [0, 1] (NaN is no weight)")
    return CudaArray(x)


# ---------------------------------------------------------------------------------------------
# Calls repeated: a PyTorch or CuPy array's call whose signature (the arrays' library, shapes,
# strides, dtypes and device, and every argument) was seen before runs its prepared core call on
# the new pointers, with no interface built, nothing checked again (the same arguments pass the
# same checks) and nothing laid out or planned: Python's share of a call stays a few microseconds.

_PREPARED = {}
_PREPARED_MOST = 256  # a full table starts over


def _remember(signature, call):
    if len(_PREPARED) >= _PREPARED_MOST:
        _PREPARED.clear()
    _PREPARED[signature] = call


def _described(x):
    """What a repeated call depends on of a CUDA array - (kind, shape, strides, dtype, ordinal), its
    pointer, its stream and the interface read (None where none was) - or None: PyTorch's and CuPy's read from their own attributes (building
    __cuda_array_interface__ costs PyTorch about 10 us), others from their interface."""
    kind = type(x)
    torch, cupy = sys.modules.get("torch"), sys.modules.get("cupy")
    if torch is not None and kind is torch.Tensor:
        if not x.is_cuda or x.requires_grad:
            return None
        ordinal = x.device.index
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        stream = raw(ordinal) if raw is not None else torch.cuda.current_stream(ordinal).cuda_stream
        return (kind, x.shape, x.stride(), x.dtype, ordinal), x.data_ptr(), int(stream), None
    if cupy is not None and kind is cupy.ndarray:
        ordinal = x.device.id
        with cupy.cuda.Device(ordinal):
            stream = cupy.cuda.get_current_stream().ptr
        return (kind, x.shape, x.strides, x.dtype, ordinal), x.data.ptr, int(stream), None
    if not hasattr(kind, "__cuda_array_interface__"):
        return None
    interface = x.__cuda_array_interface__
    pointer = int(interface["data"][0])
    if not pointer:
        return None
    strides = interface.get("strides")
    stream = interface.get("stream")
    return ((kind, tuple(interface["shape"]), tuple(strides) if strides is not None else None, interface["typestr"],
             _core.cuda_device_of(pointer)), pointer, int(stream) if stream is not None else 0, interface)


def _typed(value):
    """An argument as a key: with its type (order=1 and order=1.0 are checked differently), sequences
    element by element."""
    if isinstance(value, (tuple, list)):
        return (type(value),) + tuple((type(v), v) for v in value)
    return type(value), value


def signature_of(input, output, arguments):
    """A call on CUDA arrays described for repeat_call - its key (the arrays' kind, shapes, strides,
    dtypes and devices, and the call's arguments) and what _described read of each array - or
    None where no prepared call can serve it."""
    try:
        arguments = tuple(_typed(a) for a in arguments)
        x = _described(input)
        if x is None or not x[1]:
            return None
        out = None
        if output is not None:
            out = _described(output)
            if out is None or not out[1]:
                return None
        key = (x[0], out[0] if out else None, arguments)
        hash(key)
        return key, x, out
    except TypeError:  # an unhashable argument (a list of sigmas in a list, a NumPy array): the full path
        return None


def _new_output(input, described):
    """A new C-ordered array like input, of its library (as CudaArray.empty_like makes one)."""
    kind, shape, _, dtype, ordinal = described[0]
    if kind.__module__.split(".")[0] == "torch":
        return sys.modules["torch"].empty(shape, dtype=dtype, device=input.device)
    if kind.__module__.split(".")[0] == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(ordinal):
            return cupy.empty(shape, dtype=dtype)
    return CudaArray(input).empty_like()


def repeat_call(input, output, signature):
    """The result of a call whose signature has a prepared core call, or None (the full path then)."""
    call = _PREPARED.get(signature[0])
    if call is None:
        return None
    key, x, out = signature
    if output is None:
        output = _new_output(input, x)
        out = _described(output)
    call.run(x[1], out[1], x[2])
    return output
