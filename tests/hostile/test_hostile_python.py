"""The hostile corpus through the SciPy drop-in (fastblur.gaussian_filter) and, with
HOSTILE_FRONT=dask, through fastblur.dask.gaussian_filter on a chunked array."""
import os

import numpy as np
import pytest

import fastblur
from corpus import cases, check_message, value

FRONT = os.environ.get("HOSTILE_FRONT", "python")
CLASSES = {"invalid": ValueError, "type": TypeError, "runtime": RuntimeError, "overflow": OverflowError,
           "unsupported": NotImplementedError, "device": RuntimeError}
KEYWORDS = {"sigma": "sigma", "truncate": "truncate", "radius": "radius", "border": "mode", "cval": "cval",
            "algorithm": "algorithm", "tolerance": "tolerance", "device": "device", "threads": "threads",
            "rounding": "rounding", "order": "order", "axes": "axes", "options": "options"}


def make_array(shape, dtype):
    rng = np.random.default_rng(31)
    if dtype == "object":
        a = np.empty(shape, dtype=object)
        a[...] = 1.0
        return a
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind == "c":
        return (rng.random(shape) + 1j * rng.random(shape)).astype(dtype)
    return (rng.random(shape) * 200).astype(dtype)


def call(request):
    """Runs the request; returns (input before, input after) so the caller can see nothing changed."""
    a = make_array(tuple(request["shape"]), request["dtype"])
    before = a.copy()
    kw = {KEYWORDS[k]: value(v) for k, v in request.items() if k in KEYWORDS}
    sigma = kw.pop("sigma")
    if FRONT == "dask":
        import dask.array as da
        from fastblur import dask as fbdask
        x = da.from_array(a, chunks=tuple(max(1, (n + 1) // 2) for n in a.shape) or ())
        fbdask.gaussian_filter(x, sigma, **kw).compute(scheduler="synchronous")
        return before, a
    out = request.get("output")
    if out == "readonly":
        o = np.zeros_like(a)
        o.flags.writeable = False
        fastblur.gaussian_filter(a, sigma, output=o, **kw)
        assert not o.any(), "a read-only output was written"
    elif out == "overlap":
        src, dst = a[:, :-1], a[:, 1:]
        want = fastblur.gaussian_filter(src.copy(), sigma, **kw)
        fastblur.gaussian_filter(src, sigma, output=dst, **kw)
        np.testing.assert_array_equal(a[:, 1:], want)  # as if out of place
        return before, before  # the input was the output here
    else:
        fastblur.gaussian_filter(a, sigma, **kw)
    return before, a


@pytest.mark.parametrize("name,request_,expect", cases(FRONT))
def test_verdict(name, request_, expect):
    if expect["class"] == "ok":
        before, after = call(request_)
    else:
        with pytest.raises(Exception) as info:
            before, after = call(request_)
        e = info.value
        assert isinstance(e, CLASSES[expect["class"]]), f"{name}: {type(e).__name__}: {e}"
        check_message(str(e), expect)
        return
    if before.dtype != object:
        np.testing.assert_array_equal(before, after, err_msg=f"{name}: the input changed")


def test_still_alive():
    a = np.ones((5, 6), np.float32)
    np.testing.assert_allclose(fastblur.gaussian_filter(a, 1.0), a, rtol=1e-6)
