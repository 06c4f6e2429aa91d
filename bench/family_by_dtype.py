#!/usr/bin/env python3
"""gaussian_gradient_magnitude and gaussian_laplace (default arguments, sigma 2) on a 1080x1920
image of every dtype SciPy's composition treats differently, against scipy.ndimage, alternated;
SciPy's bits checked on every row. Medians of N (ms).

  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/family_by_dtype.py [N]
"""
import statistics
import sys
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = np.random.default_rng(4)
    for dtype in ["uint8", "int8", "uint16", "int16", "int32", "float32", "float64"]:
        a = (rng.random((1080, 1920)) * 200).astype(dtype)
        for name in ["gaussian_gradient_magnitude", "gaussian_laplace"]:
            ours, theirs = getattr(fastblur, name), getattr(nd, name)
            with np.errstate(invalid="ignore"):
                same = np.array_equal(ours(a, 2.0), theirs(a, 2.0))
                times = {"ours": [], "scipy": []}
                for _ in range(repeat):
                    for key, f in (("ours", ours), ("scipy", theirs)):
                        t = time.perf_counter(); f(a, 2.0); times[key].append(time.perf_counter() - t)
            o, s = (statistics.median(times[k]) * 1e3 for k in ("ours", "scipy"))
            print(f"{dtype} {name}: {o:.2f} ms scipy {s:.2f} {s / o:.1f}x bits {'equal' if same else 'DIFFER'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
