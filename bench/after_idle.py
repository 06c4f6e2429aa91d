#!/usr/bin/env python3
"""What a call costs after the process has been elsewhere: the default on a 1000x1200 image (sigma 2,
`output=` given) right after nothing (back to back), a 15 ms sleep, a 15 ms busy loop, a SciPy call,
and a 10 MB NumPy pass - each the median of N. An alternated benchmark times the call after a SciPy
call, when this VM's second core has been idle and wakes late and slow.

  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/after_idle.py DTYPE [N]
"""
import statistics
import sys
import time

import numpy as np
import scipy.ndimage as nd

import fastblur


def busy(ms):
    t = time.perf_counter()
    while time.perf_counter() - t < ms / 1e3:
        pass


def main():
    dtype = sys.argv[1] if len(sys.argv) > 1 else "float64"
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 31
    rng = np.random.default_rng(2)
    a = (rng.integers(-100, 200, size=(1000, 1200)) if np.dtype(dtype).kind in "iu" else rng.random((1000, 1200))).astype(dtype)
    out, other = np.empty_like(a), rng.random((1000, 1200))
    before = {"b2b": lambda: None, "sleep15": lambda: time.sleep(0.015), "busy15": lambda: busy(15),
              "scipy": lambda: nd.gaussian_filter(a, 2.0), "touch 10MB": lambda: np.add(other, 1.0, out=other)}
    times = {k: [] for k in before}
    for _ in range(repeat):
        for k, f in before.items():
            f()
            t = time.perf_counter(); fastblur.gaussian_filter(a, 2.0, output=out); times[k].append(time.perf_counter() - t)
    print(dtype, " ".join(f"{k}={statistics.median(v) * 1e3:.2f}" for k, v in times.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
