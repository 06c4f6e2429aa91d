"""fastblur.dask against one fastblur call on the whole array: bit-identical for fir (and the exact
default on float64 and integer data) for every border mode, 2D and 3D, uneven chunks and chunks
smaller than the halo; within rounding of the tolerance for the approximations; the module's errors
for bad input. Runs on dask's local schedulers (test_dask_cluster.py has the cluster)."""
import dask
import dask.array as da
import numpy as np
import pytest

import fastblur
import fastblur.dask as fbd

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return rng.integers(0, min(np.iinfo(dtype).max, 1000), size=shape, endpoint=True).astype(dtype)
    return rng.random(shape).astype(dtype)


def random_chunks(rng, n, smallest=1, largest=None):
    """Uneven chunks of an axis of length n, from `smallest` to `largest` (default n // 2) each."""
    largest = largest or max(smallest, n // 2)
    out = []
    while sum(out) < n:
        out.append(int(min(rng.integers(smallest, largest, endpoint=True), n - sum(out))))
    return tuple(out)


def chunked(rng, a, smallest=1, largest=None):
    return da.from_array(a, chunks=tuple(random_chunks(rng, n, smallest, largest) for n in a.shape))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "uint8", "uint16"])
@pytest.mark.parametrize("ndim", [2, 3])
def test_fir_bit_identical_every_mode(rng, mode, dtype, ndim):
    shape = (41, 33) if ndim == 2 else (19, 17, 23)
    a = random_array(rng, shape, dtype)
    sigma = [float(s) for s in rng.uniform(0.8, 3.0, size=ndim)]
    x = chunked(rng, a, 1, 9)  # chunks of 1 to 9: many smaller than the halo (up to radius 12)
    for algorithm in ("fir", "auto"):
        want = fastblur.gaussian_filter(a, sigma, mode=mode, cval=7.5, algorithm=algorithm)
        y = fbd.gaussian_filter(x, sigma, mode=mode, cval=7.5, algorithm=algorithm)
        assert y.chunks == x.chunks and y.dtype == want.dtype
        got = y.compute(scheduler="threads")
        assert np.array_equal(got, want, equal_nan=True), (algorithm, x.chunks)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "int32"])
def test_integers_to_nearest_bit_identical(rng, dtype):
    # rounding='nearest' on integer volumes (and 32-bit images) is SciPy's order in double rounded
    # once, at every size: a whole volume past a quarter of a 32 MiB cache in the float32 passes'
    # bytes (where a rule by size once put it on the fused planes, its chunks on the float32 passes:
    # within 1) and chunks down to rows shorter than a vector (filtered across rows) get the same bits.
    a = rng.integers(-2000 if dtype != "uint8" else 0, 250 if dtype == "uint8" else 2000, size=(64, 140, 150),
                     endpoint=True).astype(dtype)
    x = chunked(rng, a, 3, 60)
    for sigma in (1.3, (0.9, 2.0, 1.6)):
        want = fastblur.gaussian_filter(a, sigma, rounding="nearest")
        got = fbd.gaussian_filter(x, sigma, rounding="nearest").compute(scheduler="threads")
        assert np.array_equal(got, want), (dtype, sigma, x.chunks, int(np.abs(got.astype(np.int64) - want).max()))
    if dtype == "int32":
        b = a[0]
        want = fastblur.gaussian_filter(b, 2.5, rounding="nearest")
        got = fbd.gaussian_filter(chunked(rng, b, 3, 40), 2.5, rounding="nearest").compute(scheduler="threads")
        assert np.array_equal(got, want)


@pytest.mark.parametrize("ndim", [2, 3])
def test_per_axis_sigma_mode_radius_axes_order(rng, ndim):
    shape = (30, 26) if ndim == 2 else (14, 18, 21)
    a = random_array(rng, shape, "float32")
    x = chunked(rng, a, 2, 12)
    for _ in range(4):
        axes = [ax for ax in range(ndim) if rng.random() < 0.7] or [0]
        n = len(axes)
        sigma = [float(s) for s in rng.uniform(0.5, 3.5, size=n)]
        mode = [MODES[i] for i in rng.integers(0, len(MODES), size=n)]
        order = [int(o) for o in rng.integers(0, 3, size=n)]
        radius = [int(r) for r in rng.integers(2, 9, size=n)] if rng.random() < 0.5 else None
        kw = dict(mode=mode, order=order, radius=radius, axes=axes, truncate=3.5, algorithm="fir", cval=-2.0)
        want = fastblur.gaussian_filter(a, sigma, **kw)
        got = fbd.gaussian_filter(x, sigma, **kw).compute()
        assert np.array_equal(got, want), kw


