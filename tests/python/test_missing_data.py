"""Data with holes in the Python drop-in (nan_policy='omit', mask=, preserve_nan=, numpy.ma input): the
normalized convolution against the recipe people hand-write (two scipy.ndimage.gaussian_filter calls
and a division, float64) and against astropy's convolve(nan_treatment='interpolate') with SciPy's 2D
kernel on the borders both have; no hole = the plain blur; empty neighbourhoods; integer data with a
mask; the refusals. Random data from the conftest's seeded rng."""
import warnings

import astropy.convolution as astropy_convolution  # Debian's python3-astropy (the README's test command installs it)
import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur


def with_holes(rng, shape, share=0.1):
    a = rng.random(shape) * 10 - 3
    a[rng.random(shape) < share] = np.nan
    slices = tuple(slice(s // 4, s // 4 + max(1, s // 5)) for s in shape)
    a[slices] = np.nan  # a blob
    return a


def recipe(a, sigma, **kw):
    """What geoscience code hand-writes: blur the data with holes at 0, blur the validity, divide."""
    valid = ~np.isnan(a)
    num = nd.gaussian_filter(np.where(valid, a, 0.0), sigma, **kw)
    den = nd.gaussian_filter(valid.astype(np.float64), sigma, **kw)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 4 * np.finfo(np.float64).eps, num / den, np.nan)


def close(got, want, rtol=1e-12):
    assert got.shape == want.shape
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=rtol, atol=rtol * np.nanmax(np.abs(want)))


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap"])
@pytest.mark.parametrize("shape,sigma", [((57, 83), 2.0), ((40, 31), (1.5, 3.0)), ((13, 17, 11), 1.2), ((300,), 4.0)])
def test_omit_equals_the_recipe(rng, mode, shape, sigma):
    a = with_holes(rng, shape)
    close(fastblur.gaussian_filter(a, sigma, mode=mode, nan_policy="omit", threads=2), recipe(a, sigma, mode=mode))


@pytest.mark.parametrize("boundary,mode", [("extend", "nearest"), ("wrap", "wrap"), ("fill", "constant")])
def test_omit_equals_astropy_interpolate(rng, boundary, mode):
    a = with_holes(rng, (41, 53))
    sigma, radius = 1.8, 7
    k1 = nd.gaussian_filter1d(np.eye(1, 2 * radius + 1, radius).ravel(), sigma, radius=radius, mode="constant")
    kernel = np.outer(k1, k1)
    for fill in ([0.0, 2.5, np.nan] if boundary == "fill" else [0.0]):
        want = astropy_convolution.convolve(a, kernel, boundary=boundary, fill_value=fill, nan_treatment="interpolate",
                                            normalize_kernel=True, preserve_nan=False)
        got = fastblur.gaussian_filter(a, sigma, mode=mode, cval=fill, radius=radius, nan_policy="omit")
        close(got, want)


def test_no_hole_is_the_plain_blur(rng):
    a = rng.random((45, 38))
    close(fastblur.gaussian_filter(a, 2.3, nan_policy="omit"), fastblur.gaussian_filter(a, 2.3, rounding="nearest"), 1e-13)
    f = a.astype(np.float32)
    close(fastblur.gaussian_filter(f, 2.3, nan_policy="omit").astype(np.float64),
          fastblur.gaussian_filter(a, 2.3).astype(np.float64), 2e-6)


def test_masks_masked_arrays_and_certainty_weights(rng):
    a = rng.random((50, 60)) * 100
    holes = rng.random(a.shape) < 0.2
    want = recipe(np.where(holes, np.nan, a), 2.0)
    close(fastblur.gaussian_filter(a, 2.0, mask=holes), want)
    close(fastblur.gaussian_filter(np.ma.masked_array(a, holes), 2.0), want)
    weights = rng.random(a.shape)
    num = nd.gaussian_filter(a * weights, 2.0)
    den = nd.gaussian_filter(weights, 2.0)
    close(fastblur.gaussian_filter(a, 2.0, mask=weights), num / den)
    # One mask for every channel of an RGB image, broadcast.
    rgb = rng.random((30, 40, 3))
    got = fastblur.gaussian_filter(rgb, (2, 2, 0), mask=holes[:30, :40, None])
    for c in range(3):
        close(got[..., c], recipe(np.where(holes[:30, :40], np.nan, rgb[..., c]), 2.0))


