"""fastblur: fast Gaussian blur of images and volumes.

``fastblur.gaussian_filter``, ``gaussian_filter1d``, ``gaussian_laplace`` and
``gaussian_gradient_magnitude`` take the arguments of their ``scipy.ndimage`` namesakes (SciPy
1.11+, including ``radius`` and ``axes``) and return the same results, computed by fastblur's C++ core (SIMD, threads, the GIL
released). Beyond SciPy they accept ``algorithm``/``tolerance`` (fastblur's approximations and
planner), ``threads``, ``device`` and ``rounding``.

Three contracts, one per kind of request (the core's ``Rounding``, blur.hpp; ``fastblur.plan()``
shows the plan each call runs, and the call runs exactly that plan):

- The default (``rounding='scipy'``, exact): SciPy's bits on every dtype SciPy accepts (bool,
  uint8 ... int64, float32, float64, complex) - the core's scipy-order driver sums SciPy's own
  weights in SciPy's order in double and converts to the output type after each axis (integers
  truncated toward zero, as SciPy does: a constant image of 7 in uint8 can come back as 6), and a
  call over several axes equals its sequence of one-axis calls.
- ``rounding='nearest'`` (exact): the exact result rounded once; integer outputs to nearest and
  saturated, every value within 1 of the correctly rounded result (8-bit images run in 16-bit
  fixed point, as OpenCV's bit-exact path; about 1% of values are off by one), float outputs to
  their precision. 32-bit integers, and 8- and 16-bit volumes blurred on every axis with up to 17
  taps along z (sigma 2), get the correctly rounded result itself: SciPy's order in double, rounded
  once, at about the default's cost.
- ``tolerance > 0`` (or a named approximate algorithm, or ``device='vulkan'``): the planner's
  fastest schedule within the bound on every dtype (float lanes, approximations), rounded once to
  nearest whatever ``rounding`` says - such a request is not SciPy's filter.

What each contract costs (2 threads, measured 2026-11-28 against ``cv2.GaussianBlur`` and
``scipy.ndimage`` alternated in one process: ``bench/dropin_vs_opencv.py``, ``bench/dropin_dtypes.py``):
the default is a direct sum, SciPy's own arithmetic, so its cost grows with sigma - a float32 RGBA
image of 2.4 megapixels takes 6 ms at kernel size 7, 17 ms at 35, 60 ms at 127 and 167 ms at sigma
50 (2.1x, 2.8x, 5.4x, 7.8x OpenCV); uint8 RGB 1700x1000 3.0 ms at sigma 1.2 and 10.2 ms at sigma 6
(0.7x and 1.1x OpenCV: its 8-bit fixed point is cheaper than SciPy's truncated sums, which fastblur
computes in float32 with an error bound); 10-11x SciPy on float64, uint16 and uint8 images,
8.5-8.9x on float32 volumes. ``rounding='nearest'`` runs the planner's exact engine, constant in
sigma where that pays (within 1e-5 of the float64 result): 5 ms, 11 ms, 17 ms and 18 ms for the same
four (2.4x, 4.5x, 19x, 74x OpenCV), uint8 RGB 1.8-2.5x OpenCV. Ask for it when SciPy's exact bits do
not matter; ``tolerance=`` trades accuracy for more.

``fastblur.patch_scipy()`` (or ``with fastblur.scipy_patched():``) routes scipy.ndimage's four
Gaussian functions through these, so scikit-image and any other library calling them run on
fastblur with SciPy's results; ``unpatch_scipy()`` undoes it.

Other differences from SciPy, all deliberate: float16 arrays are accepted (SciPy raises
RuntimeError), computed in double and rounded to float16 after each axis. ``device='vulkan'``
computes on a GPU (``fastblur.devices()`` lists them) in float32 whatever the dtype.

The rest of the library is here for people who write engines and compare algorithms:
``plan`` (which algorithm the planner picks and its predicted error), ``analyze`` (the accuracy
metrics of an algorithm), and the kernel helpers (Gaussian weights, linear-sampling pairs, Kawase
schedules, box passes, sliding-DCT series) as NumPy arrays.
"""
import functools
import numbers

import numpy as np

from . import _core
from ._scipy_args import (active_axes, axis_1d, check_axes, check_order, get_output, kernel_radius, mode_name, new_output,
                          normalize_sequence, scipy_kernel, scipy_kernels)
from . import _foreign_arrays, _gaussian_family, _mask_rules, _scipy_patch

__all__ = [
    "gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude", "correlate1d",
    "gaussian_filter_batch",
    "patch_scipy", "unpatch_scipy", "scipy_patched", "plan", "analyze", "algorithms", "devices",
    "gaussian_kernel", "linear_sampling", "linear_sampling_gaussian", "linear_sampling_2d",
    "kawase_schedule", "kawase_kernel", "kawase_presets", "box_passes", "sliding_dct_kernel",
    "binomial_kernel", "incremental_gaussian", "radius_for_precision", "sigma_for_precision",
    "set_kept_output_limit",
]

__version__ = _core.version()

_ROUNDINGS = ("scipy", "nearest")


def set_kept_output_limit(nbytes):
    """Bytes of freed outputs fastblur keeps for the next outputs (default 512 MiB or a 16th of
    the machine's memory, the less; ``FASTBLUR_KEPT_OUTPUT_MIB`` when the module loads); returns the
    old limit. An output of 1 MiB or more that fastblur allocates (``output=None`` or a dtype) is
    written into the memory of one freed earlier of the same size rounded to 2 MiB, whose pages are
    already backed: a new array's pages are zeroed by the kernel on first write (2-3.5 ms for 37.7
    MB here, a third of a small blur). Such arrays do not own their data (their ``base`` returns the
    memory when freed). ``0`` keeps nothing and frees what is kept."""
    if int(nbytes) < 0:
        raise ValueError(f"the kept output limit is a number of bytes, 0 or more, not {nbytes!r}")
    return _core.set_kept_output_limit(int(nbytes))


def devices():
    """Where fastblur can compute: a list of dicts, the CPU first (``name`` 'cpu'), then each
    Vulkan device (``name`` 'vulkan:N', ``device_name``, ``type``, ``memory_bytes``, ...). Pass a
    ``name`` as ``device=`` to the filters."""
    return _core.devices()


def algorithms():
    """Every algorithm of this build: a list of dicts with ``name``, ``summary``, ``gpu_only``
    (True for GPU techniques: use them with ``device='vulkan'``) and ``planar``
    (True for algorithms that blur two axes together and so need exactly two axes)."""
    return _core.algorithms()


