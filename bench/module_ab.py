"""A/B of two builds of the Python module on the drop-in's default (SciPy's bits), each build in its own
process (pybind11 registers a type once a process), alternated call by call over pipes, medians;
the outputs' bits compared at the end.

  cp -r build/python /tmp/py_old   # before the change; rebuild; then
  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 /usr/bin/python3 bench/module_ab.py build/python /tmp/py_old 21
  (either side may be PATH:NAME=value: that worker also gets environment variable NAME)
  ... build/python /tmp/py_old 21 int16:80x170x150:1.5 int32:1000x1200:2
  (cases given as DTYPE:SHAPE:SIGMA replace the default ones: uniform data, integers 0..999, signed
  ones shifted by -500; DTYPE:SHAPE:SIGMA:ROUNDING passes rounding=ROUNDING, e.g. nearest; SIGMA@AXIS
  calls gaussian_filter1d along AXIS, e.g. int32:1000x1200:3@0; a SHAPE ending in F is a Fortran-ordered
  array and output, in FC a Fortran-ordered array and a C-ordered output)

OMP_WAIT_POLICY=passive: otherwise each process's OpenMP threads spin after its call while the other's
runs (every case then read about 11.9 ms on this 2-core VM, 2026-11-28).
"""
import os, sys, time, pickle, numpy as np
from ab_workers import spawn
WORKER = r'''
import sys, time, pickle, numpy as np
sys.path.insert(0, sys.argv[1])
import os
import fastblur
rng = np.random.default_rng(7)
given = [c.split(":") for c in os.environ.get("FASTBLUR_AB_CASES", "").split(";") if c]
cases = [(rng.random((1000, 1700, 3)) * 255).astype(np.uint8), (rng.random((1000, 1700, 4)) * 255).astype(np.uint8),
         rng.random((1150, 2050, 4)).astype(np.float32), rng.random((1150, 2050, 4)).astype(np.float32),
         rng.random((1400, 1600)), (rng.random((1300, 1700)) * 65535).astype(np.uint16),
         rng.random((180, 200, 230)).astype(np.float32), rng.random((80, 170, 150))]
sigmas = [(1.2, 1.2, 0), (2, 2, 0), (1, 1, 0), (5.67, 5.67, 0), 3.0, 4.0, 1.0, 1.5]
if given:
    def data(dtype, shape):
        return (rng.random(shape) * 1000 - (500 if np.dtype(dtype).kind == "i" else 0)).astype(dtype)
    # SHAPE ending in F: a Fortran-ordered array (and output); in FC: Fortran-ordered, C-ordered output.
    cases = [data(c[0], tuple(int(n) for n in c[1].rstrip("FC").split("x"))) for c in given]
    cases = [np.asfortranarray(a) if c[1].rstrip("C").endswith("F") else a for a, c in zip(cases, given)]
    sigmas = [float(c[2].partition("@")[0]) for c in given]
    options = [{"rounding": c[3]} if len(c) > 3 else {} for c in given]
    for o, c in zip(options, given):
        if "@" in c[2]:
            o["axis"] = int(c[2].partition("@")[2])
else:
    options = [{} for _ in cases]
outs = [np.empty(c.shape, c.dtype) if given and given[k][1].endswith("FC") else np.empty_like(c) for k, c in enumerate(cases)]
for line in sys.stdin:
    k = int(line)
    if k < 0:
        sys.stdout.write(pickle.dumps([o.tobytes()[:1 << 20] for o in outs]).hex() + "\n"); sys.stdout.flush(); continue
    blur = fastblur.gaussian_filter1d if "axis" in options[k] else fastblur.gaussian_filter
    t = time.perf_counter(); blur(cases[k], sigmas[k], output=outs[k], **options[k]); dt = time.perf_counter() - t
    sys.stdout.write(f"{dt}\n"); sys.stdout.flush()
'''
names = ["u8 RGB 1700x1000 s1.2", "u8 RGBA 1700x1000 s2", "f32 RGBA 2050x1150 s1", "f32 RGBA 2050x1150 s5.67",
         "f64 1600x1400 s3", "u16 1300x1700 s4", "f32 volume 230x200x180 s1", "f64 volume 150x170x80 s1.5"]
if len(sys.argv) > 4:  # the cases given replace the default ones, in both workers
    os.environ["FASTBLUR_AB_CASES"] = ";".join(sys.argv[4:])
    names = [" ".join(c.split(":")) for c in sys.argv[4:]]
procs = {tag: spawn(WORKER, spec) for tag, spec in (("new", sys.argv[1]), ("old", sys.argv[2]))}
def call(tag, k):
    p = procs[tag]; p.stdin.write(f"{k}\n"); p.stdin.flush(); return float(p.stdout.readline())
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 15
for k, name in enumerate(names):
    call("new", k); call("old", k)
    tn, to = [], []
    for _ in range(reps):
        tn.append(call("new", k)); to.append(call("old", k))
    n, o = np.median(tn) * 1e3, np.median(to) * 1e3
    print(f"{name}: new {n:.2f} ms, old {o:.2f} ms, old/new {o / n:.3f}", flush=True)
outs = {}
for tag, p in procs.items():
    p.stdin.write("-1\n"); p.stdin.flush(); outs[tag] = pickle.loads(bytes.fromhex(p.stdout.readline()))
print("bits equal:", all(a == b for a, b in zip(outs["new"], outs["old"])))
for p in procs.values(): p.stdin.close(); p.wait()
