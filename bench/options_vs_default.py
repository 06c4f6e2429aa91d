"""Issue 43's "no faster option slower than the default, on any shape": a sweep of
`rounding='nearest'` and tolerances 1e-3 / 1e-2 against the default (SciPy's bits) over dtypes,
images and volumes, sigmas; alternated in one process, best of REPS each; each cell's plan drivers
and the ratio option/default (over 1.15: flagged).

  OMP_WAIT_POLICY=passive PYTHONPATH=build/python /usr/bin/python3 bench/options_vs_default.py [REPS] [--quick]
"""
import sys, time
import numpy as np
import fastblur

REPS = int(next((a for a in sys.argv[1:] if a.isdigit()), "7"))
QUICK = "--quick" in sys.argv
SHAPES = [(1080, 1920), (700, 800), (1000, 1700, 3), (64, 64, 64), (80, 170, 150), (128, 128, 128), (100, 150, 200)]
DTYPES = ["uint8", "uint16", "int16", "int32", "float32", "float64"]
SIGMAS = [1.0, 2.0, 4.0]
OPTIONS = {"nearest": {"rounding": "nearest"}, "tol 1e-3": {"tolerance": 1e-3}, "tol 1e-2": {"tolerance": 1e-2}}
if QUICK:
    SHAPES, DTYPES, SIGMAS, REPS = [(80, 170, 150)], ["int16", "int32"], [1.5], 3

rng = np.random.default_rng(int(time.time()))
print(f"2 threads, best of {REPS} alternated; ratio = option's time / the default's")


def data(dtype, shape):
    if np.dtype(dtype).kind == "f":
        return rng.random(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -30000), min(info.max, 60000), shape, dtype=dtype, endpoint=True)


flagged = 0
for shape in SHAPES:
    for dtype in DTYPES:
        a = data(dtype, shape)
        for sigma in SIGMAS:
            s = [sigma, sigma] + ([0.0] if len(shape) == 3 and shape[2] == 3 else [sigma] * (len(shape) - 2))
            calls = {"default": {}} | OPTIONS
            best = {k: float("inf") for k in calls}
            for _ in range(REPS):
                for name, kw in calls.items():
                    t = time.perf_counter()
                    fastblur.gaussian_filter(a, s, threads=2, **kw)
                    best[name] = min(best[name], time.perf_counter() - t)
            drivers = {k: fastblur.plan(a, s, threads=2, **kw)["schedule"]["driver"] for k, kw in calls.items()}
            cells = []
            for name in OPTIONS:
                ratio = best[name] / best["default"]
                flag = " SLOWER" if ratio > 1.15 else ""
                flagged += bool(flag)
                cells.append(f"{name} {ratio:.2f} ({drivers[name]}){flag}")
            print(f"{dtype} {'x'.join(map(str, shape))} sigma {sigma}: default {best['default'] * 1e3:.2f} ms "
                  f"({drivers['default']}); " + "; ".join(cells), flush=True)
print(f"cells over 1.15x: {flagged}")
