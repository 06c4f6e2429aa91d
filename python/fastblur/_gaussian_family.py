"""scipy.ndimage's Gaussian family beyond the filter itself: ``gaussian_laplace`` and
``gaussian_gradient_magnitude``, composed exactly as SciPy composes them (its ``generic_laplace`` and
``generic_gradient_magnitude``: one Gaussian derivative a filtered axis, each a whole
``gaussian_filter`` call, summed - or squared, summed and square-rooted - by NumPy in the output's
dtype in SciPy's order), so SciPy's bits come from the core's filter giving SciPy's bits. Each
derivative is one call of the core (threads, devices and the module's keywords pass through)."""
import numpy as np

from ._scipy_args import check_axes, get_output, normalize_sequence


def _sigma_per_axis(sigma, axes, ndim):
    """SciPy's handling of ``axes``: one sigma per filtered axis, 0 on the others."""
    sigma = normalize_sequence(sigma, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for s, ax in zip(sigma, axes):
            full[ax] = s
        sigma = full
    return sigma


def _derivative(order_on_axis):
    def derivative(input, axis, output, mode, cval, sigma, **kwargs):
        from . import gaussian_filter
        order = [0] * input.ndim
        order[axis] = order_on_axis
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)
    return derivative


def _generic(input, derivative, output, mode, cval, sigma, kwargs, axes, square):
    input = np.asarray(input)
    output = get_output(output, input)
    axes = check_axes(axes, input.ndim)
    sigma = _sigma_per_axis(sigma, axes, input.ndim)
    if len(axes) == 0:
        output[...] = input[...]
        return output
    modes = normalize_sequence(mode, len(axes))
    derivative(input, axes[0], output, modes[0], cval, sigma, **kwargs)
    if square:
        np.multiply(output, output, output)
    for ii in range(1, len(axes)):
        tmp = derivative(input, axes[ii], output.dtype, modes[ii], cval, sigma, **kwargs)
        if square:
            np.multiply(tmp, tmp, tmp)
        output += tmp
    if square:
        np.sqrt(output, output, casting="unsafe")
    return output


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Multidimensional Laplace filter using Gaussian second derivatives, a drop-in for
    ``scipy.ndimage.gaussian_laplace`` (SciPy's bits, as :func:`gaussian_filter` gives them).

    ``sigma``, ``output``, ``mode`` (one per filtered axis allowed), ``cval`` and ``axes`` as in SciPy;
    the other keywords go to each :func:`gaussian_filter` call: SciPy's ``truncate`` and ``radius``,
    and fastblur's ``algorithm``, ``tolerance``, ``device``, ``threads``, ``rounding``, ``options``.
    The sum over axes is NumPy's in the output dtype, as SciPy's."""
    return _generic(input, _derivative(2), output, mode, cval, sigma, kwargs, axes, square=False)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """Multidimensional gradient magnitude using Gaussian derivatives, a drop-in for
    ``scipy.ndimage.gaussian_gradient_magnitude`` (SciPy's bits, as :func:`gaussian_filter` gives
    them): the square root of the sum of the squared first derivatives along each filtered axis,
    squared, summed and rooted by NumPy in the output dtype as SciPy does. Keywords as
    :func:`gaussian_laplace`."""
    return _generic(input, _derivative(1), output, mode, cval, sigma, kwargs, axes, square=True)
