"""fastblur.correlate1d: the core's `correlate` algorithm (the caller's weights as the plan's kernel),
SciPy's bits by default on every dtype, mode, axis and kernel shape; 'nearest' within one rounding;
the plan that ran; clear refusals."""
import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur
from fastblur import _core

MODES = ["reflect", "mirror", "nearest", "wrap", "constant", "grid-wrap"]
KERNELS = {
    "symmetric": [0.25, 0.5, 0.25],
    "binomial5": [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16],
    "asymmetric": [0.5, 0.3, 0.2],
    "even": [0.1, 0.6, 0.2, 0.1],
    "derivative": [-0.5, 0.0, 0.5],
    "sharpen": [-1.0, 3.0, -1.0],
    "single": [2.0],
    "two": [1.0, -1.0],
}


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape, endpoint=True).astype(dtype)
    return (rng.random(shape) * 10 - 3).astype(dtype)


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("dtype", ["uint8", "int16", "uint16", "int32", "float32", "float64"])
def test_scipys_bits_on_every_dtype_mode_and_axis(rng, kernel, dtype):
    w = KERNELS[kernel]
    a = random_array(rng, (7, 1, 13), dtype)  # a one-sample axis too: weights not summing to 1 scale it
    for mode in MODES:
        for axis in (0, 1, -1):
            want = nd.correlate1d(a, w, axis=axis, mode=mode, cval=2.5)
            got = fastblur.correlate1d(a, w, axis=axis, mode=mode, cval=2.5)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=f"{kernel} {dtype} {mode} axis {axis}")


@pytest.mark.parametrize("kernel", ["symmetric", "asymmetric", "even", "sharpen"])
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32", "float64"])
def test_rounding_nearest_is_within_one_rounding(rng, kernel, dtype):
    w = np.array(KERNELS[kernel])
    a = random_array(rng, (31, 45), dtype)
    exact = nd.correlate1d(a.astype(np.float64), w, axis=1, mode="mirror")
    got = fastblur.correlate1d(a, w, axis=1, mode="mirror", rounding="nearest")
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        # fir's 16-bit fixed point for 8-bit images (within 1), else the rounded result
        bound = 1.0 + 1e-9 if dtype == "uint8" else 0.5 + 1e-9
        assert np.abs(got.astype(np.float64) - np.clip(exact, info.min, info.max)).max() <= bound
    else:
        np.testing.assert_allclose(got, exact, rtol=0, atol=1e-5 * np.abs(exact).max())


def test_the_core_runs_it_as_its_plan_says(rng):
    a = random_array(rng, (20, 30), "float32")
    fastblur.correlate1d(a, KERNELS["asymmetric"], axis=0)
    run = _core.last_run()
    assert run["algorithm"] == "correlate" and run["driver"] == "scipy-order", run
    fastblur.correlate1d(a, KERNELS["asymmetric"], axis=0, rounding="nearest")
    assert _core.last_run()["driver"] == "lines"
    fastblur.correlate1d(a, KERNELS["binomial5"], axis=1, rounding="nearest")
    assert _core.last_run()["driver"] in ("axis-passes", "fused-rows")


def test_output_and_in_place(rng):
    a = random_array(rng, (9, 14), "float64")
    want = nd.correlate1d(a, KERNELS["even"], axis=0)
    out = np.empty_like(a)
    assert fastblur.correlate1d(a, KERNELS["even"], axis=0, output=out) is out
    np.testing.assert_array_equal(out, want)
    fastblur.correlate1d(a, KERNELS["even"], axis=0, output=a)
    np.testing.assert_array_equal(a, want)
    np.testing.assert_array_equal(fastblur.correlate1d(a, [1.0, 2.0], output=np.float32),
                                  nd.correlate1d(a, [1.0, 2.0], output=np.float32))


def test_vulkan_takes_symmetric_odd_weights(rng):
    gpus = [d for d in fastblur.devices() if d["name"].startswith("vulkan:")]
    if not gpus:
        pytest.skip("no Vulkan device")
    a = random_array(rng, (24, 40), "float32")
    got = fastblur.correlate1d(a, KERNELS["binomial5"], axis=1, device="vulkan")
    np.testing.assert_allclose(got, nd.correlate1d(a.astype(np.float64), KERNELS["binomial5"], axis=1),
                               atol=2e-6, rtol=0)
    with pytest.raises(NotImplementedError, match="symmetric"):
        fastblur.correlate1d(a, KERNELS["asymmetric"], device="vulkan")


def test_refusals_are_scipys_or_say_what_is_missing(rng):
    a = random_array(rng, (5, 6), "float32")
    with pytest.raises(RuntimeError):
        fastblur.correlate1d(a, [])
    with pytest.raises(ValueError):
        fastblur.correlate1d(a, [1.0, 2.0, 3.0], origin=2)
    with pytest.raises(NotImplementedError, match="origin"):
        fastblur.correlate1d(a, [1.0, 2.0, 3.0], origin=1)
    with pytest.raises(ValueError, match="correlate_weights"):
        fastblur.correlate1d(a, [1.0, np.nan])
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        fastblur.correlate1d(a, [1.0], axis=2)
