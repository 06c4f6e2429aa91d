#!/usr/bin/env python3
"""A small array's call: the drop-in's default against scipy.ndimage.gaussian_filter on arrays of
8x8 to 256x256, where the call's overhead is most of its time. Each sample times 300 calls; the two
alternated, medians of N samples (microseconds a call); results asserted bit-identical.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/small_arrays.py [--repeat N]
"""
import argparse
import statistics
import sys
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--calls", type=int, default=300)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    cases = [("float64 8x8", rng.random((8, 8))), ("float32 64x64", rng.random((64, 64)).astype(np.float32)),
             ("uint8 32x32x3", (rng.random((32, 32, 3)) * 255).astype(np.uint8)), ("float64 256x256", rng.random((256, 256)))]
    print(f"medians of {args.repeat} samples of {args.calls} calls, alternated; SciPy's bits asserted")
    print("| array | fastblur us | scipy us | scipy / fastblur |\n| --- | ---: | ---: | ---: |")
    for name, a in cases:
        calls = {"fastblur": lambda: fastblur.gaussian_filter(a, 1.0), "scipy": lambda: nd.gaussian_filter(a, 1.0)}
        if not np.array_equal(calls["fastblur"](), calls["scipy"]()):
            print(f"{name}: fastblur differs from SciPy", file=sys.stderr)
            return 1
        samples = {k: [] for k in calls}
        for _ in range(args.repeat):
            for key, f in calls.items():
                t = time.perf_counter()
                for _ in range(args.calls):
                    f()
                samples[key].append((time.perf_counter() - t) / args.calls * 1e6)
        us = {k: statistics.median(v) for k, v in samples.items()}
        print(f"| {name} | {us['fastblur']:.1f} | {us['scipy']:.1f} | {us['scipy'] / us['fastblur']:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
