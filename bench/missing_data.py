#!/usr/bin/env python3
"""Issue 45's targets: the normalized convolution (nan_policy='omit') against the plain blur of the
same array, against the recipe people hand-write (two scipy.ndimage.gaussian_filter calls and a
division, float64), and against astropy's convolve / convolve_fft with nan_treatment='interpolate'.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/missing_data.py [--repeat N] [--threads T] [--quick]

Each row alternates the calls in one process, T threads for fastblur, and prints medians of N (ms)
and ratios. The data: float32 1920x1080 RGB (or float64 for the recipe and astropy rows), 10% NaN
in blobs. Every fastblur result is checked against the recipe (float64, within 1e-10; float32 rows
within 1e-4 of the float64 recipe where both are defined).
"""
import argparse
import os
import sys

import numpy as np

from dropin_dtypes import alternated  # bench/'s shared timing: medians of runs alternated in one process


def blobs(rng, shape, share):
    """NaN in round blobs covering about `share` of the pixels (holes in a raster, masked stars)."""
    h, w = shape[:2]
    holes = np.zeros((h, w), bool)
    yy, xx = np.mgrid[0:h, 0:w]
    while holes.mean() < share:
        cy, cx, r = rng.integers(0, h), rng.integers(0, w), rng.integers(3, max(4, min(h, w) // 20))
        holes |= (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
    return holes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import fastblur
    import scipy.ndimage as nd
    from astropy.convolution import convolve, convolve_fft

    rng = np.random.default_rng(int(os.environ.get("FASTBLUR_BENCH_SEED", "45")))
    h, w = (108, 192) if args.quick else (1080, 1920)
    repeat = 1 if args.quick else args.repeat
    holes = blobs(rng, (h, w), 0.10)
    rgb = rng.random((h, w, 3)).astype(np.float32)
    rgb[holes] = np.nan
    print(f"float32 {w}x{h} RGB, {100 * holes.mean():.1f}% NaN in blobs, {args.threads} threads, medians of {repeat}")
    print("| sigma | request | plain ms | omit ms | omit / plain |")
    print("| ---: | --- | ---: | ---: | ---: |")
    for sigma in (2, 8, 30):
        for kw, name in ((dict(), "exact"), (dict(tolerance=1e-2), "tolerance 1e-2")):
            sig = (sigma, sigma, 0)
            ms = alternated({"plain": lambda: fastblur.gaussian_filter(rgb, sig, rounding="nearest", threads=args.threads, **kw),
                             "omit": lambda: fastblur.gaussian_filter(rgb, sig, nan_policy="omit", threads=args.threads, **kw)},
                            repeat)
            print(f"| {sigma} | {name} | {ms['plain']:.1f} | {ms['omit']:.1f} | {ms['omit'] / ms['plain']:.2f}x |", flush=True)

    grey = rgb[..., 0].astype(np.float64)

    def recipe(sigma):
        valid = ~np.isnan(grey)
        num = nd.gaussian_filter(np.where(valid, grey, 0.0), sigma)
        den = nd.gaussian_filter(valid.astype(np.float64), sigma)
        with np.errstate(invalid="ignore", divide="ignore"):
            return num / den

    print()
    print(f"float64 {w}x{h} grey, the same holes")
    print("| sigma | peer | peer ms | fastblur ms | peer / fastblur |")
    print("| ---: | --- | ---: | ---: | ---: |")
    ok = True
    for sigma in (2, 8, 30):
        got = fastblur.gaussian_filter(grey, sigma, nan_policy="omit", threads=args.threads)
        want = recipe(sigma)
        both = ~np.isnan(want) & ~np.isnan(got)
        if np.max(np.abs(got[both] - want[both])) > 1e-10:
            print(f"sigma {sigma}: fastblur differs from the recipe", file=sys.stderr)
            ok = False
        ms = alternated({"peer": lambda: recipe(sigma),
                         "fastblur": lambda: fastblur.gaussian_filter(grey, sigma, nan_policy="omit", threads=args.threads)},
                        repeat)
        print(f"| {sigma} | recipe (2 scipy calls + division) | {ms['peer']:.1f} | {ms['fastblur']:.1f} | "
              f"{ms['peer'] / ms['fastblur']:.1f}x |", flush=True)
    sigma, radius = 8, 32
    k1 = nd.gaussian_filter1d(np.eye(1, 2 * radius + 1, radius).ravel(), sigma, radius=radius, mode="constant")
    kernel = np.outer(k1, k1)
    fb = lambda: fastblur.gaussian_filter(grey, sigma, nan_policy="omit", mode="nearest", threads=args.threads)
    for name, f in (("astropy convolve", lambda: convolve(grey, kernel, boundary="extend", nan_treatment="interpolate")),
                    ("astropy convolve_fft", lambda: convolve_fft(grey, kernel, boundary="fill", nan_treatment="interpolate"))):
        ms = alternated({"peer": f, "fastblur": fb}, 1 if "convolve" == name.split()[-1] else repeat)
        print(f"| {sigma} | {name} | {ms['peer']:.1f} | {ms['fastblur']:.1f} | {ms['peer'] / ms['fastblur']:.1f}x |",
              flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
