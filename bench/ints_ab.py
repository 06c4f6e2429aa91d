"""A/B of two builds of the Python module on 8- and 16-bit integer images with the drop-in's default
(SciPy's bits), each build in its own process, alternated call by call over pipes, medians; the outputs'
bits compared at the end (and against scipy.ndimage on each case once). Data as users have it - a CT
slice (int16, smooth tissue and noise, constant air outside the scanner's circle), microscopy counts
(uint16, Poisson about 1000), integers -100 .. 200 (bench/dropin_every_dtype.py's), uint16 and int8
noise over the whole range (the certified sums' worst case: neighbours thousands apart).

  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 /usr/bin/python3 bench/ints_ab.py build/python /tmp/py_old 21
"""
import pickle
import sys

import numpy as np
import scipy.ndimage as nd

from ab_workers import spawn

CASES = r'''
import numpy as np
rng = np.random.default_rng(11)
yy, xx = np.mgrid[0:1024, 0:1024]
body = ((yy - 512) ** 2 + (xx - 500) ** 2 < 460 ** 2)
ct = np.where(body, 40 + 30 * np.sin(xx / 40.0) + rng.normal(0, 20, body.shape), -1024).astype(np.int16)
cases = [ct, rng.poisson(1000, (1300, 1700)).astype(np.uint16), rng.integers(-100, 200, (1000, 1200)).astype(np.int16),
         rng.integers(0, 200, (1000, 1200)).astype(np.uint16), rng.integers(0, 65536, (1300, 1700)).astype(np.uint16),
         rng.integers(-128, 128, (1000, 1200)).astype(np.int8), rng.integers(-100, 100, (1000, 1700, 3)).astype(np.int8)]
sigmas = [1.5, 2.0, 2.0, 2.0, 4.0, 2.0, (1.2, 1.2, 0)]
'''
NAMES = ["int16 CT slice 1024^2 s1.5", "uint16 Poisson(1000) 1700x1300 s2", "int16 -100..200 1200x1000 s2",
         "uint16 0..200 1200x1000 s2", "uint16 full-range noise 1700x1300 s4", "int8 full-range noise 1200x1000 s2",
         "int8 RGB -100..100 1700x1000 s1.2"]
WORKER = r'''
import sys, time, pickle, numpy as np
sys.path.insert(0, sys.argv[1])
import fastblur
''' + CASES + r'''
outs = [np.empty_like(c) for c in cases]
for line in sys.stdin:
    k = int(line)
    if k < 0:
        sys.stdout.write(pickle.dumps([o.tobytes() for o in outs]).hex() + "\n"); sys.stdout.flush(); continue
    t = time.perf_counter(); fastblur.gaussian_filter(cases[k], sigmas[k], output=outs[k]); dt = time.perf_counter() - t
    sys.stdout.write(f"{dt}\n"); sys.stdout.flush()
'''


def main():
    procs = {tag: spawn(WORKER, spec) for tag, spec in (("new", sys.argv[1]), ("old", sys.argv[2]))}

    def call(tag, k):
        p = procs[tag]
        p.stdin.write(f"{k}\n")
        p.stdin.flush()
        return float(p.stdout.readline())

    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    for k, name in enumerate(NAMES):
        call("new", k)
        call("old", k)
        tn, to = [], []
        for _ in range(reps):
            tn.append(call("new", k))
            to.append(call("old", k))
        n, o = np.median(tn) * 1e3, np.median(to) * 1e3
        print(f"{name}: new {n:.2f} ms, old {o:.2f} ms, old/new {o / n:.3f}", flush=True)
    outs = {}
    for tag, p in procs.items():
        p.stdin.write("-1\n")
        p.stdin.flush()
        outs[tag] = pickle.loads(bytes.fromhex(p.stdout.readline()))
    scope = {}
    exec(CASES, scope)
    scipy_bits = [nd.gaussian_filter(c, s).tobytes() for c, s in zip(scope["cases"], scope["sigmas"])]
    print("bits equal (new, old):", all(a == b for a, b in zip(outs["new"], outs["old"])),
          "; new equals scipy.ndimage:", all(a == b for a, b in zip(outs["new"], scipy_bits)))
    for p in procs.values():
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    main()
