"""A/B of two builds of the Python module on photographs (scikit-image's astronaut, coffee and camera,
tiled), the drop-in's default (SciPy's bits): each build in its own process, alternated call by call
over pipes, medians; the outputs' bits compared at the end. Photographs have flat areas and smooth
gradients, which noise has not (bench/module_ab.py times noise).

  cp -r build/python /tmp/py_old   # before the change; rebuild; then
  OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 /usr/bin/python3 bench/photos_ab.py build/python /tmp/py_old 11
  (either side may be PATH:NAME=value: that worker also gets environment variable NAME)
"""
import statistics
import sys

from ab_workers import spawn

WORKER = r'''
import sys, time, hashlib, numpy as np
sys.path.insert(0, sys.argv[1])
import fastblur, skimage.data
a, c, g = skimage.data.astronaut(), skimage.data.coffee(), skimage.data.camera()
opaque = np.dstack([np.tile(a, (2, 3, 1)), np.full((1024, 1536), 255, np.uint8)])
cases = [(np.tile(a, (2, 3, 1))[:1000, :1500], (1.2, 1.2, 0)), (np.tile(c, (3, 3, 1)), (2.0, 2.0, 0)),
         (np.tile(g, (2, 3)), 2.0), (np.tile(a, (2, 3, 1)), (3.5, 3.5, 0)), (opaque, (2.0, 2.0, 0))]
cases = [(np.ascontiguousarray(x), s) for x, s in cases]
outs = [np.empty_like(x) for x, _ in cases]
for line in sys.stdin:
    k = int(line)
    if k < 0:
        sys.stdout.write(hashlib.sha1(b"".join(o.tobytes() for o in outs)).hexdigest() + "\n"); sys.stdout.flush(); continue
    x, s = cases[k]
    t = time.perf_counter(); fastblur.gaussian_filter(x, s, output=outs[k]); dt = time.perf_counter() - t
    sys.stdout.write(f"{dt}\n"); sys.stdout.flush()
'''
NAMES = ["astronaut RGB 1500x1000 s1.2", "coffee RGB 1200x1200 s2", "camera grey 1536x1024 s2", "astronaut RGB 1536x1024 s3.5",
         "astronaut RGBA (opaque) 1536x1024 s2"]


def main():
    procs = {tag: spawn(WORKER, spec) for tag, spec in (("new", sys.argv[1]), ("old", sys.argv[2]))}
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 11

    def call(tag, k):
        p = procs[tag]
        p.stdin.write(f"{k}\n")
        p.stdin.flush()
        return p.stdout.readline().strip()

    print("| photo | new ms | old ms | old/new |\n| --- | ---: | ---: | ---: |")
    for k, name in enumerate(NAMES):
        call("new", k), call("old", k)
        tn, to = [], []
        for i in range(reps):
            for tag in (("new", "old") if i % 2 == 0 else ("old", "new")):
                (tn if tag == "new" else to).append(float(call(tag, k)))
        mn, mo = statistics.median(tn) * 1e3, statistics.median(to) * 1e3
        print(f"| {name} | {mn:.2f} | {mo:.2f} | {mo / mn:.2f}x |", flush=True)
    same = call("new", -1) == call("old", -1)
    print("bits equal:", same)
    for p in procs.values():
        p.stdin.close()
        p.wait()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