def test_integer_data_and_empty_neighbourhoods(rng):
    a = rng.integers(0, 255, (40, 50), dtype=np.uint8)
    holes = np.zeros(a.shape, bool)
    holes[5:30, 5:40] = True  # deeper than the kernel: nothing valid under it in the middle
    got = fastblur.gaussian_filter(a, 1.0, mask=holes, cval=7)
    want = recipe(np.where(holes, np.nan, a.astype(np.float64)), 1.0)
    assert got.dtype == np.uint8
    assert np.all(got[np.isnan(want)] == 7)  # empty: cval
    assert np.max(np.abs(got[~np.isnan(want)] - np.rint(want[~np.isnan(want)]))) <= 1
    f = np.full((20, 20), np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = fastblur.gaussian_filter(f, 3.0, nan_policy="omit")
    assert np.isnan(out).all()


def test_preserve_nan_and_1d_and_in_place(rng):
    a = with_holes(rng, (37, 29))
    got = fastblur.gaussian_filter(a, 1.5, nan_policy="omit", preserve_nan=True)
    assert np.array_equal(np.isnan(got), np.isnan(a))
    line = with_holes(rng, (200,))
    close(fastblur.gaussian_filter1d(line, 3.0, nan_policy="omit"), recipe(line, 3.0))
    b = a.copy()
    want = fastblur.gaussian_filter(a, 1.5, nan_policy="omit")
    assert fastblur.gaussian_filter(b, 1.5, output=b, nan_policy="omit") is b
    close(b, want, 1e-15)


def test_tolerance_keeps_its_bound_on_the_weighted_result(rng):
    a = with_holes(rng, (120, 140), share=0.05).astype(np.float32)
    exact = fastblur.gaussian_filter(a, 8.0, nan_policy="omit").astype(np.float64)
    fast = fastblur.gaussian_filter(a, 8.0, nan_policy="omit", tolerance=1e-2).astype(np.float64)
    assert np.array_equal(np.isnan(exact), np.isnan(fast))
    err = np.nanmax(np.abs(fast - exact)) / np.nanmax(np.abs(a))
    assert err <= 2e-2, err  # the planner's bound on each of the two sums, through the division


def test_a_tolerance_bounds_each_sum_so_the_quotient_by_its_weight(rng):
    # Within a tolerance the two sums, G*(x w) and G*w, each keep the planner's bound (t of the
    # values' range, t of the weights'), so the quotient's error is at most 2 t M / (G*w - t): small
    # where the weight under the kernel is large, unbounded deep inside a large hole, where the exact
    # kernel's tail reaches a sample with a weight of 1e-4 and an approximation's may reach none
    # (then the result is empty: NaN). A 4K raster with a 200x400 hole at sigma 25 showed both:
    # 0.038 off where G*w = 2.6e-4, NaN where it is below 2.4e-4, within 0.4% of the bound elsewhere.
    a = rng.random((400, 600)).astype(np.float32)
    a[rng.random(a.shape) < 0.05] = np.nan
    a[140:260, 200:400] = np.nan
    exact = fastblur.gaussian_filter(a.astype(np.float64), 12.0, nan_policy="omit")
    weight = fastblur.gaussian_filter((~np.isnan(a)).astype(np.float64), 12.0)
    M = float(np.nanmax(np.abs(a)))
    for t in (1e-2, 1e-3):
        plan = fastblur.plan(a.shape, 12.0, channels=2, dtype="float32", rounding="nearest", tolerance=t)
        assert plan["algorithm"] != "fir", plan["description"]  # an approximation, not the exact sums
        fast = fastblur.gaussian_filter(a, 12.0, nan_policy="omit", tolerance=t).astype(np.float64)
        trusted = weight > 2 * t
        assert not np.isnan(fast[trusted]).any(), t
        err = np.abs(fast - exact)[trusted]
        assert (err <= 2 * t * M / (weight[trusted] - t)).all(), (t, float(err.max()))
        assert (weight[np.isnan(fast)] <= 2 * t).all(), t  # empty only where the weight is within t of none


def test_refusals(rng):
    a = rng.random((20, 20))
    with pytest.raises(ValueError, match="nan_policy"):
        fastblur.gaussian_filter(a, 1, nan_policy="ignore")
    with pytest.raises(ValueError, match="shape"):
        fastblur.gaussian_filter(a, 1, mask=np.zeros((20, 21), bool))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fastblur.gaussian_filter(a, 1, mask=np.full(a.shape, 1.5))
    with pytest.raises(ValueError, match="float data"):
        fastblur.gaussian_filter(a.astype(np.int16), 1, nan_policy="omit")
    with pytest.raises(ValueError, match="preserve_nan"):
        fastblur.gaussian_filter(a, 1, preserve_nan=True)
    out = np.full(a.shape, 5.0)
    with pytest.raises(ValueError):
        fastblur.gaussian_filter(a, 1, mask=np.full(a.shape, np.nan), output=out)
    assert (out == 5.0).all()  # nothing written


@pytest.mark.parametrize("algorithm,tolerance", [("auto", 0.0), ("fir-linear", 0.0)])
def test_vulkan_device(rng, algorithm, tolerance):
    """On a Vulkan device (lavapipe in ctest): the weights ride through the device's own blur, within
    float32's rounding of the CPU's normalized convolution (fir-linear within its sub-texel bound)."""
    if not any(d["name"].startswith("vulkan:") for d in fastblur.devices()):
        pytest.skip("no Vulkan device")
    a = with_holes(rng, (48, 64)).astype(np.float32)
    cpu = fastblur.gaussian_filter(a, 2.0, nan_policy="omit").astype(np.float64)
    gpu = fastblur.gaussian_filter(a, 2.0, nan_policy="omit", device="vulkan", algorithm=algorithm,
                                   tolerance=tolerance).astype(np.float64)
    assert np.array_equal(np.isnan(cpu), np.isnan(gpu))
    bound = 2e-5 if algorithm == "auto" else 5e-3
    assert np.nanmax(np.abs(cpu - gpu)) <= bound * np.nanmax(np.abs(a))


@pytest.mark.parametrize("name", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_the_family_says_it_takes_no_missing_data(rng, name):
    a = with_holes(rng, (20, 24))
    for kw in [dict(nan_policy="omit"), dict(mask=np.isnan(a)), dict(preserve_nan=True)]:
        with pytest.raises(NotImplementedError, match="missing data"):
            getattr(fastblur, name)(a, 1.5, **kw)
    with pytest.raises(NotImplementedError, match="missing data"):
        getattr(fastblur, name)(np.ma.masked_invalid(a), 1.5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_channels_share_a_weight_only_where_their_holes_agree(rng, dtype):
    # RGB data whose channels are NaN together share one weight channel (packed and checked in one
    # pass); where one pixel's channels disagree, every channel gets its own weight - both equal the
    # recipe channel by channel, the large image through the blur's fused rows too.
    for shape, sigma in (((60, 70, 3), 2.0), ((300, 1200, 3), 2.0), ((300, 1200, 2), 9.0)):
        base = rng.random(shape) * 4 - 1
        shared = base.copy()
        shared[rng.random(shape[:2]) < 0.1] = np.nan
        disagree = shared.copy()
        disagree[shape[0] // 2, shape[1] // 3, 0] = np.nan  # one value of one channel
        for a in (shared, disagree):
            a = a.astype(dtype)
            got = fastblur.gaussian_filter(a, (sigma, sigma, 0), nan_policy="omit", threads=2)
            for c in range(shape[2]):
                close(got[..., c].astype(np.float64), recipe(a[..., c].astype(np.float64), sigma),
                      rtol=1e-12 if dtype == np.float64 else 2e-6)


@pytest.mark.parametrize("preserve_nan", [False, True])
@pytest.mark.parametrize("sigma,tolerance", [(2.0, 0.0), (8.0, 1e-2), (30.0, 1e-2)])
def test_rows_packed_in_the_blur_equal_the_packed_image(rng, sigma, tolerance, preserve_nan):
    # Apart from the output, the rows are packed as the blur reads them and divided as it writes them
    # (fir's fused rows; downsample's chain, dividing its last lerp as it computes it); in place, a
    # packed work image is blurred: the same bits.
    a = with_holes(rng, (240, 330, 3)).astype(np.float32)
    a[np.isnan(a).any(axis=-1)] = np.nan  # the channels share their holes (one weight a pixel: the SIMD rows)
    kw = dict(nan_policy="omit", tolerance=tolerance, threads=2, preserve_nan=preserve_nan)
    apart = fastblur.gaussian_filter(a, (sigma, sigma, 0), **kw)
    inplace = a.copy()
    fastblur.gaussian_filter(inplace, (sigma, sigma, 0), output=inplace, **kw)
    assert np.array_equal(apart, inplace, equal_nan=True)
    if preserve_nan:  # NaN where the input had NaN, the values of the call without it elsewhere
        without = fastblur.gaussian_filter(a, (sigma, sigma, 0), **dict(kw, preserve_nan=False))
        assert np.array_equal(apart, np.where(np.isnan(a), np.nan, without), equal_nan=True)
    plan = fastblur.plan((240, 330), (sigma, sigma), channels=4, dtype="float32", rounding="nearest", tolerance=tolerance)
    assert plan["schedule"]["driver"] in ("fused-rows", "chain"), plan["schedule"]["driver"]


@pytest.mark.parametrize("row", [0, 1, 123, 238, 239])
def test_a_mixed_pixel_anywhere_gives_each_channel_its_weight_in_the_chain(rng, row):
    # downsample's chain sums the source's RGB rows where they lie (the pack in registers) and notes
    # a pixel whose channels disagree on NaN from any row of any tent: then each channel is blurred
    # with its own weight - the bits of each channel's own call. The pixel in the first and last
    # rows, inside, and past the last whole vector of 16 pixels (x 329 of 330).
    a = with_holes(rng, (240, 330, 3)).astype(np.float32)
    a[np.isnan(a).any(axis=-1)] = np.nan
    shared = fastblur.gaussian_filter(a, (30.0, 30.0, 0), nan_policy="omit", tolerance=1e-2, threads=2)
    for x in (7, 329):
        b = a.copy()
        b[row, x, :] = 1.0
        b[row, x, 1] = np.nan
        got = fastblur.gaussian_filter(b, (30.0, 30.0, 0), nan_policy="omit", tolerance=1e-2, threads=2)
        each = np.stack([fastblur.gaussian_filter(b[..., c], 30.0, nan_policy="omit", tolerance=1e-2, threads=2)
                         for c in range(3)], axis=-1)
        assert np.array_equal(got, each, equal_nan=True), (row, x)
        assert not np.array_equal(got, shared, equal_nan=True)
    plan = fastblur.plan((240, 330), (30.0, 30.0), channels=4, dtype="float32", rounding="nearest", tolerance=1e-2)
    assert plan["schedule"]["driver"] == "chain", plan["schedule"]


@pytest.mark.parametrize("channels", [1, 3])
def test_rows_divided_into_a_streamed_destination_equal_the_packed_image(rng, channels):
    # A destination larger than the caches: the chain's plan streams it, and the division then
    # streams its rows from the first whole cache line (cpu/missing_rows_simd.cpp); every row of a
    # 4K image starts at another place in a line (11520 values a row). In place: the packed image.
    shape = (2160, 3840, channels)
    a = with_holes(rng, shape).astype(np.float32)
    a[np.isnan(a).any(axis=-1)] = np.nan
    out = np.empty(a.size + 5, np.float32)[5:].reshape(shape)  # 20 bytes off a line, rows from every offset
    fastblur.gaussian_filter(a, (30.0, 30.0, 0), nan_policy="omit", tolerance=1e-2, threads=2, output=out)
    inplace = a.copy()
    fastblur.gaussian_filter(inplace, (30.0, 30.0, 0), nan_policy="omit", tolerance=1e-2, threads=2, output=inplace)
    assert np.array_equal(out, inplace, equal_nan=True)
    plan = fastblur.plan(shape[:2], (30.0, 30.0), channels=channels + 1, dtype="float32", rounding="nearest", tolerance=1e-2)
    assert plan["schedule"]["driver"] == "chain" and plan["schedule"]["stream_destination"], plan["schedule"]


@pytest.mark.parametrize("sigma", [1.5, 6.0])
def test_float64_rows_packed_in_scipys_order_equal_the_packed_image(rng, sigma):
    # float64's exact driver (SciPy's order, both axes through a ring of rows) takes the rows packed
    # and divides them as it writes; in place a packed work image is blurred: the same bits.
    a = with_holes(rng, (173, 251, 3))
    a[np.isnan(a).any(axis=-1)] = np.nan
    apart = fastblur.gaussian_filter(a, (sigma, sigma, 0), nan_policy="omit", threads=2)
    inplace = a.copy()
    fastblur.gaussian_filter(inplace, (sigma, sigma, 0), nan_policy="omit", threads=2, output=inplace)
    assert np.array_equal(apart, inplace, equal_nan=True)
    for c in range(3):
        close(apart[..., c], recipe(a[..., c], sigma))
    plan = fastblur.plan((173, 251), (sigma, sigma), channels=4, dtype="float64", rounding="nearest")
    assert plan["schedule"]["driver"] == "scipy-order" and plan["schedule"]["fused_axes"], plan["schedule"]
