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
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import fastblur
    import scipy.ndimage as nd

    seed = int(os.environ.get("FASTBLUR_BENCH_SEED", "13"))
    rng = np.random.default_rng(seed)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
