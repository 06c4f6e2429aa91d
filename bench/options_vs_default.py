"""Issue 43's "no faster option slower than the default, on any shape": a sweep of
`rounding='nearest'` and tolerances 1e-3 / 1e-2 against the default (SciPy's bits) over dtypes,
images and volumes, sigmas; alternated in one process, best of REPS each; each cell's plan drivers
and the ratio option/default (over 1.15: flagged).

  OMP_WAIT_POLICY=passive PYTHONPATH=build/python /usr/bin/python3 bench/options_vs_default.py [REPS] [--quick]
      [--dtypes int32,float64] [--shapes 1080x1920,500x850x4] [--sigmas 1,2]
  (the lists replace the default ones)
"""
import argparse, time
import numpy as np
import fastblur

parser = argparse.ArgumentParser()
parser.add_argument("reps", nargs="?", type=int, default=7)
parser.add_argument("--quick", action="store_true")
parser.add_argument("--dtypes", default="uint8,uint16,int16,int32,int64,bool,float32,float64")
parser.add_argument("--shapes", default="1080x1920,700x800,1000x1700x3,64x64x64,80x170x150,128x128x128,100x150x200")
parser.add_argument("--sigmas", default="1,2,4")
args = parser.parse_args()
REPS = args.reps
SHAPES = [tuple(int(n) for n in s.split("x")) for s in args.shapes.split(",")]
DTYPES = args.dtypes.split(",")
SIGMAS = [float(s) for s in args.sigmas.split(",")]
OPTIONS = {"nearest": {"rounding": "nearest"}, "tol 1e-3": {"tolerance": 1e-3}, "tol 1e-2": {"tolerance": 1e-2}}
if args.quick:
    SHAPES, DTYPES, SIGMAS, REPS = [(80, 170, 150)], ["int16", "int32"], [1.5], 3

rng = np.random.default_rng(int(time.time()))
print(f"2 threads, best of {REPS} alternated; ratio = option's time / the default's")


def data(dtype, shape):
    if np.dtype(dtype).kind == "f":
        return rng.random(shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
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
