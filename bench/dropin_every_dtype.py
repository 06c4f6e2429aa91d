#!/usr/bin/env python3
"""The drop-in's default (SciPy's bits) on every NumPy dtype against scipy.ndimage, alternated in one
process: a 1000x1200 image blurred on both axes (sigma 2) and along one (gaussian_filter1d, sigma 3,
axis 0). Every result is asserted bit-identical to SciPy's; medians of N (ms) and the ratio.

Usage: OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/dropin_every_dtype.py [--repeat N]
"""
import argparse
import statistics
import sys
import time

import numpy as np
import scipy.ndimage as nd

import fastblur

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64",
          "complex64", "complex128"]


def array_of(rng, dtype, shape):
    d = np.dtype(dtype)
    if d.kind == "b":
        return rng.random(shape) > 0.5
    if d.kind in "iu":
        return rng.integers(0 if d.kind == "u" else -100, 200, size=shape).astype(d)
    if d.kind == "c":
        return (rng.random(shape) + 1j * rng.random(shape)).astype(d)
    return rng.random(shape).astype(d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="a small image, one repeat: check that it runs")
    args = ap.parse_args()
    shape = (50, 60) if args.quick else (1000, 1200)
    repeat = 1 if args.quick else args.repeat
    rng = np.random.default_rng(2)
    print(f"{shape[0]}x{shape[1]}, medians of {repeat}, alternated with SciPy; SciPy's bits asserted")
    print("| dtype | call | fastblur ms | scipy ms | scipy / fastblur |\n| --- | --- | ---: | ---: | ---: |")
    for dtype in DTYPES:
        a = array_of(rng, dtype, shape)
        calls = (("2D sigma 2", lambda: fastblur.gaussian_filter(a, 2.0), lambda: nd.gaussian_filter(a, 2.0)),
                 ("1D sigma 3 axis 0", lambda: fastblur.gaussian_filter1d(a, 3.0, axis=0),
                  lambda: nd.gaussian_filter1d(a, 3.0, axis=0)))
        for name, ours, theirs in calls:
            if not np.array_equal(ours(), theirs()):
                print(f"{dtype} {name}: fastblur differs from SciPy", file=sys.stderr)
                return 1
            times = {"fastblur": [], "scipy": []}
            for _ in range(repeat):
                for key, f in (("fastblur", ours), ("scipy", theirs)):
                    t = time.perf_counter()
                    f()
                    times[key].append(time.perf_counter() - t)
            ms = {k: statistics.median(v) * 1e3 for k, v in times.items()}
            print(f"| {dtype} | {name} | {ms['fastblur']:.2f} | {ms['scipy']:.2f} | {ms['scipy'] / ms['fastblur']:.1f}x |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