def _check_common(algorithm, tolerance, device, threads, rounding, options):
    """The fastblur keywords' Python types here; their values by the core's rules (validate.hpp), which
    name each as a keyword (``tolerance=-1 must be ...``), as the command line's name it as --tolerance."""
    if not isinstance(algorithm, str):
        raise TypeError("algorithm must be a string such as 'auto', 'fir' or 'box'")
    tolerance = float(tolerance)
    if not isinstance(device, str):
        raise TypeError("device must be a string: 'cpu', 'vulkan', 'vulkan:N' or 'vulkan:NAME'")
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise ValueError(f"threads must be an integer >= 0 (0 = every core), got {threads!r}")
    _core.check_options(tolerance, max(-(1 << 63), min(int(threads), (1 << 63) - 1)))
    _core.check_device(device)
    if rounding not in _ROUNDINGS:
        raise ValueError(f"rounding must be 'scipy' or 'nearest', got {rounding!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TypeError("options must be a dict of algorithm options")
    return tolerance, int(threads), options


def _requests(group, with_weights=True):
    """The core's per-axis arguments for (axis, sigma, order, mode, radius) tuples, with SciPy's own
    weights (NumPy's arithmetic, as gaussian_filter1d computes them) so that the core's scipy-order
    driver sums them to SciPy's bits; a radius beyond the core's limit is left to the core to refuse.
    A Vulkan device (CUDA arrays included) rounds to nearest whatever the request: its kernel is the
    core's own, and no weights are made (with_weights=False)."""
    weights = [_scipy_weight_list(sigma, order, radius) if with_weights and radius <= _core.MAX_RADIUS else []
               for _, sigma, order, _, radius in group]
    radii = [float(min(g[4], 10 ** 300)) for g in group]  # any Python int; the core names it if too large
    return ([g[0] for g in group], [g[1] for g in group], [g[3] for g in group], radii, [g[2] for g in group], weights)


@functools.lru_cache(maxsize=64)
def _scipy_weight_list(sigma, order, radius):
    """scipy_kernel's weights as a tuple, remembered: a small array's call spent a third of its time
    recomputing them (the same NumPy operations give the same bits every time)."""
    return tuple(scipy_kernel(sigma, order, radius).tolist())


def _scipy_weights(device, rounding, algorithm, tolerance):
    """Whether a call sends SciPy's weights (NumPy's arithmetic): only where the core gives SciPy's
    bits (its rule: the CPU, the exact result). Otherwise the core's own kernel, which it may fold
    where a radius reaches beyond the axis (a tolerance's shorter fir on an RGB array's channels)."""
    return rounding == "scipy" and _core.gives_scipy_bits(algorithm, tolerance, device, rounding)


def _vulkan_requests(group, with_weights=False):
    """_requests for a Vulkan device (CUDA arrays): the core's kernel, no SciPy weights."""
    return _requests(group, with_weights=False)


def _native(a):
    return a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("="))


def _filter(input, output, active, cval, truncate, algorithm, tolerance, threads, options, rounding, device):
    """Blurs input into output along the active axes: (axis, sigma, order, mode, radius) each, in
    SciPy's order. Every choice (algorithm, driver, working precision, rounding) is the core's plan;
    here the arrays are only marshalled: complex data as its real and imaginary parts, other byte
    orders through native copies, more than three axes in groups of three."""
    if input.dtype.kind == "c" and output.dtype.kind == "c":  # real and imaginary parts apart, as SciPy does
        one_cval = (isinstance(cval, numbers.Number) and np.imag(cval) == 0
                    and (cval == 0 or all(g[3] != "constant" for g in active)))
        if one_cval and input.ndim > 0 and input.flags.c_contiguous and output.flags.c_contiguous:
            # The parts as a trailing axis of two, not filtered: each part's arithmetic as SciPy's, in one
            # call over packed pairs (the parts apart were strided views: 2x SciPy, against 8x for reals).
            # Both parts then share one cval (the imaginary part's is 0): where a constant border reads it, 0.
            def as_parts(a):
                return a.view(a.real.dtype).reshape(a.shape + (2,))
            _filter(as_parts(input), as_parts(output), active, float(np.real(cval)), truncate, algorithm, tolerance,
                    threads, options, rounding, device)
            return
        parts = ((input.real, np.real(cval)), (input.imag, np.imag(cval)))
        if np.may_share_memory(input, output):
            parts = tuple((p.copy(), c) for p, c in parts)
        for (part, c), out in zip(parts, (output.real, output.imag)):
            _filter(part, out, active, float(c), truncate, algorithm, tolerance, threads, options, rounding, device)
        return
    if not isinstance(cval, numbers.Number) or isinstance(cval, complex) or np.iscomplexobj(cval):
        raise TypeError(f"must be real number, not {type(cval).__name__}")
    cval = float(cval)
    _core.check_cval(cval, rounding)  # the core's rule: finite unless SciPy's rounding
    if output.dtype.kind == "c" and input.dtype.kind != "c" and active:
        raise RuntimeError(f"array type {output.dtype!r} not supported")  # SciPy's correlate1d: real in, complex out
    if not active or input.size == 0:
        if active:  # nothing to blur, but the arguments are still checked
            _core.check_axes(*_requests(active, with_weights=False)[:5])
        np.copyto(output, input, casting="unsafe")
        return
    if output is not input and np.may_share_memory(input, output):
        input = input.copy()  # overlapping but not the same array: read a copy
    src = _native(input)
    dst = output if output.dtype.isnative else np.empty(input.shape, output.dtype.newbyteorder("="))
    for start in range(0, len(active), 3):  # the core filters up to three axes per call
        # Radii are explicit (SciPy's rule applied in _scipy_args), so the core's truncate is not used.
        _core.blur_axes(src if start == 0 else dst, dst, *_requests(active[start:start + 3], with_weights=_scipy_weights(device, rounding, algorithm, tolerance)),
                        cval, 4.0, algorithm, tolerance, threads, options, device, rounding)
    if dst is not output:
        output[...] = dst


_NAN_POLICIES = ("propagate", "omit")


def _missing_request(input, nan_policy, mask, preserve_nan):
    """What a call says of missing data: None for a plain blur (SciPy's), else (data, mask or None,
    omit_nan, preserve_nan). A numpy.ma.MaskedArray's mask is missing data too (or-ed with ``mask``)."""
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(f"nan_policy must be 'propagate' or 'omit', got {nan_policy!r}")
    masked = isinstance(input, np.ma.MaskedArray)
    if nan_policy == "propagate" and mask is None and not masked:
        if preserve_nan:
            raise ValueError("preserve_nan needs nan_policy='omit' or a mask")
        return None
    data = np.ma.getdata(input) if masked else input
    if mask is not None:
        mask = np.asarray(mask)
        _mask_rules.check_mask(mask.dtype, mask.shape, np.shape(data))
        mask = np.broadcast_to(mask, np.shape(data))
        if mask.dtype.kind in "iu":
            mask = mask != 0
    if masked:
        m = np.ma.getmaskarray(input)
        mask = m if mask is None else (m | mask if mask.dtype == bool else np.where(m, 0.0, mask))
    if mask is not None:
        mask = np.ascontiguousarray(mask, dtype=np.uint8 if mask.dtype == bool else np.float64)
    return data, mask, nan_policy == "omit", bool(preserve_nan)


