#!/usr/bin/env python3
"""A GPU run's measured profile (issue 47): bench/fastblur_gpu_bench's JSON lines (one per case) into
the profile the planner reads on that device (src/algorithms/gpu_profile.hpp), to be committed as
data/gpu-profiles/<device>.json.

    bench/gpu_profile.py GPU_BENCH_JSONL OUT.json [--driver D] [--commit C]

Every case with a device time is kept: its algorithm, variant, element type, channels, extent, sigma,
the median device time and the model's predicted cost when it was measured. Cases of other devices
(a resumed run on another machine) are refused."""
import argparse
import datetime
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("jsonl")
    ap.add_argument("out")
    ap.add_argument("--driver", default="")
    ap.add_argument("--commit", default="")
    args = ap.parse_args()
    cases, devices = [], set()
    with open(args.jsonl) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            c = json.loads(line)
            if "dev_ms" not in c or "algorithm" not in c:
                continue  # skipped on the device, or written by an older benchmark
            devices.add(c["device_name"])
            cases.append({k: c[k] for k in ("algorithm", "variant", "type", "channels", "extent", "sigma")} |
                         {"ms": c["dev_ms"], "model_cost": c["model_cost"]})
    if len(devices) != 1:
        sys.exit(f"gpu_profile.py: expected the cases of one device, found {sorted(devices) or 'none'}")
    profile = {"device": devices.pop(), "driver": args.driver, "commit": args.commit,
               "date": datetime.date.today().isoformat(), "cases": cases}
    # One case a line: a profile is read in diffs.
    head = json.dumps({k: v for k, v in profile.items() if k != "cases"})[:-1]
    with open(args.out, "w") as f:
        f.write(head + ', "cases": [\n' + ",\n".join(json.dumps(c) for c in cases) + "\n]}\n")
    print(f"gpu_profile.py: {len(cases)} cases of {profile['device']} -> {args.out}")


if __name__ == "__main__":
    main()
