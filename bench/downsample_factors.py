"""downsample's factors against each other within 1e-2 (bench/RESULTS.md, issue 28, "factor 8"):
for each sigma, every factor whose candidate the planner found within the tolerance (its options
from the plan's `considered` lines: factor and least low-resolution truncation), timed alternately
in one process through fastblur.gaussian_filter with those options, RGBA float32, 2 threads; min /
median ms of 15 calls, two rounds.

    PYTHONPATH=build/python /usr/bin/python3 bench/downsample_factors.py [H W [SIGMA,SIGMA,...]]
"""
import re
import sys
import time

import numpy as np

import fastblur

TOLERANCE = 1e-2
CANDIDATE = re.compile(r"downsample low-truncate ([0-9.]+) factor (\d) +predicted max error ([0-9.e+-]+)")


def timed(call, repeat=15):
    """min and median ms of `repeat` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0] * 1e3, times[len(times) // 2] * 1e3


def candidates_within(shape, sigma):
    """(factor, truncation) of each downsample candidate the plan weighed within the tolerance."""
    plan = fastblur.plan(shape, sigma, channels=4, tolerance=TOLERANCE)
    found = []
    for line in plan["considered"]:
        m = CANDIDATE.match(line)
        if m and float(m.group(3)) <= TOLERANCE:
            found.append((int(m.group(2)), float(m.group(1))))
    return plan, found


def main():
    shape = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1080, 1920)
    sigmas = [float(s) for s in sys.argv[3].split(",")] if len(sys.argv) > 3 else [20.0, 30.0, 50.0, 60.0]
    image = np.random.default_rng(7).random(shape + (4,), dtype=np.float32)
    out = np.empty_like(image)
    for sigma in sigmas:
        plan, found = candidates_within(shape, sigma)
        cells = []
        for _ in range(2):
            for factor, truncate in found:
                options = {"downsample_factor": factor, "downsample_low_truncate": truncate}
                lo, med = timed(lambda: fastblur.gaussian_filter(image, (sigma, sigma, 0), algorithm="downsample",
                                                                 options=options, output=out, threads=2))
                cells.append(f"f{factor} t{truncate}: {lo:.2f}/{med:.2f}")
        print(f"sigma {sigma} planner picks factor {plan.get('downsample_factor')}: " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