def _cuda_missing(nan_policy, mask, preserve_nan):
    """What a call on CUDA arrays says of missing data: None for a plain blur, else (omit_nan,
    preserve_nan, mask) for the core's normalized convolution on the device (fastblur/cuda.hpp); the
    mask, a CUDA array or None, is checked and laid out by _foreign_arrays.cuda_mask."""
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(f"nan_policy must be 'propagate' or 'omit', got {nan_policy!r}")
    if nan_policy == "propagate" and mask is None:
        if preserve_nan:
            raise ValueError("preserve_nan needs nan_policy='omit' or a mask")
        return None
    return nan_policy == "omit", bool(preserve_nan), mask


def _filter_missing(input, output, active, missing, cval, algorithm, tolerance, threads, options, device):
    """A blur of data with holes, the core's normalized convolution (fastblur::blur with MissingData):
    one core call for up to three filtered axes (the weights cannot be split across calls)."""
    data, mask, omit_nan, preserve_nan = missing
    if input.dtype.kind == "c":
        raise NotImplementedError("missing data (nan_policy='omit', mask) takes real arrays")
    if len(active) > 3:
        raise NotImplementedError("missing data (nan_policy='omit', mask) is blurred over at most three axes a call")
    if not isinstance(cval, numbers.Number) or isinstance(cval, complex):
        raise TypeError(f"must be real number, not {type(cval).__name__}")
    if not active or input.size == 0:
        if active:
            _core.check_axes(*_requests(active, with_weights=False)[:5])
        np.copyto(output, input, casting="unsafe")
        return
    src = _native(input)
    dst = output if (output.dtype.isnative and output.flags.c_contiguous) else np.empty(input.shape, output.dtype.newbyteorder("="))
    _core.blur_axes_missing(src, dst, mask, omit_nan, False, preserve_nan, *_requests(active, with_weights=device == "cpu"),
                            float(cval), 4.0, algorithm, tolerance, threads, options, device)
    if dst is not output:
        output[...] = dst


def _cuda_call(input, output, active_of, cval, truncate, algorithm, tolerance, device, threads, rounding, options,
               signature=None, missing=None):
    """A filter call on CUDA arrays: the common checks, those a CUDA call adds (the input itself in
    CUDA memory, a device that does not name another GPU: it runs on the array's own), the active
    axes (active_of(ndim), SciPy's argument rules) and the blur on the array's GPU. A call whose
    signature was seen before repeats its prepared core call (_foreign_arrays.repeat_call)."""
    if signature is not None:
        result = _foreign_arrays.repeat_call(input, output, signature)
        if result is not None:
            return result
    tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
    if not _foreign_arrays.on_cuda(input):
        raise TypeError("output is a CUDA array but input is not: give both in CUDA memory, or both in host memory")
    if device not in ("cpu", "vulkan"):
        raise ValueError(f"device={device!r}: a CUDA array is blurred on its own GPU; leave device out")
    src = _foreign_arrays.CudaArray(input, signature[1][3] if signature is not None else None)
    return _foreign_arrays.cuda_filter(src, output, active_of(src.ndim), cval, float(truncate), algorithm, tolerance,
                                       options, rounding, _vulkan_requests, signature, missing)


