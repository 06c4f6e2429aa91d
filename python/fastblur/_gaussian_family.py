"""scipy.ndimage's Gaussian family beyond the filter itself: ``gaussian_laplace`` and
``gaussian_gradient_magnitude``, composed exactly as SciPy composes them (its ``generic_laplace`` and
``generic_gradient_magnitude``: one Gaussian derivative a filtered axis, each a whole
``gaussian_filter`` call, summed - or squared, summed and square-rooted - by NumPy in the output's
dtype in SciPy's order), so SciPy's bits come from the core's filter giving SciPy's bits. Each
derivative is one call of the core (threads, devices and the module's keywords pass through); for a
float32 or float64 output the sums, squares and square root are the core's too (one threaded pass an
axis, NumPy's rounding of each operation: ``_core.derivative_sum_step``)."""
import functools

import numpy as np

from ._scipy_args import check_axes, get_output, normalize_sequence


def sigma_per_axis(sigma, axes, ndim):
    """SciPy's handling of ``axes``: one sigma per filtered axis, 0 on the others."""
    sigma = normalize_sequence(sigma, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for s, ax in zip(sigma, axes):
            full[ax] = s
        sigma = full
    return sigma


def derivative(gaussian_filter, order_on_axis):
    """SciPy's derivative callable for generic_laplace / generic_gradient_magnitude: a whole
    ``gaussian_filter`` call (the module's, or fastblur.dask's) with ``order_on_axis`` on one axis."""
    def call(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = order_on_axis
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)
    return call


def combine(input, derivative, output, mode, cval, sigma, kwargs, axes, square):
    """SciPy's generic_laplace (square False) or generic_gradient_magnitude (square True) with ``axes``."""
    input = np.asarray(input)
    output = get_output(output, input)
    axes = check_axes(axes, input.ndim)
    sigma = sigma_per_axis(sigma, axes, input.ndim)
    if len(axes) == 0:
        output[...] = input[...]
        return output
    modes = normalize_sequence(mode, len(axes))
    derivative(input, axes[0], output, modes[0], cval, sigma, **kwargs)
    if _in_core(output):
        return _combine_in_core(input, derivative, output, modes, cval, sigma, kwargs, axes, square)
    if square:
        np.multiply(output, output, output)
    for ii in range(1, len(axes)):
        tmp = derivative(input, axes[ii], output.dtype, modes[ii], cval, sigma, **kwargs)
        if square:
            np.multiply(tmp, tmp, tmp)
        output += tmp
    if square:
        sqrt_in_place(output)
    return output


def sqrt_in_place(output):
    """SciPy's ``np.sqrt(output, output, casting='unsafe')``. A one-byte output (bool, int8, uint8)
    takes NumPy's float16 loop, software conversions (23-26 ms a 1080x1920 image): it is looked up
    in a table of NumPy's own square roots of the type's 256 values instead (1.8 ms; bench/RESULTS.md,
    issue 43). A negative value goes through ``np.sqrt`` too, for NumPy's invalid-value warning (or
    error, under ``np.errstate``)."""
    if type(output) is not np.ndarray or output.dtype.itemsize != 1:
        np.sqrt(output, output, casting="unsafe")
        return
    if output.dtype.kind == "i" and output.size and output.min() < 0:
        np.sqrt(np.array([-1], output.dtype), casting="unsafe")
    np.take(_byte_sqrt_table(output.dtype), output.view(np.uint8), out=output, mode="wrap")


@functools.lru_cache(maxsize=None)
def _byte_sqrt_table(dtype):
    """NumPy's square root of each of a one-byte type's 256 values, indexed by the value's byte."""
    table = np.empty(256, dtype)
    with np.errstate(all="ignore"):
        np.sqrt(np.arange(256, dtype=np.uint8).view(dtype), table, casting="unsafe")
    return table


def _in_core(output):
    return (type(output) is np.ndarray and output.dtype in (np.float32, np.float64) and output.flags.c_contiguous
            and output.flags.writeable)


def _combine_in_core(input, derivative, output, modes, cval, sigma, kwargs, axes, square):
    """The rest of combine with the output holding the first axis's derivative: each further axis's
    derivative into one scratch array, folded into the output by the core (NumPy's operations and
    rounding, threaded); the magnitude's square root with the last fold."""
    from . import _core

    kind = "gradient_magnitude" if square else "laplace"
    threads = kwargs.get("threads") or 0
    if len(axes) == 1:
        if square:
            _core.derivative_sum_step(kind, output, None, True, True, threads)
        return output
    term = np.empty_like(output)
    for ii in range(1, len(axes)):
        derivative(input, axes[ii], term, modes[ii], cval, sigma, **kwargs)
        _core.derivative_sum_step(kind, output, term, ii == 1, ii == len(axes) - 1, threads)
    return output
