#!/usr/bin/env python3
"""Issue 45: nan_policy='omit' against the plain blur (rounding='nearest') of the same float32 1080p
RGB image with 10% NaN in blobs, for one or more builds of the Python module - each build in its own
process (pybind11 registers a type once a process), the builds alternated process by process, 5
processes each, medians of 9 calls a process and of the processes; 2 threads.

  cp -r build/python /tmp/py_old   # before a change; rebuild; then
  /usr/bin/python3 bench/omit_ab.py /tmp/py_old build/python
"""
import json
import os
import statistics
import subprocess
import sys

WORKER = r'''
import sys, time, json, numpy as np
sys.path.insert(0, "bench")
import fastblur
from missing_data import blobs
rng = np.random.default_rng(1)
a = rng.random((1080, 1920, 3), dtype=np.float32)
a[blobs(rng, a.shape, 0.1)] = np.nan
out = np.empty_like(a)
res = {}
for s, tol in ((2, 0.0), (8, 1e-2), (30, 1e-2)):
    for name, kw in (("plain", dict(rounding="nearest")), ("omit", dict(nan_policy="omit"))):
        f = lambda: fastblur.gaussian_filter(a, (s, s, 0), output=out, tolerance=tol, **kw)
        f(); f()
        t = []
        for _ in range(9):
            t0 = time.perf_counter(); f(); t.append(time.perf_counter() - t0)
        res[f"s{s} tol {tol} {name}"] = sorted(t)[4] * 1e3
print(json.dumps(res))
'''


def main():
    builds = sys.argv[1:] or ["build/python"]
    runs = {p: [] for p in builds}
    for _ in range(5):
        for p in builds:
            out = subprocess.run([sys.executable, "-c", WORKER], env=dict(os.environ, PYTHONPATH=p, OMP_NUM_THREADS="2"),
                                 capture_output=True, text=True)
            if out.returncode:
                sys.exit(out.stderr[-2000:])
            runs[p].append(json.loads(out.stdout.strip().splitlines()[-1]))
    for k in runs[builds[0]][0]:
        print(k, "  ".join(f"{p}: {statistics.median(r[k] for r in runs[p]):.2f} ms" for p in builds))
    for s in ("s2 tol 0.0", "s8 tol 0.01", "s30 tol 0.01"):
        ratios = (statistics.median(r[s + " omit"] for r in runs[p]) / statistics.median(r[s + " plain"] for r in runs[p])
                  for p in builds)
        print(s, "omit / plain", "  ".join(f"{p}: {x:.2f}x" for p, x in zip(builds, ratios)))


if __name__ == "__main__":
    main()
