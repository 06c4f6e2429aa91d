"""The CLI's missing data (--nan omit, --mask FILE, --alpha premultiplied) against the recipe computed
with scipy.ndimage (blur the data with holes at 0, blur the weights, divide), whole and streamed in
bands, on .npy arrays and PNG images; and its one-line refusals that write nothing. Run by ctest."""
import os
import subprocess
import tempfile

import numpy as np
import pytest
from PIL import Image
from scipy import ndimage

CLI = os.environ.get("FASTBLUR_CLI", "fastblur")
SEED = int(os.environ.get("FASTBLUR_TEST_SEED", np.random.SeedSequence().entropy % (2**63)))
print(f"FASTBLUR_TEST_SEED={SEED}")


def run(*args):
    return subprocess.run([CLI, "blur", *args], capture_output=True, text=True)


def recipe(values, weights, sigma, mode):
    num = ndimage.gaussian_filter(np.where(weights > 0, values, 0.0) * weights, sigma, mode=mode)
    den = ndimage.gaussian_filter(weights, sigma, mode=mode)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 4 * np.finfo(np.float32).eps, num / den, np.nan)


@pytest.mark.parametrize("band_rows", [0, 7])
@pytest.mark.parametrize("mode", ["reflect", "nearest", "wrap"])
def test_nan_omit_and_mask_on_arrays(mode, band_rows):
    rng = np.random.default_rng([SEED, band_rows])
    a = rng.random((61, 47)).astype(np.float32)
    a[rng.random(a.shape) < 0.1] = np.nan
    a[10:30, 5:25] = np.nan
    extra = ["--band-rows", str(band_rows)] if band_rows else []
    if mode == "wrap":
        extra = []  # wrap along the banded axis is held whole anyway
    with tempfile.TemporaryDirectory() as d:
        src, dst, mask = (os.path.join(d, n) for n in ("in.npy", "out.npy", "mask.npy"))
        np.save(src, a)
        p = run(src, dst, "--sigma", "2", "--border", mode, "--nan", "omit", *extra)
        assert p.returncode == 0, p.stderr
        want = recipe(np.nan_to_num(a.astype(np.float64)), (~np.isnan(a)).astype(np.float64), 2.0, mode)
        got = np.load(dst).astype(np.float64)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.nanmax(np.abs(got - want)) <= 2e-5
        holes = rng.random(a.shape) < 0.2
        np.save(mask, holes.astype(np.uint8))
        b = np.nan_to_num(a)
        np.save(src, b)
        p = run(src, dst, "--sigma", "2", "--border", mode, "--mask", mask, *extra)
        assert p.returncode == 0, p.stderr
        want = recipe(b.astype(np.float64), (~holes).astype(np.float64), 2.0, mode)
        got = np.load(dst).astype(np.float64)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.nanmax(np.abs(got - want)) <= 2e-5


@pytest.mark.parametrize("band_rows", [0, 9])
def test_alpha_premultiplied_on_a_png(band_rows):
    rng = np.random.default_rng([SEED, 5, band_rows])
    rgba = rng.integers(0, 256, (50, 70, 4), dtype=np.uint8)
    rgba[:, :30, 3] = 0  # transparent: its colour must not bleed in
    rgba[:, :30, :3] = 0
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.png"), os.path.join(d, "out.png")
        Image.fromarray(rgba, "RGBA").save(src)
        extra = ["--band-rows", str(band_rows)] if band_rows else []
        p = run(src, dst, "--sigma", "3", "--alpha", "premultiplied", *extra)
        assert p.returncode == 0, p.stderr
        got = np.asarray(Image.open(dst)).astype(np.float64)
        alpha = rgba[..., 3].astype(np.float64) / 255
        sigma = (3, 3)
        den = ndimage.gaussian_filter(alpha, sigma)
        for c in range(3):
            num = ndimage.gaussian_filter(rgba[..., c] * alpha, sigma)
            want = np.where(den > 1e-6, num / np.maximum(den, 1e-300), 0)
            assert np.max(np.abs(got[..., c] - want)) <= 1.01, c
        assert np.max(np.abs(got[..., 3] - den * 255)) <= 1.01
        # Stored alpha: the transparent black bleeds in (the halo the option removes).
        p = run(src, dst, "--sigma", "3")
        plain = np.asarray(Image.open(dst)).astype(np.float64)
        assert plain[:, 32, :3].mean() < got[:, 32, :3].mean() - 20


def test_refusals_write_nothing():
    rng = np.random.default_rng([SEED, 7])
    with tempfile.TemporaryDirectory() as d:
        src, dst, mask = (os.path.join(d, n) for n in ("in.npy", "out.npy", "mask.npy"))
        np.save(src, rng.integers(0, 255, (20, 30), dtype=np.uint8))
        for args, words in [(["--nan", "omit"], "float data"), (["--alpha", "premultiplied"], "alpha"),
                            (["--mask", mask], "mask")]:
            if "--mask" in args:
                np.save(mask, np.zeros((21, 30), np.uint8))
            p = run(src, dst, "--sigma", "2", *args)
            assert p.returncode != 0 and words in p.stderr, (args, p.stderr)
            assert len(p.stderr.strip().splitlines()) == 1, p.stderr
            assert not os.path.exists(dst)
        p = run(src, dst, "--sigma", "2", "--nan", "ignore")
        assert p.returncode != 0 and not os.path.exists(dst)