def _as_array(input):
    input = np.asarray(input)
    if input.dtype.kind not in "biufc":
        raise RuntimeError(f"array type {input.dtype!r} not supported")
    return input


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                    radius=None, axes=None, algorithm="auto", tolerance=0.0, device="cpu", threads=0,
                    rounding="scipy", options=None, nan_policy="propagate", mask=None, preserve_nan=False):
    """Multidimensional Gaussian filter, a drop-in for ``scipy.ndimage.gaussian_filter``.

    Parameters
    ----------
    input : array_like
        The array to blur: any shape (0-d included), a bool, integer, float or complex dtype. Arrays
        of other libraries are taken where they are: a CPU tensor (any ``__dlpack__`` producer) is
        read in place and the result is of its library; a CUDA array (PyTorch, CuPy,
        ``__cuda_array_interface__`` or DLPack on a CUDA device) is blurred on its own GPU by the
        Vulkan backend (uint8, uint16, float16 or float32; one device copy in and one out on the
        library's current stream), and the result is an array of its library on that device;
        ``fastblur.plan(shape, ..., device='vulkan')`` with the array's shape shows the plan it runs.
    sigma : scalar or sequence of scalars
        Standard deviation per axis (of ``axes``). Axes with sigma <= 1e-15 (zero, negative or NaN,
        as in SciPy) are left alone.
    order : int or sequence of ints, optional
        0 blurs; 1, 2, ... convolve with that derivative of the Gaussian (SciPy's kernels).
    output : array or dtype, optional
        The array to write (same shape; may be ``input`` itself) or the dtype of a new one. Default:
        a new array of input's dtype.
    mode : str or sequence of str, optional
        'reflect' (default), 'mirror', 'nearest', 'wrap', 'constant', or SciPy's synonyms
        'grid-mirror', 'grid-wrap', 'grid-constant'; one per axis allowed.
    cval : scalar, optional
        The value beyond the edges for 'constant'.
    truncate : float, optional
        Radius = int(truncate * sigma + 0.5) unless ``radius`` is given. Default 4.0.
    radius : None or int or sequence of ints, optional
        Explicit kernel radius per axis (SciPy 1.10+).
    axes : None or int or sequence of ints, optional
        The axes to filter (SciPy 1.11+); sigma, order, mode and radius then have one entry per
        axis in ``axes``. Default: every axis.
    algorithm : str, optional
        fastblur's algorithm (``fastblur.algorithms()`` describes each; planar ones blur two axes
        together and need a 2D array, or axes naming two axes; GPU-only ones need a Vulkan device):
@ALGORITHMS@
    tolerance : float, optional
        With 'auto': the largest max error of the impulse response (relative to the Gaussian's
        peak) the planner may trade for speed. 0 (default) is exact.
    device : str, optional
        'cpu' (default), 'vulkan' (the FASTBLUR_DEVICE environment variable, else the first
        discrete GPU, ...), 'vulkan:N' (an index into ``fastblur.devices()``) or 'vulkan:NAME'.
        On a Vulkan device the data travels and is computed as float32 (float64 arrays too), and
        integer results are rounded to nearest, so they may differ from SciPy's by one per axis; an
        algorithm the device lacks raises NotImplementedError, never a silent CPU fallback; no
        device raises RuntimeError.
    threads : int, optional
        Threads to use; 0 (default) uses every core.
    rounding : {'scipy', 'nearest'}, optional
        For exact requests on the CPU: 'scipy' (default) gives SciPy's bits on every dtype (the
        output type after each axis, integers truncated) by SciPy's direct sum, whose cost grows
        with sigma; 'nearest' rounds once at the end, every integer within 1 of the correctly
        rounded result (that result itself for 32-bit integers and 8-/16-bit volumes up to 17 z
        taps), on the planner's exact engine (constant in sigma where that pays: a float32
        RGBA 2000x1200 image at sigma 50 takes 18 ms against the default's 167 ms, 2 threads;
        the package docstring has the table). Requests with a tolerance, an approximate algorithm
        or a Vulkan device always round to nearest.
    options : dict, optional
        Algorithm options by key (bad keys or values raise ValueError):
@OPTIONS@
    nan_policy : {'propagate', 'omit'}, optional
        'propagate' (default): SciPy's behaviour, a NaN spreads over its kernel. 'omit': NaNs are
        missing data - the result is the normalized convolution G*(x w) / G*w with w 0 at the NaNs,
        computed by one blur of the values and their weights together (about the cost of one
        blur; rounded to nearest, not SciPy's bits, which SciPy does not define for it).
    mask : array_like, optional
        Missing data by mask, of the input's shape (or broadcast to it): bool, True = missing
        (numpy.ma's convention), or float certainty weights in [0, 1]. A numpy.ma.MaskedArray input's
        mask counts too (the result is a plain array). Where no valid sample lies under the kernel
        the output is NaN (float) or ``cval`` (integers). ``mode='constant'`` with ``cval=nan``
        treats everything outside the array as missing; with a number, as present with that value.
        With CUDA arrays the mask is a CUDA array of the same library and device (bool or integer:
        nonzero = missing; float: weights, checked on the device by the library); a constant border
        there takes ``cval=nan`` only.
    preserve_nan : bool, optional
        With ``nan_policy='omit'`` or a mask: NaN in the output where the input had NaN.

    Returns
    -------
    ndarray
        The output array.

    Raises
    ------
    RuntimeError
        As SciPy: a sequence argument of the wrong length, an unknown mode, a wrong output shape,
        a real output for complex input, an unsupported dtype.
    ValueError
        As SciPy: a negative order or radius, bad axes; and bad fastblur options.
    TypeError
        A non-integer order.
    MemoryError
        When the blur's buffers cannot be allocated.

    Notes
    -----
    The three contracts (``rounding``, ``tolerance``) are stated in the package docstring;
    ``fastblur.plan()`` with the same arguments returns the plan this call runs.
    """
    if _foreign_arrays.on_cuda(input) or _foreign_arrays.on_cuda(output):
        missing = _cuda_missing(nan_policy, mask, preserve_nan)
        signature = None if options or missing else _foreign_arrays.signature_of(
            input, output, ("gaussian_filter", sigma, order, mode, cval, truncate, radius, axes, algorithm, tolerance,
                            device, threads, rounding))
        return _cuda_call(input, output, lambda ndim: active_axes(ndim, sigma, order, mode, truncate, radius, axes),
                          cval, truncate, algorithm, tolerance, device, threads, rounding, options, signature, missing)
    like, given_output = input, output
    missing = _missing_request(input, nan_policy, mask, preserve_nan)
    if missing is not None:
        input = missing[0]
    input, output = _as_array(_foreign_arrays.host_view(input)), _foreign_arrays.host_view(output)
    tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
    output = get_output(output, input, check_complex=False)
    if missing is not None:
        active = active_axes(input.ndim, sigma, order, mode, truncate, radius, axes)
        _filter_missing(input, output, active, missing, cval, algorithm, tolerance, threads, options, device)
        return _foreign_arrays.give_back(output, like, given_output)

    def first_axis_output_checks():  # SciPy's correlate1d on the first filtered axis
        if input.dtype.kind == "c" and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if output.dtype.kind == "c" and input.dtype.kind != "c":
            raise RuntimeError(f"array type {output.dtype!r} not supported")

    active = active_axes(input.ndim, sigma, order, mode, truncate, radius, axes, after_first=first_axis_output_checks)
    _filter(input, output, active, cval, float(truncate), algorithm, tolerance, threads, options, rounding, device)
    return _foreign_arrays.give_back(output, like, given_output)


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None, algorithm="auto", tolerance=0.0, device="cpu", threads=0, rounding="scipy",
                      options=None, nan_policy="propagate", mask=None, preserve_nan=False):
    """One-dimensional Gaussian filter along ``axis``, a drop-in for
    ``scipy.ndimage.gaussian_filter1d``.

    ``sigma`` is a scalar (as in SciPy, a sigma of 0 raises ZeroDivisionError and a negative one a
    ValueError for the negative radius it implies); ``order``, ``output``, ``mode``, ``cval``,
    ``truncate`` and ``radius`` as in :func:`gaussian_filter`, one value each; ``axis`` out of
    range raises numpy's AxisError. The fastblur keywords are those of :func:`gaussian_filter`.

    Returns
    -------
    ndarray
        The output array.
    """
    if _foreign_arrays.on_cuda(input) or _foreign_arrays.on_cuda(output):
        missing = _cuda_missing(nan_policy, mask, preserve_nan)
        signature = None if options or missing else _foreign_arrays.signature_of(
            input, output, ("gaussian_filter1d", sigma, axis, order, mode, cval, truncate, radius, algorithm, tolerance,
                            device, threads, rounding))
        return _cuda_call(input, output, lambda ndim: axis_1d(ndim, sigma, axis, order, mode, truncate, radius),
                          cval, truncate, algorithm, tolerance, device, threads, rounding, options, signature, missing)
    like, given_output = input, output
    missing = _missing_request(input, nan_policy, mask, preserve_nan)
    if missing is not None:
        input = missing[0]
    input, output = _as_array(_foreign_arrays.host_view(input)), _foreign_arrays.host_view(output)
    tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
    active = axis_1d(input.ndim, sigma, axis, order, mode, truncate, radius)
    output = get_output(output, input)
    if missing is not None:
        _filter_missing(input, output, active, missing, cval, algorithm, tolerance, threads, options, device)
        return _foreign_arrays.give_back(output, like, given_output)
    _filter(input, output, active, cval, float(truncate), algorithm, tolerance, threads, options, rounding, device)
    return _foreign_arrays.give_back(output, like, given_output)


