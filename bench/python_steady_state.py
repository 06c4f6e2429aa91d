#!/usr/bin/env python3
"""Milliseconds and page faults a call of fastblur.gaussian_filter from Python, repeated into one
output array, for every CPU path a Python user meets (RGBA float32 by algorithm, exact and within
1e-2; RGBA8 with both roundings; float64; a float32 volume exact, within 1e-3 and with SciPy's bits;
int16). In steady state a call should fault in no fresh pages (bench/RESULTS.md, issue 28).

  PYTHONPATH=build/python /usr/bin/python3 bench/python_steady_state.py [--calls N]
"""
import argparse
import resource
import time

import numpy as np

import fastblur


def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def run(name, img, sigma, calls, **kw):
    out = np.empty_like(img)
    for _ in range(3):
        fastblur.gaussian_filter(img, sigma, output=out, threads=2, **kw)
    f0, t = faults(), time.perf_counter()
    for _ in range(calls):
        fastblur.gaussian_filter(img, sigma, output=out, threads=2, **kw)
    ms = (time.perf_counter() - t) / calls * 1e3
    print(f"{name:40s} {ms:8.2f} ms {(faults() - f0) / calls:8.0f} faults/call", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20)
    n = ap.parse_args().calls
    rng = np.random.default_rng(1)
    rgba32 = rng.random((1080, 1920, 4)).astype(np.float32)
    rgba8 = (rgba32 * 255).astype(np.uint8)
    f64 = rng.random((1080, 1920))
    vol = rng.random((256, 256, 256)).astype(np.float32)
    ct = (rng.random((128, 256, 256)) * 3000).astype(np.int16)
    for alg in ("fir", "box", "kawase", "sliding-dct", "iir"):
        run(f"rgba32 {alg} s5 nearest", rgba32, (5, 5, 0), n, algorithm=alg, rounding="nearest")
    run("rgba32 exact k35 nearest", rgba32, (34 / 6, 34 / 6, 0), n, rounding="nearest")
    run("rgba32 e-2 s20", rgba32, (20, 20, 0), n, tolerance=1e-2)
    run("rgba8 exact s5 default", rgba8, (5, 5, 0), n)
    run("rgba8 exact s5 nearest", rgba8, (5, 5, 0), n, rounding="nearest")
    run("rgba8 e-2 s20", rgba8, (20, 20, 0), n, tolerance=1e-2)
    run("f64 default s3", f64, 3, n)
    run("f64 nearest s3", f64, 3, n, rounding="nearest")
    run("vol f32 s4 nearest", vol, 4, n, rounding="nearest")
    run("vol f32 s4 default", vol, 4, n)
    run("vol f32 s4 e-3", vol, 4, n, tolerance=1e-3)
    run("int16 ct s2 default", ct, 2, n)


if __name__ == "__main__":
    main()
