#!/usr/bin/env python3
"""The Python drop-in against cv2.GaussianBlur from Python, as a new user meets both (issue 25's table).

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/dropin_vs_opencv.py [--repeat N] [--threads T] [--quick]

Each case: OpenCV (cv2.setNumThreads(T), BORDER_REFLECT_101, ksize 2r + 1), fastblur's default call
(SciPy's bits) and fastblur with rounding='nearest' (mode='mirror' = REFLECT_101, the same radius r),
timed alternately in one process, T threads each; medians of N. Ratios are OpenCV's time over
fastblur's (> 1: fastblur is faster). Each row also checks its results: the default's bits equal to
scipy.ndimage.gaussian_filter's, nearest within 1 of the correctly rounded float64 result for
integer data (the share off by one printed), and it prints the plan each fastblur call runs (driver).
Rows marked "photo" blur scikit-image's photographs (astronaut, camera) tiled to the size: flat
areas and smooth gradients, where noise has none.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def photo_of(shape):
    """scikit-image's astronaut (colour; opaque alpha for a fourth channel) or camera (grey), tiled to `shape`."""
    import skimage.data
    src = skimage.data.camera() if len(shape) == 2 else skimage.data.astronaut()
    if len(shape) == 3 and shape[2] == 4:
        src = np.dstack([src, np.full(src.shape[:2], 255, np.uint8)])
    reps = (-(-shape[0] // src.shape[0]), -(-shape[1] // src.shape[1])) + ((1,) if len(shape) == 3 else ())
    return np.ascontiguousarray(np.tile(src, reps)[: shape[0], : shape[1]])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="small images, one repeat, to check that it runs")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import cv2
    import fastblur

    cv2.setNumThreads(args.threads)
    rng = np.random.default_rng(int(os.environ.get("FASTBLUR_BENCH_SEED", "25")))
    # (dtype, shape, sigma, radius): radius int(4 sigma + 0.5) unless a kernel size names it.
    cases = [("uint8", (2160, 3840), 2.0, 8), ("uint8", (1080, 1920, 3), 3.0, 12), ("uint8", (1080, 1920, 3), 10.0, 40),
             ("uint8", (1200, 2000, 4), 1.0, 3), ("uint8", (1080, 1920, 4), 17 / 3, 17),
             ("uint16", (2160, 3840), 4.0, 16), ("float32", (2160, 3840), 5.0, 20)]
    # Issue 43's shapes (no test uses them): float32 RGBA at k7, k35, k127 and sigma 50; uint8 photos
    # (RGB, RGBA, grey) at sigma 1.2-6.
    cases += [("float32", (1150, 2050, 4), 1.0, 3), ("float32", (1150, 2050, 4), 34 / 6, 17),
              ("float32", (1200, 2000, 4), 21.0, 63), ("float32", (1200, 2000, 4), 50.0, 200),
              ("uint8", (1000, 1700, 3), 1.2, 5), ("uint8", (1000, 1700, 3), 3.5, 14), ("uint8", (1000, 1700, 3), 6.0, 24),
              ("uint8", (1000, 1700, 4), 2.0, 8), ("uint8", (1000, 1700), 2.0, 8), ("uint8", (1000, 1700), 6.0, 24)]
    cases += [("photo", (1000, 1700, 3), 1.2, 5), ("photo", (1000, 1700, 3), 3.5, 14), ("photo", (1000, 1700, 4), 2.0, 8),
              ("photo", (1000, 1700), 2.0, 8), ("photo", (1000, 1700), 6.0, 24)]
    if args.quick:
        cases = [(d, tuple(max(3, s // 20) if i < 2 else s for i, s in enumerate(shape)), sg, r)
                 for d, shape, sg, r in cases]
        args.repeat = 1
    print(f"{args.threads} threads, medians of {args.repeat}, alternated in one process")
    print("| array | sigma (radius) | cv2 ms | default ms | cv2 / default | nearest ms | cv2 / nearest | drivers |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    ok = True
    import scipy.ndimage as nd
    for dtype, shape, sigma, r in cases:
        photo = dtype == "photo"
        dtype = "uint8" if photo else dtype
        info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
        if photo:
            a = photo_of(shape)
        else:
            a = (rng.integers(0, info.max, size=shape, endpoint=True) if info else rng.random(shape)).astype(dtype)
        sig = (sigma, sigma) + ((0.0,) if len(shape) == 3 else ())
        rad = (r, r) + ((0,) if len(shape) == 3 else ())
        runs = {
            "cv2": lambda: cv2.GaussianBlur(a, (2 * r + 1, 2 * r + 1), sigma, sigmaY=sigma, borderType=cv2.BORDER_REFLECT_101),
            "default": lambda: fastblur.gaussian_filter(a, sig, mode="mirror", radius=rad),
            "nearest": lambda: fastblur.gaussian_filter(a, sig, mode="mirror", radius=rad, rounding="nearest"),
        }
        times = {k: [] for k in runs}
        results = {k: f() for k, f in runs.items()}  # warm-up: page faults, plans
        for _ in range(args.repeat):
            for k, f in runs.items():
                t = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t)
        ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
        if not np.array_equal(results["default"], nd.gaussian_filter(a, sig, mode="mirror", radius=rad)):
            ok = False
            print(f"{dtype} {shape} sigma {sigma}: the default differs from scipy.ndimage's bits", file=sys.stderr)
        drivers = []
        for rounding in ("scipy", "nearest"):
            p = fastblur.plan(shape[:2], (sigma, sigma), dtype=dtype, channels=shape[2] if len(shape) == 3 else 1,
                              mode="mirror", radius=(r, r), rounding=rounding)
            drivers.append(p["schedule"]["driver"] + (" (certified)" if p["schedule"].get("scipy_int_certified") else ""))
        if info:  # rounding='nearest' within 1 of the correctly rounded float64 result (OpenCV's promise too)
            exact = np.rint(fastblur.gaussian_filter(a.astype(np.float64), sig, mode="mirror", radius=rad))
            diff = np.abs(results["nearest"].astype(np.float64) - exact)
            off = 100.0 * float((diff > 0).mean())
            if diff.max() > 1:
                ok = False
                print(f"{dtype} {shape}: rounding='nearest' is {diff.max():.0f} from the rounded result", file=sys.stderr)
            drivers.append(f"{off:.2f}% off by one")
        name = ("photo " if photo else "") + f"{dtype} {'x'.join(str(s) for s in reversed(shape[:2]))}" + (
            f"x{shape[2]}" if len(shape) == 3 else "")
        print(f"| {name} | {sigma:.3g} ({r}) | {ms['cv2']:.2f} | {ms['default']:.2f} | {ms['cv2'] / ms['default']:.2f}x | "
              f"{ms['nearest']:.2f} | {ms['cv2'] / ms['nearest']:.2f}x | {' / '.join(drivers)} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