def test_sigma_zero_axis_and_no_axes(rng):
    a = random_array(rng, (20, 24), "float32")
    x = chunked(rng, a, 3, 8)
    assert np.array_equal(fbd.gaussian_filter(x, (0, 2.0), algorithm="fir").compute(),
                          fastblur.gaussian_filter(a, (0, 2.0), algorithm="fir"))
    assert np.array_equal(fbd.gaussian_filter(x, 0).compute(), a)
    assert fbd.gaussian_filter(x, 2.0, output=np.float64).dtype == np.float64


@pytest.mark.parametrize("mode", MODES)
def test_gaussian_filter1d(rng, mode):
    a = random_array(rng, (25, 31), "float64")
    x = chunked(rng, a, 1, 7)
    for axis in (0, -1):
        want = fastblur.gaussian_filter1d(a, 2.7, axis=axis, mode=mode, order=1)
        assert np.array_equal(fbd.gaussian_filter1d(x, 2.7, axis=axis, mode=mode, order=1).compute(), want)


def cpu_algorithms():
    return [a["name"] for a in fastblur.algorithms() if not a["gpu_only"] and a["name"] not in ("fir", "auto")]


@pytest.mark.parametrize("algorithm", cpu_algorithms())
@pytest.mark.parametrize("mode", MODES)
def test_approximations_agree_with_one_call(rng, algorithm, mode):
    info = {a["name"]: a for a in fastblur.algorithms()}[algorithm]
    ndim = 2 if info["planar"] else 3
    shape = (48, 40) if ndim == 2 else (24, 30, 36)
    a = random_array(rng, shape, "float32")
    sigma = [float(s) for s in rng.uniform(1.5, 3.0, size=ndim)]
    x = chunked(rng, a, 3, 14)
    try:
        want = fastblur.gaussian_filter(a, sigma, mode=mode, algorithm=algorithm)
    except NotImplementedError:  # a mode the algorithm does not have: chunks refuse it the same way
        with pytest.raises(NotImplementedError):
            fbd.gaussian_filter(x, sigma, mode=mode, algorithm=algorithm).compute()
        return
    got = fbd.gaussian_filter(x, sigma, mode=mode, algorithm=algorithm).compute()
    # Chunking adds rounding only (the finite kernels' reach, iir's transients decayed by 1e-8): far
    # below any algorithm's error against the Gaussian (1e-5 for the exact ones, 1e-3 up for the rest).
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-6)


def test_auto_with_tolerance_plans_once(rng):
    a = random_array(rng, (64, 96), "float32")
    x = chunked(rng, a, 5, 20)
    for sigma in (3.0, 12.0):
        reach, algorithm = fbd.halo(x, sigma, tolerance=1e-2)
        assert algorithm == fastblur.plan(a.shape, sigma, tolerance=1e-2)["algorithm"]
        want = fastblur.gaussian_filter(a, sigma, tolerance=1e-2)
        got = fbd.gaussian_filter(x, sigma, tolerance=1e-2).compute()
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-6)


def test_a_tolerances_factor_8_keeps_every_chunk_on_its_block_grid(rng):
    # Within 1e-2 at sigma 50 the plan is downsample at factor 8 with a shortened low-resolution
    # kernel: every chunk starts its pieces on the 8-sample block grid and runs those options, so
    # the chunked blur is the whole call's, bit for bit, for every mode.
    a = random_array(rng, (300, 263), "float32")
    p = fastblur.plan(a.shape, 50.0, tolerance=1e-2)
    assert p["algorithm"] == "downsample" and p["options"]["downsample_factor"] == 8, p["description"]
    assert p["align"] == [8, 8]  # the plan's block grid, which the chunks read from it
    assert fastblur.plan(a.shape, 2.0)["align"] == [1, 1]
    x = chunked(rng, a, 40, 130)
    for mode in MODES:
        want = fastblur.gaussian_filter(a, 50.0, tolerance=1e-2, mode=mode)
        got = fbd.gaussian_filter(x, 50.0, tolerance=1e-2, mode=mode).compute()
        np.testing.assert_array_equal(got, want, err_msg=mode)


