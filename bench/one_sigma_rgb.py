#!/usr/bin/env python3
"""One sigma on an RGB(A) array (SciPy's rule blurs the channel axis too; issue 43): where the time
goes and what each option costs.

Usage: OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/one_sigma_rgb.py [--repeat N]

First, per dtype on a 1000x1700x3 array, the whole call (sigma 2 on every axis) and the channel
axis alone (sigma (0, 0, 2)), each checked bit-identical to scipy.ndimage. Then, on four shapes, the
default against rounding='nearest' and tolerances 1e-2 and 1e-4 (milliseconds, best of N).
"""
import argparse
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def best(fn, repeat):
    fn()
    b = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        b = min(b, time.perf_counter() - t)
    return b * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    rng = np.random.default_rng(2)
    print("| dtype 1000x1700x3 | sigma 2 on every axis ms | channel axis alone ms |")
    print("| --- | ---: | ---: |")
    for dt in ("uint8", "float32", "float64", "int16"):
        v = (rng.random((1000, 1700, 3)) * 255).astype(dt)
        row = []
        for sg in ((2, 2, 2), (0, 0, 2)):
            assert np.array_equal(fastblur.gaussian_filter(v, sg), nd.gaussian_filter(v, sg)), (dt, sg)
            row.append(best(lambda: fastblur.gaussian_filter(v, sg), args.repeat))
        print(f"| {dt} | {row[0]:.2f} | {row[1]:.2f} |")
    print()
    print("| array, one sigma | default ms | nearest | tolerance 1e-2 | tolerance 1e-4 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for shape, dt, s in (((1000, 1700, 3), "uint8", 2.0), ((1000, 1700, 4), "uint8", 6.0),
                         ((1080, 1920, 3), "float32", 1.0), ((1080, 1920, 3), "float32", 5.0)):
        v = (rng.random(shape) * 255).astype(dt)
        times = [best(lambda: fastblur.gaussian_filter(v, s, **kw), args.repeat)
                 for kw in ({}, {"rounding": "nearest"}, {"tolerance": 1e-2}, {"tolerance": 1e-4})]
        print(f"| {dt} {'x'.join(map(str, shape))} sigma {s:g} | " + " | ".join(f"{t:.2f}" for t in times) + " |")


if __name__ == "__main__":
    main()
