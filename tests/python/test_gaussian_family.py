"""fastblur.gaussian_laplace and gaussian_gradient_magnitude against scipy.ndimage's on random arrays
(seeded by the conftest's rng): SciPy's bits on every dtype SciPy takes, rank 1-3, per-axis sigma
and mode, truncate and radius passed through, output arrays and dtypes, ``axes`` (against SciPy's
own where it has the keyword, else against SciPy's composition of gaussian_filter calls), 0-d
input, SciPy's exceptions, and the module's keywords (threads, rounding, tolerance; a Vulkan device refuses derivatives)."""
import inspect

import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur

FUNCTIONS = ["gaussian_laplace", "gaussian_gradient_magnitude"]
MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]
DTYPES = [np.uint8, np.int16, np.int32, np.float32, np.float64]


def random_array(rng, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 200, size=shape, endpoint=True).astype(dtype)
    return (rng.random(shape) * 100).astype(dtype)


def same_bits(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_scipy_bits(rng, name, dtype, ndim):
    shape = tuple(int(v) for v in rng.integers(3, 19, size=ndim))
    a = random_array(rng, shape, dtype)
    for kwargs in [dict(sigma=1.5), dict(sigma=list(rng.uniform(0.5, 3, size=ndim)), mode=list(rng.choice(MODES, size=ndim))),
                   dict(sigma=2.0, output=np.float64), dict(sigma=0.9, truncate=2.5), dict(sigma=1.2, radius=4),
                   dict(sigma=1.1, mode="constant", cval=7.0)]:
        same_bits(getattr(fastblur, name)(a, **kwargs), getattr(nd, name)(a, **kwargs))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8])