def test_chunks_run_the_plans_rounding(rng):
    # A tolerance's plan rounds to nearest (it is not SciPy's filter), also where it chose fir: every
    # chunk must round so too, not run SciPy's truncating order because fir is named to it.
    a = rng.integers(0, 255, size=(40, 44)).astype(np.uint8)
    x = da.from_array(a, chunks=(15, 17))
    for kw in (dict(tolerance=1e-2), dict(tolerance=1e-4), dict()):
        whole = fastblur.gaussian_filter(a, 1.3, **kw)
        np.testing.assert_array_equal(fbd.gaussian_filter(x, 1.3, **kw).compute(), whole, err_msg=str(kw))


def test_halo_comes_from_the_plan():
    assert fbd.halo((100, 100), 2.0, algorithm="fir")[0] == [8, 8]
    assert fbd.halo((100, 100), (2.0, 0), algorithm="fir")[0] == [8, 0]
    assert fbd.halo((100, 100), 2.0, radius=3, algorithm="fir")[0] == [3, 3]
    reach, _ = fbd.halo((100, 100), 2.0, algorithm="box")
    assert reach == fastblur.plan((100, 100), 2.0, algorithm="box")["support"]
    reach, _ = fbd.halo((100, 100), 4.0, algorithm="iir")
    assert all(r > 4 * 4.0 for r in reach)  # the recursion's tail, well past fir's radius
    assert fbd.halo((100, 100), 2.0, algorithm="dual-kawase")[0] == [None, None]  # whole axes


def test_iir_halo_is_where_the_tail_is_negligible(rng):
    # A chunk boundary's transient, after the plan's support, is below 1e-6 of the data's range.
    a = random_array(rng, (400,), "float64")
    x = da.from_array(a, chunks=37)
    want = fastblur.gaussian_filter(a, 6.0, algorithm="iir")
    got = fbd.gaussian_filter(x, 6.0, algorithm="iir").compute()
    assert np.max(np.abs(got - want)) < 1e-6


def test_lazy_and_threads(rng):
    a = random_array(rng, (40, 40), "float32")
    x = chunked(rng, a, 5, 15)
    y = fbd.gaussian_filter(x, 2.0, algorithm="fir", threads=2)
    assert isinstance(y, da.Array)
    want = fastblur.gaussian_filter(a, 2.0, algorithm="fir")
    for scheduler in ("sync", "threads", "processes"):
        assert np.array_equal(y.compute(scheduler=scheduler), want), scheduler
    # A graph of a graph: blurring a blurred dask array, still lazy and still one call's result.
    z = fbd.gaussian_filter(y, 1.0, algorithm="fir")
    assert np.array_equal(z.compute(), fastblur.gaussian_filter(want, 1.0, algorithm="fir"))


def test_bad_input(rng):
    a = random_array(rng, (10, 12), "float32")
    x = da.from_array(a, chunks=5)
    with pytest.raises(TypeError, match="dask array"):
        fbd.gaussian_filter(a, 2.0)
    with pytest.raises(TypeError, match="dask array"):
        fbd.gaussian_filter1d([1.0, 2.0], 2.0)
    with pytest.raises(RuntimeError, match="sequence argument must have length equal to input rank"):
        fbd.gaussian_filter(x, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="chunk of length 0"):
        fbd.gaussian_filter(da.from_array(a, chunks=((5, 0, 5), (12,))), 2.0)
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        fbd.gaussian_filter(x, 2.0, mode="bogus")
    with pytest.raises(ValueError, match="Radius must be a nonnegative integer"):
        fbd.gaussian_filter(x, 2.0, radius=-1)
    with pytest.raises(ValueError, match="out of range"):
        fbd.gaussian_filter(x, 2.0, axes=(0, 2))
    with pytest.raises(ValueError, match="tolerance"):
        fbd.gaussian_filter(x, 2.0, tolerance=-1)
    with pytest.raises(ValueError, match="threads"):
        fbd.gaussian_filter(x, 2.0, threads=-2)
    with pytest.raises(TypeError, match="order"):
        fbd.gaussian_filter(x, 2.0, order=1.5)
    with pytest.raises(TypeError, match="output must be a dtype"):
        fbd.gaussian_filter(x, 2.0, output=np.empty_like(a))
    with pytest.raises(ValueError, match="no_such_option"):
        fbd.gaussian_filter(x, 2.0, algorithm="box", options={"no_such_option": 1})
    with pytest.raises(ValueError):
        fbd.gaussian_filter(x, 2.0, algorithm="no-such-algorithm")
    with pytest.raises(RuntimeError, match="not supported"):
        fbd.gaussian_filter(da.from_array(np.array(["a", "b"])), 1.0)
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        fbd.gaussian_filter1d(x, 2.0, axis=2)


