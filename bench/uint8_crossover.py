#!/usr/bin/env python3
"""uint8 1080p RGBA: exact fir against sliding-dct fitted to fir's kernel, and within 1e-2 the plan
against downsample's chain, at sigma 2 to 12; median of 9 ms, 2 threads, rounding='nearest', all in
one process (bench/RESULTS.md, 2026-11-27: whether the planner's choices for photos follow the
measurements).

  PYTHONPATH=build/python OMP_NUM_THREADS=2 /usr/bin/python3 bench/uint8_crossover.py
"""
import numpy as np

import fastblur
from exact_crossover import timed  # median ms of `repeat` runs after one warm-up (bench/ is on sys.path)


def main():
    rng = np.random.default_rng(2)
    img = (rng.random((1080, 1920, 4)) * 255).astype(np.uint8)
    out = np.empty_like(img)
    for s in (2.0, 3.0, 4.0, 5.67, 8.0, 12.0):
        sigma = (s, s, 0)
        common = dict(output=out, threads=2, rounding="nearest")
        cells = [
            ("exact plan", dict()),
            ("fir", dict(algorithm="fir")),
            ("sliding-dct", dict(algorithm="sliding-dct", options={"sliding_dct_fit": "fir"})),
            ("e1e-2 plan", dict(tolerance=1e-2)),
            ("chain", dict(tolerance=1e-2, algorithm="downsample")),
        ]
        row = [f"{name} {timed(lambda kw=kw: fastblur.gaussian_filter(img, sigma, **common, **kw), 9):.2f}"
               for name, kw in cells]
        exact = fastblur.plan(img.shape, sigma, dtype=np.uint8, threads=2, rounding="nearest")
        within = fastblur.plan(img.shape, sigma, dtype=np.uint8, threads=2, rounding="nearest", tolerance=1e-2)
        print(f"uint8 sigma {s}: exact plan {exact['algorithm']}/{exact['schedule']['driver']}, "
              f"within 1e-2 {within['algorithm']}/{within['schedule']['driver']} | " + " | ".join(row), flush=True)


if __name__ == "__main__":
    main()