def _sample_sigmas(sigma, n):
    """A batch's sigma as an (n, 2) array: a scalar for every sample and axis, shape (n,) a sample's
    for both axes, (n, 2) per sample and axis, (1, 2) one pair for every sample."""
    s = np.asarray(sigma, dtype=np.float64)
    if s.ndim == 0:
        return np.full((n, 2), float(s))
    if s.ndim == 1 and len(s) == n:
        return np.repeat(s[:, None], 2, axis=1)
    if s.ndim == 2 and s.shape[1] == 2 and s.shape[0] in (1, n):
        return np.broadcast_to(s, (n, 2))
    raise ValueError(f"sigma for a batch of {n} samples: a scalar, shape ({n},), ({n}, 2) or (1, 2), not {s.shape}")


def _sample_requests(sigmas, order, radius, truncate, with_weights):
    """The core's per-sample arguments: each sample's two sigmas (0 where not above 1e-15, as SciPy
    skips such an axis), radii (SciPy's rule) and, for SciPy's bits, SciPy's weights - computed for
    all samples of one radius at once (scipy_kernels)."""
    n = len(sigmas)
    active = sigmas > _core.SIGMA_CUTOFF
    radii = np.zeros((n, 2), dtype=np.int64)
    for a in range(2):
        if radius[a] is not None:  # SciPy's rule, checked once: the given radius for every active sample
            radii[:, a] = np.where(active[:, a], kernel_radius(1.0, truncate, radius[a]), 0)
        else:  # int(truncate * sigma + 0.5) in float64, as kernel_radius computes it
            radii[:, a] = np.where(active[:, a], (float(truncate) * sigmas[:, a] + 0.5).astype(np.int64), 0)
    radii = radii.tolist()
    weights = [[[], []] for _ in range(n)]
    if with_weights:
        for a in range(2):
            if order[a] != 0:
                for i in range(n):
                    if sigmas[i, a] > _core.SIGMA_CUTOFF:
                        weights[i][a] = scipy_kernel(float(sigmas[i, a]), order[a], radii[i][a]).tolist()
                continue
            groups = {}
            for i in range(n):
                if sigmas[i, a] > _core.SIGMA_CUTOFF and radii[i][a] <= _core.MAX_RADIUS:
                    groups.setdefault(radii[i][a], []).append(i)
            for r, members in groups.items():
                for i, w in zip(members, scipy_kernels(sigmas[members, a], r)):
                    weights[i][a] = w.tolist()
    sig = np.where(active, sigmas, 0.0).tolist()
    return sig, [[float(r) for r in row] for row in radii], weights


def gaussian_filter_batch(input, sigma, axes=(-2, -1), output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                          order=0, radius=None, algorithm="auto", tolerance=0.0, device="cpu", threads=0,
                          rounding="scipy", options=None):
    """A batch with a sigma per sample, in one call: ``input[i]`` (axis 0 indexes the samples) blurred
    along ``axes`` (two axes after the first) with its own sigma - exactly as
    ``gaussian_filter(input[i], sigma[i], axes=...)`` blurs it, bit for bit (on the CPU: SciPy's bits
    by default; a CUDA array on its GPU). What augmentation pipelines need: a random blur strength
    per image, as one call instead of a loop.

    Parameters
    ----------
    input : array_like
        (N, C, H, W), (N, H, W) or (N, H, W, C) ...: NumPy arrays, CPU tensors, CUDA arrays (PyTorch,
        CuPy: one copy in, one GPU submission, one copy out).
    sigma : scalar or array_like
        A scalar for every sample and axis; shape (N,): one per sample for both axes; (N, 2): one per
        sample and axis (in the order of ``axes``); (1, 2): one pair for every sample.
    axes : pair of ints, optional
        The two axes to blur (default the last two: H and W of NCHW). The other axes (channels) are
        blurred by no sample.
    output, mode, cval, truncate, order, radius
        As :func:`gaussian_filter` (``mode``, ``order`` and ``radius``: one value, or one per axis of
        ``axes``; the same for every sample).
    algorithm, tolerance, device, threads, rounding, options
        As :func:`gaussian_filter`, the same for every sample.

    Returns
    -------
    ndarray (or the input's library's array)
        The output array.
    """
    n_axes = 2
    if _foreign_arrays.on_cuda(input) or _foreign_arrays.on_cuda(output):
        tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
        if not _foreign_arrays.on_cuda(input):
            raise TypeError("output is a CUDA array but input is not: give both in CUDA memory, or both in host memory")
        if device not in ("cpu", "vulkan"):
            raise ValueError(f"device={device!r}: a CUDA array is blurred on its own GPU; leave device out")
        src = _foreign_arrays.CudaArray(input)
        ndim, shape = src.ndim, src.shape
    else:
        like, given_output = input, output
        input, output = _as_array(_foreign_arrays.host_view(input)), _foreign_arrays.host_view(output)
        tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
        ndim, shape = input.ndim, input.shape
    if ndim < 3:
        raise ValueError(f"a batch has its samples along axis 0 and two blurred axes: at least 3 dimensions, not {ndim}")
    axes = check_axes(axes, ndim)
    if len(axes) != n_axes or 0 in axes:
        raise ValueError(f"axes must name two axes after the samples' (axis 0), not {axes}")
    sigmas = _sample_sigmas(sigma, shape[0])
    if not np.isfinite(sigmas).all():
        raise ValueError("sigma must be finite")
    orders = [check_order(o) for o in normalize_sequence(order, n_axes)]
    radii = normalize_sequence(radius, n_axes)
    modes = [mode_name(m) for m in normalize_sequence(mode, n_axes)]
    if not isinstance(cval, numbers.Number) or isinstance(cval, complex):
        raise TypeError(f"must be real number, not {type(cval).__name__}")
    on_vulkan = _foreign_arrays.on_cuda(input) or device != "cpu"  # the core's kernel there (_requests)
    sig, rad, weights = _sample_requests(sigmas, orders, radii, float(truncate), with_weights=not on_vulkan)
    args = (list(axes), sig, modes, rad, orders, weights, float(cval), 4.0, algorithm, tolerance)
    if _foreign_arrays.on_cuda(input):
        dst = _foreign_arrays.CudaArray(output) if output is not None else _foreign_arrays.CudaArray(src.empty_like())
        if dst.shape != src.shape:
            raise RuntimeError("output shape not correct")
        _core.blur_cuda_sample_axes(src.interface, dst.interface, src.ordinal, src.stream, *args, options, rounding)
        return dst.obj
    output = get_output(output, input)
    if input.dtype.kind == "c" or output.dtype.kind == "c":
        raise NotImplementedError("gaussian_filter_batch takes real arrays; blur complex ones' parts apart")
    src = _native(input)
    dst = output if output.dtype.isnative else np.empty(input.shape, output.dtype.newbyteorder("="))
    if src.size:
        try:
            _core.blur_sample_axes(src, dst, *args, threads, options, device, rounding)
        except ValueError as e:  # slices not one axis in memory: C-ordered copies
            if "not one axis in memory" not in str(e):
                raise
            work = np.empty(dst.shape, dst.dtype)
            _core.blur_sample_axes(np.ascontiguousarray(src), work, *args, threads, options, device, rounding)
            dst[...] = work
    if dst is not output:
        output[...] = dst
    return _foreign_arrays.give_back(output, like, given_output)


