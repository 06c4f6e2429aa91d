"""The CLI against scipy.ndimage.gaussian_filter on random .npy arrays: every border mode,
truncate, explicit radius, per-axis sigma, awkward shapes. Run by ctest with Debian's python3."""
import math
import os
import subprocess
import tempfile

import numpy as np
import pytest
import scipy
from scipy import ndimage

CLI = os.environ.get("FASTBLUR_CLI", "fastblur")
SEED = int(os.environ.get("FASTBLUR_TEST_SEED", np.random.SeedSequence().entropy % (2**63)))
print(f"FASTBLUR_TEST_SEED={SEED}")
MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]
SHAPES = [(1, 1), (1, 17), (23, 1), (31, 29), (64, 48), (7, 11, 13), (5, 1, 9)]


def run_cli(arr, *args):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.npy"), os.path.join(d, "out.npy")
        np.save(src, arr)
        proc = subprocess.run([CLI, "blur", src, dst, *args], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return np.load(dst)


def sigma_arg(sigma):
    return ",".join(repr(float(s)) for s in np.atleast_1d(sigma))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_float32_matches_scipy(mode, shape):
    rng = np.random.default_rng([SEED, MODES.index(mode), *shape])
    arr = rng.random(shape, dtype=np.float32)
    cval = float(rng.uniform(-1, 2))
    truncate = float(rng.uniform(1.0, 5.0))
    # One value for every axis, then one per axis with an untouched axis among them.
    per_axis = rng.uniform(0.3, 6.0, size=len(shape))
    per_axis[rng.integers(len(shape))] = 0.0
    for sigma in (float(rng.uniform(0.3, 8.0)), per_axis):
        want = ndimage.gaussian_filter(arr, sigma, mode=mode, cval=cval, truncate=truncate)
        got = run_cli(arr, "--sigma", sigma_arg(sigma), "--border", mode, "--cval", repr(cval),
                      "--truncate", repr(truncate))
        assert got.dtype == np.float32 and got.shape == arr.shape
        err = np.abs(got.astype(np.float64) - want).max()
        assert err <= 2e-5, f"sigma {sigma} truncate {truncate}: max error {err}"


@pytest.mark.parametrize("mode", MODES)
def test_sigma_larger_than_the_image(mode):
    rng = np.random.default_rng([SEED, 99, MODES.index(mode)])
    arr = rng.random((9, 6), dtype=np.float32)
    want = ndimage.gaussian_filter(arr, 40.0, mode=mode, cval=0.5)
    got = run_cli(arr, "--sigma", "40", "--border", mode, "--cval", "0.5")
    assert np.abs(got - want).max() <= 2e-5


@pytest.mark.parametrize("mode", MODES)
def test_float64_is_computed_in_double(mode):
    rng = np.random.default_rng([SEED, 7, MODES.index(mode)])
    arr = rng.standard_normal((19, 23))
    want = ndimage.gaussian_filter(arr, (2.5, 1.2), mode=mode)
    got = run_cli(arr, "--sigma", "2.5,1.2", "--border", mode)
    assert got.dtype == np.float64
    assert np.abs(got - want).max() <= 1e-12


@pytest.mark.skipif(tuple(map(int, scipy.__version__.split(".")[:2])) < (1, 10),
                    reason="scipy.ndimage.gaussian_filter has radius= from SciPy 1.10")
def test_explicit_radius_matches_scipy():
    rng = np.random.default_rng([SEED, 3])
    arr = rng.random((40, 33), dtype=np.float32)
    want = ndimage.gaussian_filter(arr, (3.0, 2.0), radius=(2, 5), mode="wrap")
    got = run_cli(arr, "--sigma", "3,2", "--radius", "2,5", "--border", "wrap")
    assert np.abs(got - want).max() <= 2e-5


def test_per_axis_border_modes_match_scipy():
    rng = np.random.default_rng([SEED, 5])
    arr = rng.random((12, 15, 10), dtype=np.float32)
    want = ndimage.gaussian_filter(arr, (1.5, 2.0, 3.0), mode=["wrap", "nearest", "mirror"])
    got = run_cli(arr, "--sigma", "1.5,2,3", "--border", "wrap,nearest,mirror")
    assert np.abs(got - want).max() <= 2e-5


def test_hxwxc_leaves_the_channel_axis_alone():
    rng = np.random.default_rng([SEED, 11])
    arr = rng.random((21, 17, 3), dtype=np.float32)
    got = run_cli(arr, "--sigma", "2,2,0")
    want = ndimage.gaussian_filter(arr, (2, 2, 0))
    assert np.abs(got - want).max() <= 2e-5
    # Each channel blurred on its own equals the whole.
    for c in range(3):
        assert np.abs(got[..., c] - ndimage.gaussian_filter(arr[..., c], 2)).max() <= 2e-5


def libm_kernel(sigma, truncate=4.0):
    """The core's Gaussian weights (src/kernel/gaussian.cpp): NumPy's formula and pairwise sum,
    with libm's exp (Python's math.exp) where NumPy may use its own."""
    r = int(truncate * sigma + 0.5)
    a = -0.5 / (sigma * sigma)
    w = np.array([math.exp(a * float(i * i)) for i in range(-r, r + 1)])
    return w / w.sum()


def scipy_with_weights(arr, sigma, mode, cval, kernel):
    """SciPy's gaussian_filter arithmetic exactly (correlate1d along each axis in order, the output
    type after each) with the given kernel for each sigma."""
    out = arr
    for axis, s in enumerate(np.broadcast_to(np.asarray(sigma, dtype=float), (arr.ndim,))):
        if s > 1e-15:
            out = ndimage.correlate1d(out, kernel(s)[::-1], axis, mode=mode, cval=cval)
    return out


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "uint64", "float32", "float64"])
def test_rounding_scipy_is_scipys_arithmetic(dtype):
    # --rounding scipy: the core's scipy-order driver with the core's own weights (the Gaussian as
    # SciPy samples and normalises it, libm's exp), on .npy arrays of every dtype: SciPy's
    # correlate1d with those weights to the bit, and gaussian_filter itself within NumPy's exp
    # (its SIMD exp rounds some weights differently in the last bit on AVX2/AVX-512 machines).
    rng = np.random.default_rng([SEED, 7, np.dtype(dtype).num])
    for shape, sigma, mode in (((37, 41), 1.7, "reflect"), ((9, 13, 11), 1.2, "wrap"), ((64, 3), 3.3, "mirror"),
                               ((50, 60), (2.0, 0.0), "nearest"), ((30, 20), 6.5, "constant")):
        if np.dtype(dtype).kind in "iu":
            arr = rng.integers(0, 250, size=shape).astype(dtype)
        else:
            arr = rng.random(shape).astype(dtype)
        got = run_cli(arr, "--sigma", sigma_arg(sigma), "--border", mode, "--cval", "3", "--rounding", "scipy")
        want = scipy_with_weights(arr, sigma, mode, 3.0, libm_kernel)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want, err_msg=f"{dtype} {shape} {mode}")
        scipys = ndimage.gaussian_filter(arr, sigma, mode=mode, cval=3.0)
        if np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(got, scipys, rtol=1e-6 if dtype == "float32" else 1e-14, atol=0)
        else:
            assert np.abs(got.astype(np.float64) - scipys.astype(np.float64)).max() <= 1


def test_explain_names_the_scipy_order_driver():
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.npy"), os.path.join(d, "out.npy")
        np.save(src, np.zeros((20, 30), np.int16))
        proc = subprocess.run([CLI, "blur", src, dst, "--sigma", "2", "--rounding", "scipy", "--explain"],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert "driver scipy-order" in proc.stdout and "converted to i16 (truncated)" in proc.stdout, proc.stdout
        proc = subprocess.run([CLI, "blur", src, dst, "--sigma", "2", "--rounding", "banker"], capture_output=True, text=True)
        assert proc.returncode != 0 and "banker" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
