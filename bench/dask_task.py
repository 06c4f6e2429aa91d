#!/usr/bin/env python3
"""What one fastblur.dask task of bench/dask_bench.py costs alone: a 256x512x512 float32 chunk and
its piece with an 8-voxel halo allocated and filled (as zarr and np.block make them), the piece
blurred in place at sigma 2 with 1 thread, the chunk cropped out; seconds, page faults and system
time of each of 3 rounds (bench/RESULTS.md, issue 28).

  PYTHONPATH=build/python /usr/bin/python3 bench/dask_task.py
"""
import resource
import time

import numpy as np

import fastblur


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_minflt, r.ru_stime


h = 8
for _ in range(3):
    t0, (f0, s0) = time.perf_counter(), usage()
    chunk = np.empty((256, 512, 512), np.float32)
    chunk[...] = 1.0
    t1 = time.perf_counter()
    piece = np.empty((256 + 2 * h, 512 + 2 * h, 512 + 2 * h), np.float32)
    piece[...] = 0.5
    t2 = time.perf_counter()
    fastblur.gaussian_filter(piece, 2.0, output=piece, threads=1)
    t3 = time.perf_counter()
    out = np.ascontiguousarray(piece[h:-h, h:-h, h:-h])
    t4, (f1, s1) = time.perf_counter(), usage()
    print(f"chunk {t1 - t0:.3f} s, piece {t2 - t1:.3f} s, blur {t3 - t2:.3f} s, crop {t4 - t3:.3f} s; "
          f"faults {f1 - f0}, system {s1 - s0:.2f} s", flush=True)
    del chunk, piece, out
