"""One engine under the Python front end: fastblur.plan() with a call's arguments is the plan that
call runs (the core records what each blur executed: _core.last_run), and each kind of request
keeps its contract - SciPy's bits by default, within 1 of the rounded result with
rounding='nearest', the planner's choice within a tolerance."""
import itertools

import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur
from fastblur import _core

DTYPES = ["uint8", "uint16", "int16", "int32", "float32", "float64"]


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -3000), min(info.max, 3000), size=shape, endpoint=True).astype(dtype)
    return (rng.random(shape) * 100).astype(dtype)


def has_vulkan():
    return any(d["name"].startswith("vulkan:") for d in fastblur.devices())


DEVICES = ["cpu"] + (["vulkan"] if has_vulkan() else [])
SHAPES = {1: (301,), 2: (37, 45), 3: (9, 11, 13)}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_the_plan_printed_is_the_plan_run(rng, device, ndim):
    # dtype x rounding x tolerance x channels for this rank and device: every call's executed
    # schedule equals what plan() says for the same arguments.
    checked = 0
    # 6 channels: plan() takes what gaussian_filter takes (the core's limits, not a Python one).
    channel_counts = (1, 3, 6) if device == "cpu" else (1, 3)
    for dtype, rounding, tolerance, channels in itertools.product(DTYPES, ("scipy", "nearest"), (0.0, 1e-3), channel_counts):
        if device != "cpu" and dtype in ("int32",):
            continue  # the device computes in float32: int32 is not a type it carries faithfully
        shape = SHAPES[ndim]
        full = shape + ((channels,) if channels > 1 else ())
        sigma = [float(s) for s in rng.uniform(0.8, 3.0, size=ndim)]
        a = random_array(rng, full, dtype)
        kw = dict(rounding=rounding, tolerance=tolerance, device=device)
        p = fastblur.plan(shape, sigma, dtype=dtype, channels=channels, **kw)
        fastblur.gaussian_filter(a, sigma + ([0.0] if channels > 1 else []), **kw)
        run = _core.last_run()
        what = (dtype, rounding, tolerance, channels)
        assert run is not None, what
        assert run["algorithm"] == p["algorithm"], what
        for key in ("backend", "driver", "threads", "intermediate", "rounding"):
            assert run[key] == p["schedule"][key], (what, key, run, p["schedule"])
        # The contract each request gets, by the plan alone.
        exact_cpu = device == "cpu" and tolerance == 0.0
        assert (p["schedule"]["rounding"] == "scipy") == (exact_cpu and rounding == "scipy"), what
        if p["schedule"]["driver"] == "scipy-order" and p["schedule"]["rounding"] != "scipy":
            # SciPy's order rounding nothing between its axes: into float64 the exact double engine;
            # into integers rounded once as written (32-bit ones, 8- and 16-bit volumes)
            assert dtype == "float64" or (np.dtype(dtype).kind in "iu" and (ndim == 3 or dtype == "int32")), what
        if not exact_cpu:
            assert p["schedule"]["rounding"] == "nearest", what
        checked += 1
    assert checked >= 40


def test_plan_describes_scipy_order_for_the_default_call():
    p = fastblur.plan((1080, 1920), 2.0, dtype="uint8")
    assert p["schedule"]["driver"] == "scipy-order" and p["schedule"]["rounding"] == "scipy"
    assert "rounding scipy" in p["description"] and "truncated" in p["description"]
    q = fastblur.plan((1080, 1920), 2.0, dtype="uint8", rounding="nearest")
    assert q["schedule"]["driver"] == "fixed-point" and q["schedule"]["intermediate"] == "int16"
    r = fastblur.plan((1080, 1920), 2.0, dtype="float32", tolerance=1e-3)
    assert r["schedule"]["rounding"] == "nearest" and r["schedule"]["driver"] != "scipy-order"
    # gaussian_filter1d's plan: one axis of a 2D array (the other folded in with sigma 0).
    s = fastblur.plan((64, 80), (0, 2.0), dtype="int16")
    assert s["schedule"]["driver"] == "scipy-order" and s["radius"][1] == 8


