"""Runs SciPy's own ndimage filter tests against fastblur: before they are imported, SciPy's
gaussian_filter, gaussian_filter1d, gaussian_laplace and gaussian_gradient_magnitude are replaced by
fastblur's - in scipy.ndimage, which the tests call, and in scipy.ndimage._filters, whose own
functions call them - so every test of those functions exercises our module with SciPy's
expectations, and every call's result is asserted bit-identical to SciPy's own on the same
arguments (every dtype SciPy accepts, float32 included; SciPy's own gaussian_laplace, the reference,
calls the patched gaussian_filter, whose every call is checked against SciPy's in turn)."""
import functools

import numpy as np
import pytest
import scipy.ndimage
import scipy.ndimage._filters

import fastblur

PATCHED = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")
_SCIPY = {name: getattr(scipy.ndimage._filters, name) for name in PATCHED}
CHECKED = {"calls": 0, "bit_identical": 0}


def _copy(v):
    return v.copy() if isinstance(v, np.ndarray) else v


def _bit_identical(name):
    """fastblur's function, with every call's result asserted bit-identical to SciPy's own on copies
    of the same arguments (where SciPy accepts them: it refuses float16)."""
    ours, theirs = getattr(fastblur, name), _SCIPY[name]

    @functools.wraps(ours)
    def call(*args, **kwargs):
        try:
            want = theirs(*[_copy(a) for a in args], **{k: _copy(v) for k, v in kwargs.items()})
        except Exception:
            want = None
        got = ours(*args, **kwargs)
        CHECKED["calls"] += 1
        if want is not None:
            assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape, want.shape)
            same = got.tobytes() == want.tobytes() or np.array_equal(got, want, equal_nan=True)
            assert same, f"{name}: not SciPy's bits for {np.asarray(args[0]).dtype} (max difference " \
                         f"{np.max(np.abs(got.astype(np.complex128) - want.astype(np.complex128)))})"
            CHECKED["bit_identical"] += 1
        return got

    return call


for module in (scipy.ndimage, scipy.ndimage._filters):
    for name in PATCHED:
        setattr(module, name, _bit_identical(name))


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"fastblur calls from SciPy's tests: {CHECKED['calls']}, "
                                f"bit-identical to SciPy's: {CHECKED['bit_identical']}")


# The documented difference: SciPy refuses float16 input, fastblur blurs it (in float32). Strict,
# so the day it passes (or another test fails) the suite says so.
FLOAT16_BY_DESIGN = {"test_gaussian_filter"}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.name in FLOAT16_BY_DESIGN:
            item.add_marker(pytest.mark.xfail(strict=True, reason="float16 input is accepted by design"))
