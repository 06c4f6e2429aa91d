#!/usr/bin/env python3
"""The drop-in's default on views users pass - a channel of an RGB image, every other pixel, a
Fortran-ordered array, a transposed one, a flipped axis - against its contiguous copy and against
scipy.ndimage, alternated call by call; SciPy's bits asserted. Medians of N (ms).

  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/views_vs_scipy.py [N]
"""
import statistics
import sys
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    rng = np.random.default_rng(4)
    rgb = rng.integers(0, 256, size=(1000, 1700, 3), dtype=np.uint8)
    f64 = rng.random((1200, 1600))
    f32v = rng.random((120, 200, 230)).astype(np.float32)
    cases = [("uint8 channel slice rgb[:,:,0]", rgb[:, :, 0], 2.0),
             ("uint8 contiguous copy of it", np.ascontiguousarray(rgb[:, :, 0]), 2.0),
             ("float64 Fortran order", np.asfortranarray(f64), 3.0),
             ("float64 C order", f64, 3.0),
             ("float64 transposed view f64.T", f64.T, 3.0),
             ("float64 [::2, ::2] view", f64[::2, ::2], 3.0),
             ("float64 copy of [::2, ::2]", np.ascontiguousarray(f64[::2, ::2]), 3.0),
             ("float32 volume Fortran", np.asfortranarray(f32v), 1.0),
             ("float32 volume C", f32v, 1.0),
             ("float32 volume [:, :, ::-1]", f32v[:, :, ::-1], 1.0)]
    for name, a, sigma in cases:
        if not np.array_equal(fastblur.gaussian_filter(a, sigma), nd.gaussian_filter(a, sigma)):
            print(f"{name}: fastblur differs from SciPy", file=sys.stderr)
            return 1
        ours, theirs = [], []
        for _ in range(repeat):
            t = time.perf_counter(); fastblur.gaussian_filter(a, sigma); ours.append(time.perf_counter() - t)
            t = time.perf_counter(); nd.gaussian_filter(a, sigma); theirs.append(time.perf_counter() - t)
        o, s = statistics.median(ours) * 1e3, statistics.median(theirs) * 1e3
        print(f"{name}: {o:.2f} ms, scipy {s:.2f} ms, {s / o:.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
