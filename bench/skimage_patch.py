#!/usr/bin/env python3
"""scikit-image with and without ``fastblur.patch_scipy()``, alternated in one process (issue 27's
targets): the same call unpatched (SciPy's gaussian_filter underneath) and patched (fastblur's),
results asserted identical, medians and the ratio; then fastblur's gaussian_laplace and
gaussian_gradient_magnitude against SciPy's, alternated likewise.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/skimage_patch.py [--repeat N] [--quick]
"""
import argparse
import statistics
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def alternate(name, fn, repeat, patched_fn=None):
    """fn unpatched and patched (or patched_fn, the fastblur side) alternated; identical results."""
    off, on = [], []
    for i in range(repeat):
        order = (False, True) if i % 2 == 0 else (True, False)
        for patched in order:
            if patched:
                if patched_fn is None:
                    with fastblur.scipy_patched():
                        t, b = timed(fn)
                else:
                    t, b = timed(patched_fn)
                on.append(t)
            else:
                t, a = timed(fn)
                off.append(t)
        for x, y in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
            x, y = np.asarray(x), np.asarray(y)
            assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), f"{name}: results differ"
    m_off, m_on = statistics.median(off) * 1e3, statistics.median(on) * 1e3
    print(f"| {name} | {m_off:.1f} | {m_on:.1f} | {m_off / m_on:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="small images, 2 repeats: check that it runs")
    args = ap.parse_args()
    import skimage
    from skimage import feature, filters, metrics
    n, m, v = (256, 128, 32) if args.quick else (2048, 1024, 128)
    repeat = 2 if args.quick else args.repeat
    rng = np.random.default_rng(7)
    img = nd.gaussian_filter(rng.random((n, n)), 2)  # smooth-ish float64, as scikit-image converts
    img2 = np.clip(img + 0.05 * rng.standard_normal((n, n)), 0, 1)
    rgb = rng.random((n, n, 3))
    blobs = np.zeros((m, m))
    blobs[rng.integers(0, m, 60), rng.integers(0, m, 60)] = 1
    blobs = nd.gaussian_filter(blobs, 4) * 50
    print(f"scikit-image {skimage.__version__}, fastblur {fastblur.__version__}; median of {repeat}, "
          f"unpatched and patched alternated; results identical")
    print("| call | SciPy ms | fastblur ms | speed-up |\n| --- | ---: | ---: | ---: |")
    alternate(f"structural_similarity {n}x{n} gaussian_weights", lambda: metrics.structural_similarity(
        img, img2, gaussian_weights=True, data_range=1), repeat)
    alternate(f"difference_of_gaussians(1, 8) {n}x{n}", lambda: filters.difference_of_gaussians(img, 1, 8), repeat)
    alternate(f"gaussian(sigma=10, channel_axis=-1) {n}x{n}x3", lambda: filters.gaussian(rgb, sigma=10, channel_axis=-1), repeat)
    alternate(f"blob_log(max_sigma=20, num_sigma=10) {m}x{m}", lambda: feature.blob_log(blobs, max_sigma=20, num_sigma=10), repeat)
    alternate(f"canny(sigma=3) {n}x{n}", lambda: feature.canny(img, sigma=3), repeat)
    big = rng.random((1536, 1536)) if not args.quick else rng.random((128, 128))
    vol = rng.random((v, v, v)).astype(np.float32)
    for name, a in ((f"{big.shape[0]}x{big.shape[1]} float64", big), (f"{v}^3 float32", vol)):
        for f in ("gaussian_laplace", "gaussian_gradient_magnitude"):
            alternate(f"{f} {name} sigma 2", lambda f=f, a=a: getattr(nd, f)(a, 2.0), repeat,
                      patched_fn=lambda f=f, a=a: getattr(fastblur, f)(a, 2.0))


if __name__ == "__main__":
    main()
