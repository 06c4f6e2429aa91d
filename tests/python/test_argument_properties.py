"""Property-based test of the drop-in's argument surface (Debian's python3-hypothesis): random
combinations of gaussian_filter's arguments, sensible and not, on small arrays. Whatever comes in,
fastblur either gives SciPy's bits or raises the exception type SciPy raises, with a one-line
message - never a crash, a hang, a binding error (pybind11's "incompatible function arguments") or
an exception SciPy would not raise. Bounded: a fixed number of examples, each on a few hundred
elements."""
import math
import warnings

import numpy as np
import pytest
import scipy.ndimage as nd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastblur

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64",
          "complex128"]
MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-mirror", "grid-wrap", "grid-constant", "bogus"]

numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64),
                    st.floats(min_value=0.0, max_value=6.0), st.integers(min_value=-3, max_value=8))
small_sigma = st.one_of(st.floats(min_value=0.0, max_value=5.0), st.just(0.0), st.just(-1.0), st.just(float("nan")),
                        st.just(1e30), st.just(float("inf")))


@st.composite
def calls(draw):
    ndim = draw(st.integers(min_value=0, max_value=4))
    shape = tuple(draw(st.lists(st.integers(min_value=0, max_value=7), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(DTYPES))
    seed = draw(st.integers(min_value=0, max_value=2 ** 32 - 1))
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        a = rng.random(shape) > 0.5
    elif np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -500), min(info.max, 500), size=shape, endpoint=True).astype(dtype)
    elif dtype == "complex128":
        a = rng.random(shape) + 1j * rng.random(shape)
    else:
        a = (rng.random(shape) * 100).astype(dtype)
    per_axis = draw(st.booleans()) and ndim > 0
    n_seq = draw(st.sampled_from([ndim, ndim, max(ndim - 1, 0), ndim + 1])) if per_axis else None
    sigma = draw(st.lists(small_sigma, min_size=n_seq, max_size=n_seq)) if per_axis else draw(small_sigma)
    kw = {}
    if draw(st.booleans()):
        kw["order"] = draw(st.one_of(st.integers(min_value=-1, max_value=3), st.just(1.5)))
    if draw(st.booleans()):
        kw["mode"] = draw(st.sampled_from(MODES))
    if draw(st.booleans()):
        kw["cval"] = draw(numbers)
    if draw(st.booleans()):
        kw["truncate"] = draw(st.one_of(st.floats(min_value=0.0, max_value=6.0), st.just(-1.0), st.just(float("nan")),
                                        st.just(1e20)))
    if draw(st.booleans()):
        kw["radius"] = draw(st.one_of(st.integers(min_value=-1, max_value=9), st.just(2 ** 40), st.none()))
    if draw(st.booleans()):
        kw["output"] = draw(st.sampled_from(["same", "float64", "float32", "uint8", "int16", "complex128"]))
    return a, sigma, kw


def run(f, a, sigma, kw):
    kw = dict(kw)
    if kw.get("output") == "same":
        kw["output"] = np.zeros_like(a)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(a.copy(), sigma, **kw), None
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return None, e


@settings(max_examples=400, deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(calls())
def test_either_scipys_bits_or_scipys_exception(call):
    a, sigma, kw = call
    want, want_error = run(nd.gaussian_filter, a, sigma, kw)
    if isinstance(want_error, MemoryError) or any(m in str(want_error) for m in ("Maximum allowed size",
                                                                                 "maximum possible size")):
        # SciPy tried to allocate a kernel of terabytes (MemoryError, or NumPy's ValueError for an
        # arange or an array past its limit); fastblur refuses the radius at once.
        # (Where another argument is bad too, either refusal is fine: the two check in other orders.)
        got, got_error = run(fastblur.gaussian_filter, a, sigma, kw)
        assert isinstance(got_error, (ValueError, TypeError, RuntimeError, OverflowError)), got_error
        # The other bad argument's refusal is SciPy's own for it: an order, or a radius computed from
        # an infinite or NaN sigma x truncate on another axis ("cannot convert float NaN to integer":
        # SciPy raises it there too when it reaches that axis first).
        assert ("maximum" in str(got_error) or not isinstance(got_error, ValueError) or "order" in str(got_error)
                or "cannot convert float" in str(got_error)), got_error
        assert "\n" not in str(got_error).strip(), got_error
        return
    got, got_error = run(fastblur.gaussian_filter, a, sigma, kw)
    if want_error is not None:
        assert got_error is not None, f"fastblur accepted what SciPy refused ({type(want_error).__name__}: {want_error})"
        assert isinstance(got_error, type(want_error)), \
            f"{type(got_error).__name__}: {got_error} where SciPy raises {type(want_error).__name__}: {want_error}"
        message = str(got_error)
        assert "\n" not in message.strip() and "incompatible function arguments" not in message, message
        return
    if isinstance(got_error, ValueError) and "is beyond the maximum 16777216" in str(got_error):
        # fastblur's stated limit (kMaxRadius, 2^24: a kernel of 32M taps), which SciPy does not have:
        # it computes such kernels where it can allocate them (sigma 2e-12 with truncate 1e20 gives a
        # radius of 2e8, 3 GB of weights, here on an empty array). The refusal is one line.
        assert "\n" not in str(got_error).strip(), got_error
        return
    assert got_error is None, f"fastblur raised {type(got_error).__name__}: {got_error} where SciPy gave a result"
    assert got.dtype == want.dtype and got.shape == want.shape
    same = got.tobytes() == want.tobytes() or np.array_equal(got, want, equal_nan=True)
    assert same, f"not SciPy's bits: max difference {np.max(np.abs(got.astype(complex) - want.astype(complex)))}"


def test_a_huge_radius_beside_an_infinite_sigma_is_refused_in_one_line():
    # Found by the property above: SciPy reaches axis 0's terabyte kernel first (MemoryError); fastblur
    # checks every axis first and refuses axis 1's radius from sigma inf x truncate 0 as SciPy would.
    a = np.zeros((0, 0), bool)
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        fastblur.gaussian_filter(a, [1.0, np.inf], truncate=0.0, radius=1 << 40)