def test_one_byte_magnitudes_square_root_is_numpys(rng, dtype):
    # NumPy's sqrt of a one-byte type runs its float16 loop; the module looks each value up in a table
    # of NumPy's own square roots: SciPy's bits, also where the wrapped sums are negative (int8: NaN,
    # cast as NumPy casts it), and NumPy's invalid-value warning or error with them.
    a = (rng.random((40, 57)) > 0.6) if dtype is np.bool_ else rng.integers(-128 if dtype is np.int8 else 0, 128, size=(40, 57)).astype(dtype)
    for kwargs in [dict(sigma=1.5), dict(sigma=0.7, mode="constant", cval=3.0), dict(sigma=(2.0, 0.8))]:
        with np.errstate(invalid="ignore"):
            want = nd.gaussian_gradient_magnitude(a, **kwargs)
            same_bits(fastblur.gaussian_gradient_magnitude(a, **kwargs), want)
        out = np.empty((57, 40), dtype).T  # a strided output array
        with np.errstate(invalid="ignore"):
            fastblur.gaussian_gradient_magnitude(a, output=out, **kwargs)
        same_bits(np.ascontiguousarray(out), want)
    if dtype is np.int8:
        with np.errstate(invalid="ignore"):
            sums = nd.gaussian_filter(a, 1.5, order=(1, 0)).astype(np.int8) ** 2 + nd.gaussian_filter(a, 1.5, order=(0, 1)).astype(np.int8) ** 2
        assert (sums < 0).any()  # the wrapped sums reach negative values: NumPy's invalid value
        with np.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError):
                nd.gaussian_gradient_magnitude(a, 1.5)
            with pytest.raises(FloatingPointError):
                fastblur.gaussian_gradient_magnitude(a, 1.5)
        with np.errstate(invalid="warn"):
            with pytest.warns(RuntimeWarning, match="invalid value"):
                fastblur.gaussian_gradient_magnitude(a, 1.5)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_output_array_and_input_untouched(rng, name):
    a = random_array(rng, (23, 17), np.float32)
    before = a.copy()
    out = np.empty(a.shape, np.float64)
    got = getattr(fastblur, name)(a, 1.7, output=out)
    assert got is out
    same_bits(out, getattr(nd, name)(a, 1.7, output=np.float64))
    np.testing.assert_array_equal(a, before)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_axes(rng, name):
    a = random_array(rng, (11, 13, 9), np.float64)
    got = getattr(fastblur, name)(a, [1.3, 2.1], axes=(0, 2), mode=["nearest", "wrap"])
    if "axes" in inspect.signature(getattr(nd, name)).parameters:
        same_bits(got, getattr(nd, name)(a, [1.3, 2.1], axes=(0, 2), mode=["nearest", "wrap"]))
    # SciPy's composition: per filtered axis a gaussian_filter with sigma 0 on the other axis.
    order = 2 if name == "gaussian_laplace" else 1
    parts = [nd.gaussian_filter(a, [1.3, 0, 2.1], [order if i == ax else 0 for i in range(3)], mode=m)
             for ax, m in ((0, "nearest"), (2, "wrap"))]
    want = parts[0] + parts[1] if order == 2 else np.sqrt(parts[0] * parts[0] + parts[1] * parts[1])
    same_bits(got, want)
    np.testing.assert_array_equal(getattr(fastblur, name)(a, 1.0, axes=()), a)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_zero_d_and_errors(rng, name):
    f, g = getattr(fastblur, name), getattr(nd, name)
    same_bits(f(np.float64(3.5), 1.0), g(np.float64(3.5), 1.0))
    a = random_array(rng, (8, 9), np.float32)
    for args, kwargs in [((a, [1.0, 2.0, 3.0]), {}), ((a, 1.0), {"mode": "bogus"}), ((a, 1.0), {"mode": ["reflect"] * 3}),
                         ((a, 1.0), {"output": np.empty((3, 3))})]:
        with pytest.raises(Exception) as theirs:
            g(*args, **kwargs)
        with pytest.raises(type(theirs.value)):
            f(*args, **kwargs)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_module_keywords_pass_through(rng, name):
    a = random_array(rng, (31, 29), np.uint8)
    same_bits(getattr(fastblur, name)(a, 1.4, threads=1), getattr(nd, name)(a, 1.4))
    near = getattr(fastblur, name)(a, 1.4, output=np.float32, rounding="nearest")
    np.testing.assert_allclose(near, getattr(nd, name)(a.astype(np.float64), 1.4).astype(np.float32), rtol=1e-4, atol=1e-3)
    approx = getattr(fastblur, name)(a.astype(np.float32), 2.0, tolerance=1e-2)
    exact = getattr(nd, name)(a.astype(np.float32), 2.0)
    assert np.max(np.abs(approx - exact)) <= 0.05 * np.max(np.abs(exact)) + 1e-3
    with pytest.raises(ValueError):
        getattr(fastblur, name)(a, 1.0, threads=-1)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vulkan_device(rng, name):
    if not any(d["name"].startswith("vulkan:") for d in fastblur.devices()):
        pytest.skip("no Vulkan device")
    a = random_array(rng, (40, 36), np.float32)
    # The Vulkan backend has no derivative kernels yet: a clear refusal, never a silent CPU fallback.
    with pytest.raises(NotImplementedError, match="derivative orders are not available on the Vulkan backend"):
        getattr(fastblur, name)(a, 1.5, device="vulkan")


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("dtype,out", [(np.float64, None), (np.float32, None), (np.uint8, np.float32),
                                       (np.int16, np.float64)])
def test_core_combination_keeps_scipy_bits(rng, name, dtype, out):
    """The core's one pass (a 2D image, float output) and its blur-by-blur path (an RGB image's three
    axes) give SciPy's bits on images larger than a band per thread, with threads and modes."""
    for shape in [(71, 93), (37, 29, 3)]:
        a = random_array(rng, shape, dtype)
        for kwargs in [dict(sigma=1.7), dict(sigma=[2.5, 0.8] + [1.0] * (len(shape) - 2), mode="nearest"),
                       dict(sigma=1.3, mode="constant", cval=-2.0, truncate=3.0)]:
            want = getattr(nd, name)(a, output=out, **kwargs)
            same_bits(getattr(fastblur, name)(a, output=out, threads=3, **kwargs), want)
            given = np.empty(shape, want.dtype)
            assert getattr(fastblur, name)(a, output=given, **kwargs) is given
            same_bits(given, want)
