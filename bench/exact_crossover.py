#!/usr/bin/env python3
"""Where the exact plan should leave fir for sliding-dct fitted to fir's kernel (equal within 1e-5):
both by name and the planner's own choice, median ms of 7, at sigma 1 to 12 on a 1080p RGBA float32
and uint8 image and a 256^3 float32 volume, 2 threads, rounding='nearest' (bench/RESULTS.md, issue 28).

  PYTHONPATH=build/python /usr/bin/python3 bench/exact_crossover.py
"""
import time

import numpy as np

import fastblur


def timed(fn, repeat=7):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2] * 1e3


def main():
    rng = np.random.default_rng(2)
    img = rng.random((1080, 1920, 4)).astype(np.float32)
    cases = [("256^3 float32", rng.random((256, 256, 256)).astype(np.float32), False),
             ("1080p RGBA float32", img, True), ("1080p RGBA uint8", (img * 255).astype(np.uint8), True)]
    for name, a, rgba in cases:
        out = np.empty_like(a)
        for s in (1.0, 2.0, 3.0, 4.0, 5.67, 8.0, 12.0):
            sigma = (s, s, 0) if rgba else s
            row = []
            for alg in ("auto", "fir", "sliding-dct"):
                kw = dict(output=out, threads=2, rounding="nearest")
                if alg != "auto":
                    kw["algorithm"] = alg
                if alg == "sliding-dct":
                    kw["options"] = {"sliding_dct_fit": "fir"}
                row.append(f"{alg} {timed(lambda: fastblur.gaussian_filter(a, sigma, **kw)):.1f}")
            plan = fastblur.plan(a.shape[:2] if rgba else a.shape, (s, s) if rgba else s, dtype=str(a.dtype),
                                 channels=4 if rgba else 1, threads=2, rounding="nearest")
            print(f"{name} sigma {s}: plan {plan['algorithm']} | " + " | ".join(row), flush=True)


if __name__ == "__main__":
    main()
