#!/usr/bin/env python3
"""Per-voxel time of an in-memory float32 cube from 256^3 to 1024^3 at sigma 2, 2 threads, with one
rounding and with SciPy's bits: the best call after the first (bench/RESULTS.md, issue 28's
"no cliff" target). 1024^3 needs about 8 GiB.

  PYTHONPATH=build/python /usr/bin/python3 bench/volume_sizes.py
"""
import time

import numpy as np

import fastblur

for n in (256, 512, 1024):
    a = np.random.default_rng(0).random((n, n, n), dtype=np.float32)
    o = np.empty_like(a)
    for rounding in ("nearest", "scipy"):
        times = []
        for _ in range(2 if n == 1024 else 3):
            t = time.perf_counter()
            fastblur.gaussian_filter(a, 2.0, output=o, threads=2, rounding=rounding)
            times.append(time.perf_counter() - t)
        best = min(times[1:])
        plan = fastblur.plan((n, n, n), 2.0, dtype="float32", threads=2, rounding=rounding)
        print(f"{n}^3 sigma 2 rounding={rounding:8s} {plan['algorithm']:12s} {plan['schedule']['driver']:12s} "
              f"{best * 1e3:9.1f} ms {best / n ** 3 * 1e9:6.2f} ns/voxel", flush=True)
    del a, o
