#!/usr/bin/env python3
"""The SciPy drop-in on every dtype users pass: fastblur.gaussian_filter against
scipy.ndimage.gaussian_filter, default arguments, alternating in one process (issue 13's grid).

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/dropin_dtypes.py [--repeat N] [--threads T] [--quick]

One Markdown row per case: milliseconds (best of N, each library timed right after the other) and
scipy / fastblur (> 1: fastblur is faster). Every row is checked bit-identical to SciPy (the core's
scipy-order driver reproduces SciPy's sums and per-axis rounding on every dtype). Then float64 with
tolerance=1e-3 against fastblur's own exact call (the approximations on double data), and float32
with tolerance=1e-5 against SciPy (the planner's float lanes).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np


def best(fn, repeat):
    fn()  # warm-up: page faults, plans, caches
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def data(rng, dtype, shape):
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind == "f":
        return rng.random(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="small arrays, one repeat, to check that it runs")
    ap.add_argument("--short-axes", action="store_true", help="only the short-axis rows (issue 43, deliverable 4)")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import fastblur
    import scipy.ndimage as nd

    seed = int(os.environ.get("FASTBLUR_BENCH_SEED", "13"))
    rng = np.random.default_rng(seed)
    if args.short_axes:
        print(f"seed {seed}, {args.threads} threads, medians of {args.repeat}")
        return short_axis_rows(args, rng, fastblur, nd)
    image, rgba, small, volume, big_volume = (2048, 2048), (1080, 1920, 4), (512, 512), (128,) * 3, (256,) * 3
    if args.quick:
        image, rgba, small, volume, big_volume = (96, 80), (40, 50, 4), (64, 48), (16,) * 3, (20,) * 3
        args.repeat = 1
    cases = []
    for dtype in ("uint8", "uint16", "int16", "float32", "float64"):
        for sigma in (1, 4, 32):
            cases.append((dtype, image, sigma))
        cases.append((dtype, rgba, (1, 1, 0)))
        cases.append((dtype, rgba, (5.7, 5.7, 0)))
        cases.append((dtype, volume, 1))
        cases.append((dtype, volume, 4))
        cases.append((dtype, big_volume, 4))
    for dtype in ("int8", "int32", "bool"):
        cases.append((dtype, small, 3))
        cases.append((dtype, volume, 2))

    print(f"seed {seed}, {args.threads} threads, best of {args.repeat}")
    print("| dtype | shape | sigma | fastblur ms | scipy ms | scipy / fastblur |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for dtype, shape, sigma in cases:
        a = data(rng, dtype, shape)
        got = fastblur.gaussian_filter(a, sigma, threads=args.threads)
        want = nd.gaussian_filter(a, sigma)
        ok = np.array_equal(got, want)  # SciPy's bits on every dtype (the core's scipy-order driver)
        if not ok:
            print(f"{dtype} {shape} sigma {sigma}: fastblur differs from scipy", file=sys.stderr)
            return 1
        ours = best(lambda: fastblur.gaussian_filter(a, sigma, threads=args.threads), args.repeat)
        theirs = best(lambda: nd.gaussian_filter(a, sigma), max(1, args.repeat // 2))
        print(f"| {dtype} | {'x'.join(map(str, shape))} | {sigma} | {ours:.1f} | {theirs:.1f} | {theirs / ours:.1f}x |",
              flush=True)

    print()
    print("| float64 | sigma | exact ms | tolerance 1e-3 ms | exact / tolerance |")
    print("| --- | --- | ---: | ---: | ---: |")
    a = data(rng, "float64", image)
    for sigma in (2, 8, 32):
        exact = best(lambda: fastblur.gaussian_filter(a, sigma, threads=args.threads), args.repeat)
        fast = best(lambda: fastblur.gaussian_filter(a, sigma, tolerance=1e-3, threads=args.threads), args.repeat)
        print(f"| {'x'.join(map(str, image))} | {sigma} | {exact:.1f} | {fast:.1f} | {exact / fast:.1f}x |", flush=True)
    print()
    print("| float32 tolerance 1e-5 | sigma | fastblur ms | scipy ms | scipy / fastblur |")
    print("| --- | --- | ---: | ---: | ---: |")
    side = (1536, 1536) if not args.quick else (64, 64)
    a = data(rng, "float32", side)
    ours = best(lambda: fastblur.gaussian_filter(a, 6, tolerance=1e-5, threads=args.threads), args.repeat)
    theirs = best(lambda: nd.gaussian_filter(a, 6), max(1, args.repeat // 2))
    print(f"| {'x'.join(map(str, side))} | 6 | {ours:.1f} | {theirs:.1f} | {theirs / ours:.1f}x |", flush=True)
    return issue_43_rows(args, rng, fastblur, nd)


def alternated(runs, repeat):
    """Medians (ms) of `runs` (name -> callable) timed one right after the other, `repeat` rounds."""
    for f in runs.values():
        f()  # warm-up
    times = {k: [] for k in runs}
    for _ in range(repeat):
        for k, f in runs.items():
            t = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t)
    return {k: statistics.median(v) * 1e3 for k, v in times.items()}


def short_axis_rows(args, rng, fastblur, nd):
    """Issue 43's deliverable 4: one sigma on an RGB(A) array blurs its channels too (SciPy's rule), a
    last axis of 3 or 4 elements. SciPy, the default and the faster options alternated (medians);
    the default checked bit-identical to SciPy."""
    scale = 20 if args.quick else 1
    print()
    print("| array, one sigma on every axis | scipy ms | default | nearest | tolerance 1e-2 | tolerance 1e-4 | scipy / default |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for dtype, shape, sigma in [("float32", (1080, 1920, 3), 5), ("float32", (1080, 1920, 3), 1), ("float32", (1080, 1920, 3), 30),
                                ("uint8", (1000, 1700, 3), 2), ("uint8", (1000, 1700, 4), 6)]:
        shape = tuple(max(3, s // scale) for s in shape[:-1]) + shape[-1:]
        a = data(rng, dtype, shape)
        if not np.array_equal(fastblur.gaussian_filter(a, sigma), nd.gaussian_filter(a, sigma)):
            print(f"{dtype} {shape} sigma {sigma}: the default differs from scipy", file=sys.stderr)
            return 1
        ms = alternated({"scipy": lambda: nd.gaussian_filter(a, sigma), "default": lambda: fastblur.gaussian_filter(a, sigma),
                         "nearest": lambda: fastblur.gaussian_filter(a, sigma, rounding="nearest"),
                         "tolerance 1e-2": lambda: fastblur.gaussian_filter(a, sigma, tolerance=1e-2),
                         "tolerance 1e-4": lambda: fastblur.gaussian_filter(a, sigma, tolerance=1e-4)}, args.repeat)
        print(f"| {dtype} {'x'.join(map(str, shape))}, sigma {sigma} | " + " | ".join(f"{v:.1f}" for v in ms.values()) +
              f" | {ms['scipy'] / ms['default']:.1f}x |", flush=True)
    return 0


def issue_43_rows(args, rng, fastblur, nd):
    """Issue 43's shapes, each alternated with SciPy in one process (medians): the drop-in's default
    on images and volumes of sizes no test uses, the Gaussian family, scikit-image's
    difference_of_gaussians under patch_scipy(), and a short axis (an RGB image given one sigma)."""
    import skimage.filters

    scale = 20 if args.quick else 1
    shrink = lambda shape: tuple(max(3, s // scale) for s in shape)
    print()
    print("| call (default arguments, SciPy's bits asserted) | scipy ms | fastblur ms | scipy / fastblur |")
    print("| --- | ---: | ---: | ---: |")
    rows = [("float64", (1600, 1400), 3), ("uint16", (1300, 1700), 4), ("int16", (80, 170, 150), 1.5),
            ("float32", (180, 200, 230), 1), ("float32", (180, 200, 230), 4), ("uint8", (1000, 1700), 2),
            ("int16", (200, 512, 512), 1.5)]  # a CT volume
    for dtype, shape, sigma in rows:
        a = data(rng, dtype, shrink(shape))
        if not np.array_equal(fastblur.gaussian_filter(a, sigma), nd.gaussian_filter(a, sigma)):
            print(f"{dtype} {shape}: fastblur differs from scipy", file=sys.stderr)
            return 1
        ms = alternated({"scipy": lambda: nd.gaussian_filter(a, sigma), "fastblur": lambda: fastblur.gaussian_filter(a, sigma)},
                        args.repeat)
        print(f"| gaussian_filter {dtype} {'x'.join(map(str, a.shape))} sigma {sigma} | {ms['scipy']:.1f} | "
              f"{ms['fastblur']:.1f} | {ms['scipy'] / ms['fastblur']:.1f}x |", flush=True)
    a = data(rng, "float64", shrink((1600, 1400)))
    for name, sigma in (("gaussian_gradient_magnitude", 2), ("gaussian_laplace", 2)):
        if not np.array_equal(getattr(fastblur, name)(a, sigma), getattr(nd, name)(a, sigma)):
            print(f"{name}: fastblur differs from scipy", file=sys.stderr)
            return 1
        ms = alternated({"scipy": lambda: getattr(nd, name)(a, sigma), "fastblur": lambda: getattr(fastblur, name)(a, sigma)},
                        args.repeat)
        print(f"| {name} float64 {'x'.join(map(str, a.shape))} sigma {sigma} | {ms['scipy']:.1f} | {ms['fastblur']:.1f} | "
              f"{ms['scipy'] / ms['fastblur']:.1f}x |", flush=True)

    def dog_patched():
        with fastblur.scipy_patched():
            return skimage.filters.difference_of_gaussians(a, 1, 4)

    if not np.array_equal(dog_patched(), skimage.filters.difference_of_gaussians(a, 1, 4)):
        print("difference_of_gaussians: the patched call differs", file=sys.stderr)
        return 1
    ms = alternated({"scipy": lambda: skimage.filters.difference_of_gaussians(a, 1, 4), "fastblur": dog_patched},
                    args.repeat)
    print(f"| skimage difference_of_gaussians float64 {'x'.join(map(str, a.shape))} (1, 4) under patch_scipy() | "
          f"{ms['scipy']:.1f} | {ms['fastblur']:.1f} | {ms['scipy'] / ms['fastblur']:.1f}x |", flush=True)
    return short_axis_rows(args, rng, fastblur, nd)


if __name__ == "__main__":
    sys.exit(main())