def _family_call(name, order, square, input, output, mode, cval, sigma, kwargs, axes):
    """gaussian_laplace (order 2) and gaussian_gradient_magnitude (order 1, squared): SciPy's
    composition of gaussian_filter calls, on host arrays (CPU tensors read in place and given back)."""
    if _foreign_arrays.on_cuda(input) or _foreign_arrays.on_cuda(output):
        raise NotImplementedError(f"{name} takes host arrays (NumPy's, or CPU tensors); CUDA arrays go to "
                                  "gaussian_filter and gaussian_filter1d")
    if kwargs.get("nan_policy", "propagate") != "propagate" or kwargs.get("mask") is not None \
            or kwargs.get("preserve_nan") or isinstance(input, np.ma.MaskedArray):
        # A derivative's weights sum to 0: dividing by them is no normalized convolution.
        raise NotImplementedError(f"{name} does not take missing data (nan_policy, mask, preserve_nan, masked "
                                  "arrays): fill the holes with gaussian_filter(..., nan_policy='omit') first")
    like, given_output = input, output
    input, output = _foreign_arrays.host_view(input), _foreign_arrays.host_view(output)
    result = _family_in_core(order, square, input, output, mode, cval, sigma, kwargs, axes)
    if result is None:
        result = _gaussian_family.combine(input, _gaussian_family.derivative(gaussian_filter, order), output, mode,
                                          cval, sigma, kwargs, axes, square=square)
    return _foreign_arrays.give_back(result, like, given_output)


_FAMILY_KEYWORDS = {"truncate", "radius", "algorithm", "tolerance", "device", "threads", "rounding", "options"}