@pytest.mark.parametrize("name", ["gaussian_laplace", "gaussian_gradient_magnitude"])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
def test_gaussian_family_equals_one_call(rng, name, dtype):
    shape = (37, 29, 11)
    x = random_array(rng, shape, dtype)
    chunks = tuple(random_chunks(rng, n, smallest=2) for n in shape)
    modes = list(rng.choice(MODES, size=3))
    sigma = list(rng.uniform(0.6, 2.5, size=3))
    for kwargs in [dict(sigma=sigma, mode=modes), dict(sigma=sigma[:2], axes=(0, 2), output=np.float64)]:
        lazy = getattr(fbd, name)(da.from_array(x, chunks=chunks), **kwargs)
        assert lazy.chunks == chunks
        got = lazy.compute(scheduler="threads")
        want = getattr(fastblur, name)(x, **kwargs)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError):
        getattr(fbd, name)(x, 1.0)


@pytest.mark.parametrize("mode", ["reflect", "nearest", "wrap", "constant"])
def test_missing_data_chunked_equals_one_call(rng, mode):
    """nan_policy='omit' (and preserve_nan, cval NaN) and mask= (bool flags, float certainty, a NumPy
    or a differently chunked dask mask) chunk by chunk: bit-identical to one call, holes across chunk
    borders included."""
    a = rng.random((70, 90))
    a[rng.random(a.shape) < 0.1] = np.nan
    a[15:40, 20:55] = np.nan  # a blob over several chunks
    x = da.from_array(a, chunks=(23, 31))
    for kw in [dict(), dict(preserve_nan=True), dict(cval=np.nan)]:
        got = fbd.gaussian_filter(x, 2.2, mode=mode, nan_policy="omit", **kw).compute(scheduler="synchronous")
        want = fastblur.gaussian_filter(a, 2.2, mode=mode, nan_policy="omit", **kw)
        assert np.array_equal(got, want, equal_nan=True), kw
    line = da.from_array(a[3], chunks=25)
    assert np.array_equal(fbd.gaussian_filter1d(line, 3.0, nan_policy="omit").compute(scheduler="synchronous"),
                          fastblur.gaussian_filter1d(a[3], 3.0, nan_policy="omit"), equal_nan=True)
    b = rng.random((70, 90))
    flags = rng.random(b.shape) < 0.1
    flags[15:40, 20:55] = True
    certainty = rng.random(b.shape)
    y = da.from_array(b, chunks=(23, 31))
    for m in (flags, certainty, da.from_array(flags, chunks=(35, 45))):
        for kw in [dict(), dict(preserve_nan=True)]:
            got = fbd.gaussian_filter(y, 2.2, mode=mode, mask=m, **kw).compute(scheduler="synchronous")
            want = fastblur.gaussian_filter(b, 2.2, mode=mode, mask=np.asarray(m), **kw)
            assert np.array_equal(got, want, equal_nan=True), (type(m), m.dtype, kw)
    got = fbd.gaussian_filter1d(da.from_array(b[5], chunks=25), 3.0, mask=flags[5]).compute(scheduler="synchronous")
    assert np.array_equal(got, fastblur.gaussian_filter1d(b[5], 3.0, mask=flags[5]), equal_nan=True)
    with pytest.raises(ValueError, match="shape"):
        fbd.gaussian_filter(y, 2.0, mask=flags[:10])
