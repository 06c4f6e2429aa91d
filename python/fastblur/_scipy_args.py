"""Argument rules of scipy.ndimage's filters (SciPy 1.11+), so fastblur accepts and rejects the
same arguments with the same exception types."""
import numbers
from collections.abc import Iterable

import numpy as np

from ._core import SIGMA_CUTOFF  # the core's kSigmaCutoff: SciPy's rule, written once
from ._core import new_output  # memory of freed outputs reused (python/src/kept_outputs.hpp)

# scipy.ndimage's mode names, and the synonyms it accepts for consistency with its interpolators.
_MODES = {
    "reflect": "reflect", "grid-mirror": "reflect",
    "mirror": "mirror",
    "nearest": "nearest",
    "wrap": "wrap", "grid-wrap": "wrap",
    "constant": "constant", "grid-constant": "constant",
}

AxisError = getattr(getattr(np, "exceptions", np), "AxisError")


def normalize_sequence(value, rank):
    """A scalar repeated `rank` times, or a sequence of exactly `rank` items (RuntimeError otherwise)."""
    if not isinstance(value, str) and isinstance(value, Iterable):
        items = list(value)
        if len(items) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return items
    return [value] * rank


def mode_name(mode):
    """The border mode fastblur's core knows for a scipy mode name (RuntimeError if unknown)."""
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise RuntimeError("boundary mode not supported") from None


def check_axes(axes, ndim):
    """scipy's `axes`: None (every axis), an int, or distinct ints in [-ndim, ndim)."""
    if axes is None:
        return tuple(range(ndim))
    if np.isscalar(axes):
        axes = (axes,)
    elif not isinstance(axes, Iterable):
        raise ValueError("axes must be an integer, iterable of integers, or None")
    out = []
    for ax in axes:
        if not isinstance(ax, numbers.Integral):
            raise ValueError("axes must be an integer, iterable of integers, or None")
        ax = int(ax)
        if ax < -ndim or ax >= ndim:
            raise ValueError(f"specified axes: {tuple(axes)} are out of range")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("axes must be unique")
    return tuple(out)


def check_order(order):
    if isinstance(order, bool) or not isinstance(order, numbers.Integral):
        raise TypeError(f"order must be an integer, got {order!r}")
    if order < 0:
        raise ValueError("order must be non-negative")
    return int(order)


def kernel_radius(sigma, truncate, radius):
    """scipy's radius: int(truncate * sigma + 0.5) unless given; a nonnegative integer."""
    lw = int(float(truncate) * float(sigma) + 0.5)  # computed (and refused if inf or NaN) as SciPy does, given radius or not
    if radius is not None:
        lw = radius
    if isinstance(lw, bool) or not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    return int(lw)


def active_axes(ndim, sigma, order, mode, truncate, radius, axes, after_first=None):
    """gaussian_filter's per-axis arguments as (axis, sigma, order, mode, radius) for the axes it
    blurs: SciPy skips an axis whose sigma is not above 1e-15, whatever its other arguments.
    SciPy filters axis by axis, so the first axis's own call (correlate1d: `after_first`, its
    output check) comes before a later axis's argument errors."""
    axes = check_axes(axes, ndim)
    n = len(axes)
    active = []
    for ax, s, o, m, r in zip(axes, normalize_sequence(sigma, n), normalize_sequence(order, n),
                              normalize_sequence(mode, n), normalize_sequence(radius, n)):
        if not s > SIGMA_CUTOFF:
            continue
        s = float(s)
        # SciPy's order of checks: the radius (int()), then the order (the kernel), then the mode.
        radius = kernel_radius(s, truncate, r)
        o = check_order(o)
        active.append((ax, s, o, mode_name(m), radius))
        if after_first is not None and len(active) == 1:
            after_first()
    return active


def axis_1d(ndim, sigma, axis, order, mode, truncate, radius):
    """gaussian_filter1d's arguments as active_axes gives them: [(axis, sigma, order, mode, radius)], or
    [] for a NaN sigma. SciPy's checks in its order: an integer axis in range (numpy's AxisError), a
    sigma of 0 (ZeroDivisionError, as its kernel's division), the radius, the order, the mode."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError("axis must be an integer")
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    axis = int(axis) % ndim
    sd = float(sigma)
    if sd == 0.0:
        raise ZeroDivisionError("float division by zero")
    lw = kernel_radius(sd, truncate, radius)
    order = check_order(order)
    m = mode_name(mode)
    return [(axis, sd, order, m, lw)] if not np.isnan(sd) else []


def get_output(output, input, shape=None, check_complex=True):
    """The output array as scipy makes it: a new array of input's (or the given) dtype, or the
    given array after checking its shape and complexness (gaussian_filter checks that only where an
    axis is filtered, as SciPy's correlate1d does: check_complex=False)."""
    if shape is None:
        shape = input.shape
    complex_input = input.dtype.kind == "c" and check_complex
    if output is None:  # input's type in native byte order; every element is written
        return new_output(input.dtype if input.dtype.isnative else input.dtype.newbyteorder("="), list(shape))
    if isinstance(output, np.ndarray):
        if output.shape != tuple(shape):
            raise RuntimeError("output shape not correct")
        if complex_input and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    dtype = np.dtype(output)
    if complex_input and dtype.kind != "c":
        raise RuntimeError("output must have complex dtype")
    return new_output(dtype, list(shape))


def scipy_kernel(sigma, order, radius):
    """The correlation weights gaussian_filter1d uses, computed with the same NumPy operations in
    the same order as SciPy, so that sums over them are bit-identical: the sampled Gaussian
    exp(-x^2 / (2 sigma^2)) normalised by its sum, times the derivative's polynomial q (found by
    applying q -> q' - q x / sigma^2 `order` times to the coefficients of q = 1), then reversed
    (a convolution written as a correlation)."""
    s2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / s2 * x ** 2)
    phi = phi / phi.sum()
    if order == 0:
        return phi[::-1]
    powers = np.arange(order + 1)
    q = np.zeros(order + 1)
    q[0] = 1
    step = np.diag(powers[1:], 1) + np.diag(np.ones(order) / -s2, -1)
    for _ in range(order):
        q = step.dot(q)
    q = (x[:, None] ** powers).dot(q)
    return (q * phi)[::-1]


def scipy_kernels(sigmas, radius):
    """scipy_kernel(sigma, 0, radius) of several sigmas of one radius at once, row by row: the same
    NumPy operations on a 2D array (elementwise, and each row summed as a 1D array is), so each row
    has the bits of its own call (tests/python/test_batch.py holds them to it)."""
    s2 = np.asarray(sigmas, dtype=np.float64) ** 2
    x = np.arange(-radius, radius + 1)
    phi = np.exp((-0.5 / s2)[:, None] * x ** 2)
    phi = phi / phi.sum(axis=1)[:, None]
    return phi[:, ::-1]