def test_the_plan_carries_the_options_its_candidate_chose(rng):
    # A tolerance's downsample plan truncates its low-resolution kernel below truncate 4: the plan
    # says so in its options, and asking for those options by name runs the same blur, bit for bit.
    a = (rng.random((96, 120, 4)) * 100).astype(np.float32)
    p = fastblur.plan(a.shape[:2], 6.0, channels=4, tolerance=1e-2)
    assert p["algorithm"] == "downsample", p["description"]
    assert 1.5 <= p["options"]["downsample_low_truncate"] < 4.0
    auto = fastblur.gaussian_filter(a, (6.0, 6.0, 0), tolerance=1e-2)
    named = fastblur.gaussian_filter(a, (6.0, 6.0, 0), algorithm="downsample", options=p["options"])
    np.testing.assert_array_equal(auto, named)
    longer = fastblur.gaussian_filter(a, (6.0, 6.0, 0), algorithm="downsample")  # truncate 4: another kernel
    assert not np.array_equal(auto, longer)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float32", "float64"])
def test_default_is_scipys_bits_on_every_dtype(rng, dtype):
    for shape, sigma in (((31, 29), (1.3, 2.7)), ((7, 9, 11), 1.1), ((300,), 4.0), ((40, 33, 4), (2.0, 1.0, 0))):
        if dtype == "bool":
            a = rng.random(shape) > 0.5
        else:
            a = random_array(rng, shape, dtype)
        for mode in ("reflect", "mirror", "nearest", "wrap", "constant"):
            want = nd.gaussian_filter(a, sigma, mode=mode, cval=2.0)
            got = fastblur.gaussian_filter(a, sigma, mode=mode, cval=2.0)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=f"{dtype} {shape} {mode}")
            one = a
            for ax, s in enumerate(np.broadcast_to(sigma, (a.ndim,))):
                if s > 0:
                    one = fastblur.gaussian_filter1d(one, float(s), axis=ax, mode=mode, cval=2.0)
            np.testing.assert_array_equal(got, one, err_msg="a call over several axes is its sequence of 1D calls")


def test_extreme_integers_convert_as_scipy(rng):
    # Values whose sums leave the type's range (a negative cval into unsigned data, derivatives):
    # the conversion is C's, as SciPy's.
    for dtype in ("uint8", "int8", "uint16", "int32", "uint32", "int64", "uint64"):
        a = random_array(rng, (23, 19), dtype)
        for kw in (dict(mode="constant", cval=-50.0), dict(order=1), dict(order=(2, 0))):
            want = nd.gaussian_filter(a, 1.7, **kw)
            got = fastblur.gaussian_filter(a, 1.7, **kw)
            np.testing.assert_array_equal(got, want, err_msg=f"{dtype} {kw}")


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int16"])
@pytest.mark.parametrize("shape,sigma", [((203, 157), 2.3), ((61, 73, 3), (3.1, 1.7, 0)), ((19, 23, 29), 1.6),
                                         ((120, 97, 4), (9.0, 9.0, 0))])
def test_rounding_nearest_is_within_one_of_the_rounded_result(rng, dtype, shape, sigma):
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)
    got = fastblur.gaussian_filter(a, sigma, mode="mirror", rounding="nearest")
    exact = np.clip(np.rint(nd.gaussian_filter(a.astype(np.float64), sigma, mode="mirror")), info.min, info.max)
    diff = np.abs(got.astype(np.float64) - exact)
    share = float((diff > 0).mean())
    print(f"{dtype} {shape} sigma {sigma}: max |diff| {diff.max():.0f}, off by one {100 * share:.2f}%")
    assert diff.max() <= 1, (dtype, shape)
    assert share < 0.05


def test_nonexact_requests_round_once_to_nearest(rng):
    a = random_array(rng, (37, 44, 3), "uint8")
    for alg in ("iir", "box", "sliding-dct"):
        f32 = fastblur.gaussian_filter(a.astype(np.float32), (4.5, 4.5, 0), algorithm=alg)
        want = np.clip(np.rint(f32), 0, 255).astype(np.uint8)
        for rounding in ("scipy", "nearest"):
            got = fastblur.gaussian_filter(a, (4.5, 4.5, 0), algorithm=alg, rounding=rounding)
            assert got.dtype == np.uint8
            assert np.abs(got.astype(int) - want.astype(int)).max() <= 1, (alg, rounding)


def test_huge_radii_are_one_clear_error(rng):
    a = random_array(rng, (8, 8), "float32")
    for kw in (dict(sigma=1e12), dict(sigma=2, truncate=1e15), dict(sigma=2, radius=2 ** 40)):
        with pytest.raises(ValueError, match="maximum 16777216") as e:
            fastblur.gaussian_filter(a, **kw)
        assert "\n" not in str(e.value) and "incompatible function arguments" not in str(e.value)