def _family_in_core(order, square, input, output, mode, cval, sigma, kwargs, axes):
    """The family as one core call (fastblur::derivative_sum: each derivative a blur of its own plan,
    combined in the output's type as SciPy's NumPy steps combine them; a 2D image's derivatives in one
    pass over it): a real input on the CPU, a new or C-contiguous float32/float64 output apart from
    it, up to three filtered axes. None where the call is not such (combine then composes it as SciPy
    does, and raises SciPy's errors)."""
    if kwargs.keys() - _FAMILY_KEYWORDS or kwargs.get("device", "cpu") != "cpu":
        return None
    a = np.asarray(input)
    if a.dtype.kind not in "biuf" or a.size == 0 or not np.isscalar(cval) or isinstance(cval, complex):
        return None
    if output is None:
        out_dtype = a.dtype
    elif isinstance(output, np.ndarray):
        out_dtype = output.dtype
    else:
        return None
    if out_dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        return None
    if isinstance(output, np.ndarray) and (output.shape != a.shape or not output.flags.c_contiguous
                                           or not output.flags.writeable or np.may_share_memory(a, output)):
        return None
    try:
        filtered = check_axes(axes, a.ndim)
        sigmas = _gaussian_family.sigma_per_axis(sigma, filtered, a.ndim)
        modes = normalize_sequence(mode, len(filtered))
        truncate, radius = kwargs.get("truncate", 4.0), kwargs.get("radius")
        terms = []
        for ii, axis in enumerate(filtered):
            orders = [0] * a.ndim
            orders[axis] = order
            terms.append(active_axes(a.ndim, sigmas, orders, modes[ii], truncate, radius, None))
    except Exception:  # SciPy's errors come from SciPy's composition
        return None
    if not filtered or any(not t or len(t) > 3 for t in terms) or len({tuple(x[0] for x in t) for t in terms}) != 1:
        return None
    algorithm, rounding = kwargs.get("algorithm", "auto"), kwargs.get("rounding", "scipy")
    tolerance, threads, options = _check_common(algorithm, kwargs.get("tolerance", 0.0), "cpu", kwargs.get("threads", 0),
                                                rounding, kwargs.get("options"))
    out = output if isinstance(output, np.ndarray) else new_output(np.dtype(out_dtype), list(a.shape))
    _core.derivative_sum_axes(_native(a), out, "gradient_magnitude" if square else "laplace",
                              [_requests(t, with_weights=True) for t in terms], float(cval), 4.0, algorithm, tolerance,
                              threads, options, rounding)
    return out


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Multidimensional Laplace filter using Gaussian second derivatives, a drop-in for
    ``scipy.ndimage.gaussian_laplace`` (SciPy's bits, as :func:`gaussian_filter` gives them).

    ``sigma``, ``output``, ``mode`` (one per filtered axis allowed), ``cval`` and ``axes`` as in SciPy;
    the other keywords go to each :func:`gaussian_filter` call: SciPy's ``truncate`` and ``radius``,
    and fastblur's ``algorithm``, ``tolerance``, ``device``, ``threads``, ``rounding``, ``options``.
    As SciPy: one second-derivative filter a filtered axis (sigma on every filtered axis), summed in
    the output dtype with NumPy's rounding. Missing data (``nan_policy``, ``mask``) is refused with
    NotImplementedError: fill the holes with ``gaussian_filter(..., nan_policy='omit')`` first."""
    return _family_call("gaussian_laplace", 2, False, input, output, mode, cval, sigma, kwargs, axes)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Multidimensional gradient magnitude using Gaussian derivatives, a drop-in for
    ``scipy.ndimage.gaussian_gradient_magnitude`` (SciPy's bits, as :func:`gaussian_filter` gives
    them): the first derivatives along each filtered axis squared, summed and square-rooted by NumPy in
    the output dtype, as SciPy does. Keywords as :func:`gaussian_laplace`."""
    return _family_call("gaussian_gradient_magnitude", 1, True, input, output, mode, cval, sigma, kwargs, axes)


def patch_scipy():
    """Routes scipy.ndimage's gaussian_filter, gaussian_filter1d, gaussian_laplace and
    gaussian_gradient_magnitude through this module's (SciPy's bits; what it changes and what not:
    ``fastblur._scipy_patch``). Calls nest and are thread-safe; ``unpatch_scipy()`` undoes one."""
    _scipy_patch.patch({name: globals()[name] for name in _scipy_patch.NAMES})


def unpatch_scipy():
    """Undoes one :func:`patch_scipy`; the last one puts SciPy's own function objects back."""
    _scipy_patch.unpatch()


def scipy_patched():
    """``with fastblur.scipy_patched():`` - scipy.ndimage's Gaussian functions routed through fastblur
    for the block, undone on the way out (exceptions too)."""
    return _scipy_patch.patched({name: globals()[name] for name in _scipy_patch.NAMES})


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0, *, device="cpu",
                threads=0, rounding="scipy"):
    """One-dimensional correlation with the caller's weights along ``axis``, a drop-in for
    ``scipy.ndimage.correlate1d`` (origin 0): output[i] = sum over k of weights[k] input[i - n//2 + k].

    The core's ``correlate`` algorithm (its kernel is data in the plan): with ``rounding='scipy'``
    (default) SciPy's bits on every dtype; 'nearest' rounds once at the end (symmetric odd weights
    then run fir's SIMD passes). ``device='vulkan'`` takes symmetric weights of odd length.
    ``origin`` other than 0 raises NotImplementedError.

    Returns
    -------
    ndarray
        The output array.
    """
    input = _as_array(input)
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 1 or weights.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    if not isinstance(origin, numbers.Integral) or isinstance(origin, bool):
        raise TypeError(f"origin must be an integer, got {origin!r}")
    if not -(len(weights) // 2) <= origin <= (len(weights) - 1) // 2:
        raise ValueError(f"Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= "
                         f"(len(weights)-1) // 2, got {origin}")
    if origin != 0:
        raise NotImplementedError("fastblur.correlate1d takes origin 0 only (scipy.ndimage.correlate1d shifts the "
                                  f"kernel by origin); got {origin}")
    tolerance, threads, options = _check_common("correlate", 0.0, device, threads, rounding, None)
    options = {"correlate_weights": weights.tolist()}
    active = axis_1d(input.ndim, 1.0, axis, 0, mode, 4.0, len(weights) // 2)
    output = get_output(output, input)
    _filter(input, output, active, cval, 4.0, "correlate", tolerance, threads, options, rounding, device)
    return output


def _registry_doc(indent):
    """The registry's algorithms and options as docstring lines (generated from the one list that
    the command line's help and the C++ API are generated from too)."""
    algs, opts = [], []
    for a in _core.algorithms():
        tags = [t for t, on in (("planar", a["planar"]), ("GPU only", a["gpu_only"])) if on]
        algs.append(f"{indent}- '{a['name']}'{' (' + ', '.join(tags) + ')' if tags else ''}: {a['summary']}")
        for p in a["parameters"]:
            opts.append(f"{indent}- {p['key']} ({a['name']}): {p['doc']}; {p['range']}")
    return "\n".join(algs), "\n".join(opts)


def plan(shape, sigma, dtype=None, mode="reflect", truncate=4.0, *, radius=None, order=0, channels=1,
         output=None, algorithm="auto", tolerance=0.0, device="cpu", threads=0, rounding="scipy", options=None):
    """What ``gaussian_filter`` runs for a C-ordered array of ``shape`` (NumPy order; ``channels``
    > 1 adds a last axis of that many interleaved channels, not blurred) and ``dtype`` (default
    float32), or for an array itself (its shape and, unless ``dtype`` is given, its dtype), with the
    same arguments (``output`` a dtype, default ``dtype``): the core's plan for that call, made by
    the same layout and planner as the call itself (with more than three blurred axes, the first
    three's). A dict with ``algorithm``; its resolved parameters by key (those of the whole plan as
    values, e.g. ``box_passes`` or ``iir_variant``; per-axis ones, e.g. ``kawase_offsets`` or
    ``box_radius``, as lists in NumPy order); per axis its ``radius`` (of the algorithms with a
    kernel, else 0), ``support`` (how far an output reaches: the halo a chunk needs), ``align``
    (pieces of the data start on multiples of it: the block grid of an algorithm that is not
    shift-invariant, downsample's factor; else 1), ``achieved_sigma`` and ``weights`` (the kernel the plan correlates with: a list up to 64 taps,
    else its length; None for the algorithms without one); ``schedule`` (backend, driver,
    threads, intermediate type, rounding, and the CPU strips, ``stream_destination`` (the output
    written past the caches, for one larger than half the last-level cache), the Vulkan tiles and pieces, and
    ``gpu_passes``: each axis's GPU pass - its shader (box's schedule and downsample's design among
    them), tile, block, batch and ``real``, iir's float64 or the image algorithms' float16 images);
    ``gpu_variant`` (the named GPU variant the schedule runs, '' for none); ``options`` (the algorithm's options the plan runs with:
    the caller's and those the planner chose, e.g. a tolerance's ``downsample_low_truncate``);
    ``predicted_max_error`` (docs/DESIGN.md's max error of the whole impulse response), ``predicted_cost`` (relative units), ``cost_profile`` (on a Vulkan device with a measured profile, which one corrected the costs; else empty), ``reason``, ``considered`` (every
    candidate weighed) and ``description`` (all of it as text)."""
    if hasattr(shape, "shape") and hasattr(shape, "dtype"):  # an array (NumPy's or another library's)
        dtype = np.dtype(str(shape.dtype).replace("torch.", "")) if dtype is None else dtype
        shape = tuple(shape.shape)
    dtype = "float32" if dtype is None else dtype
    try:
        if isinstance(shape, (str, bytes)):
            raise TypeError
        spatial = tuple(int(s) for s in shape)
    except (TypeError, ValueError):
        raise TypeError(f"plan: shape must be a tuple of ints or an array, not {type(shape).__name__}") from None
    channels = int(channels)
    if any(s < 1 for s in spatial) or not spatial or channels < 1:
        raise ValueError(f"plan: shape {spatial} needs at least one axis, all >= 1, and at least 1 channel")
    full = spatial + ((channels,) if channels > 1 else ())
    src_type = np.dtype(dtype)
    dst_type = src_type if output is None else np.dtype(output)
    tolerance, threads, options = _check_common(algorithm, tolerance, device, threads, rounding, options)
    active = active_axes(len(full), sigma, order, mode, truncate, radius, tuple(range(len(spatial))))
    if not active:
        raise ValueError("plan: no axis is blurred (every sigma is <= 1e-15)")

    def layout(t):  # an array of that shape and strides; planning reads no element
        strides, step = [], t.itemsize
        for n in reversed(full):
            strides.insert(0, step)
            step *= n
        return np.lib.stride_tricks.as_strided(np.zeros(1, t), shape=full, strides=strides, writeable=False)

    return _plan_dict(_core.plan_axes(layout(src_type), layout(dst_type), *_requests(active[:3], _scipy_weights(device, rounding, algorithm, tolerance)), 0.0, 4.0,
                                      algorithm, tolerance, threads, options, device, rounding))


def _plan_dict(p):
    """The core's plan (serialize.hpp's plan_json, as Python data: axes x, y, z) laid out for NumPy:
    per-axis values as lists in NumPy's order (the slowest axis first) over the plan's axes, the
    whole plan's parameters as values, the schedule as it is."""
    extent, axes = p["extent"], p["axes"]
    naxes = max([a + 1 for a in range(3) if extent[a] > 1 or (axes[a]["sigma"] or 0) > 0] + [1])
    order = list(range(naxes - 1, -1, -1))
    d = {key: p[key] for key in ("algorithm", "predicted_cost", "cost_profile", "reason", "considered", "description")}
    d["predicted_max_error"] = float("nan") if p["predicted_max_error"] is None else p["predicted_max_error"]
    for key in ("radius", "support", "align", "achieved_sigma", "weights"):
        d[key] = [axes[a][key] for a in order]
    for key, value in p["parameters"].items():
        if key != "radius":
            d[key] = value
    for i, a in enumerate(order):
        for key, value in axes[a]["parameters"].items():
            if key != "radius":
                d.setdefault(key, [None] * naxes)[i] = value
    d["schedule"] = p["schedule"]
    d["options"] = dict(p["options"])
    return d


def analyze(algorithm, sigma, *, options=None, anisotropy=True, psnr=True):
    """The accuracy of ``algorithm`` as a Gaussian of ``sigma`` (docs/DESIGN.md's metrics): a dict with
    ``effective_sigma``, ``max_error`` and ``l1_error`` of the 1D impulse response, with
    ``anisotropy`` and ``max_error_2d`` of the 2D response (None unless ``anisotropy``), ``psnr_db``
    of its float32 result on the bundled 512x512 test scene against float64 fir (None unless
    ``psnr``), and the plan's ``algorithm`` (auto resolved), ``predicted_max_error`` and
    ``predicted_cost``: the core's analyze, as `fastblur analyze --json` prints it."""
    _, _, options = _check_common(algorithm, 0.0, "cpu", 0, "scipy", options)
    return _core.analyze(algorithm, float(sigma), options, bool(anisotropy), bool(psnr))


def gaussian_kernel(sigma, radius=None, truncate=4.0, order=0):
    """The sampled, normalised Gaussian (or its ``order``-th derivative) at offsets -radius..radius,
    as SciPy samples it; radius = int(truncate * sigma + 0.5) unless given."""
    return _core.gaussian_weights(float(sigma), kernel_radius(sigma, truncate, radius), check_order(order))


def linear_sampling(weights, first_offset=None):
    """Seeds 002/003's linear-sampling trick: adjacent taps of a 1D kernel merged into single
    bilinear fetches. Returns an (n, 2) array of (offset, weight); ``first_offset`` is the offset of
    weights[0] (default: the kernel is centred). Interpolating linearly at the offsets and summing
    with the weights reproduces the kernel exactly."""
    w = np.asarray(weights, dtype=np.float64).ravel()
    if first_offset is None:
        first_offset = -(len(w) // 2)
    return _core.linear_sampling(w.tolist(), int(first_offset))


def linear_sampling_gaussian(sigma, radius=None, truncate=4.0):
    """The symmetric linear-sampling taps of the Gaussian: an (n, 2) array of (offset, weight)."""
    return _core.linear_sampling_gaussian(float(sigma), kernel_radius(sigma, truncate, radius))


def linear_sampling_2d(weights, first_x=None, first_y=None):
    """2x2 quads of a 2D kernel merged into bilinear fetches: an (n, 3) array of (x, y, weight)."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2:
        raise ValueError("weights must be a 2D array")
    fx = -(w.shape[1] // 2) if first_x is None else int(first_x)
    fy = -(w.shape[0] // 2) if first_y is None else int(first_y)
    return _core.linear_sampling_2d(w, fx, fy)


def kawase_schedule(sigma, passes=0):
    """Kawase pass offsets (pixels) whose variances sum to sigma^2 (seed 002's open problem
    solved); ``passes`` 0 chooses the count."""
    return _core.kawase_schedule(float(sigma), int(passes))


def kawase_kernel(offsets):
    """The 1D equivalent kernel of a Kawase schedule (the 2D one is its outer product)."""
    return _core.kawase_kernel([float(d) for d in offsets])


def kawase_presets():
    """Seed 002's schedules {0,1,2,2,3} and {2,3,3,3} as pass offsets in pixels."""
    return _core.kawase_presets()


def box_passes(sigma, passes=3, integer_widths=False):
    """The box passes of the ``box`` algorithm: an (n, 2) array of (radius, end weight alpha)."""
    return _core.box_passes(float(sigma), int(passes), bool(integer_widths))


def sliding_dct_kernel(sigma, order=0):
    """The sliding-DCT Gaussian's series: (radius, beta coefficients, equivalent FIR weights)."""
    return _core.sliding_dct_kernel(float(sigma), int(order))


def binomial_kernel(order):
    """The binomial kernel C(n, k) / 2^n, n = ``order`` (variance n / 4)."""
    return _core.binomial_weights(int(order))


def incremental_gaussian(sigma, count, delta=1.0, two_exponentials=True):
    """Seed 000's incremental Gaussian: ``count`` samples generated in float32 by forward quotients."""
    return _core.incremental_gaussian(float(sigma), int(count), float(delta), bool(two_exponentials))


def radius_for_precision(sigma, epsilon):
    """Seed 003's rule: the smallest radius whose dropped weight is below ``epsilon``."""
    return _core.radius_for_precision(float(sigma), float(epsilon))


def sigma_for_precision(radius, epsilon):
    """The sigma whose outermost normalised weight at ``radius`` equals ``epsilon``."""
    return _core.sigma_for_precision(int(radius), float(epsilon))


_ALGORITHMS_DOC, _OPTIONS_DOC = _registry_doc(" " * 8)
gaussian_filter.__doc__ = gaussian_filter.__doc__.replace("@ALGORITHMS@", _ALGORITHMS_DOC).replace("@OPTIONS@", _OPTIONS_DOC)
