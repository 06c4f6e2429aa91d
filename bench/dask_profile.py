#!/usr/bin/env python3
"""Where fastblur.dask's time goes on a zarr store (bench/RESULTS.md, issue 28 deliverable 5): the
same volume and cluster as bench/dask_bench.py (smooth float32 cube, chunks 256x512x512, a 2-worker
LocalCluster of 1 thread each), the zarr copy and blur_zarr timed, each with dask's task stream
summed per kind of task (compute and transfer seconds, count) and each worker's page faults, user and
system time (getrusage in the worker) over the run.

  PYTHONPATH=build/python /usr/bin/python3 bench/dask_profile.py --size 1024 --sigmas 2
"""
import argparse
import collections
import os
import resource
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dask_bench import parse_ints, write_volume  # noqa: E402


def _usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_minflt, r.ru_majflt, r.ru_utime, r.ru_stime


def worker_usage(client):
    return client.run(_usage)


def usage_delta(before, after):
    out = []
    for w in sorted(after):
        a, b = before[w], after[w]
        out.append(f"minflt {b[0] - a[0]}, majflt {b[1] - a[1]}, user {b[2] - a[2]:.1f} s, system {b[3] - a[3]:.1f} s")
    return out


def stream_summary(stream):
    per = collections.defaultdict(lambda: collections.Counter())
    for t in stream:
        key = t["key"]
        prefix = key.split("'")[1] if key.startswith("(") else key
        prefix = prefix.rsplit("-", 1)[0]
        for ss in t["startstops"]:
            per[(prefix, ss["action"])]["s"] += ss["stop"] - ss["start"]
            per[(prefix, ss["action"])]["n"] += 1
    return [f"{p:40s} {a:10s} n {c['n']:4d}  {c['s']:7.2f} s" for (p, a), c in sorted(per.items())]


def profiled(client, label, run):
    """Runs `run` once, printing its time, the workers' resource use and dask's task stream."""
    import distributed
    u0 = worker_usage(client)
    with distributed.get_task_stream(client) as ts:
        t = time.perf_counter()
        run()
        t = time.perf_counter() - t
    print(f"{label} {t:.2f} s", flush=True)
    for line in usage_delta(u0, worker_usage(client)):
        print("  worker:", line)
    for line in stream_summary(ts.data):
        print("  ", line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--chunks", type=parse_ints, default=(256, 512, 512))
    ap.add_argument("--sigmas", type=lambda t: [float(s) for s in t.split(",")], default=[2.0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()

    import dask.array as da
    import distributed

    import fastblur.dask as fbd

    work = tempfile.mkdtemp(prefix="fastblur-dask-profile-", dir=args.dir)
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        n = args.size
        src = os.path.join(work, "in.zarr")
        write_volume(src, n, args.chunks)
        for _ in range(args.repeat):
            copy = os.path.join(work, "copy.zarr")
            profiled(client, f"{n}^3 zarr copy", lambda: da.from_zarr(src).to_zarr(copy, overwrite=True))
            shutil.rmtree(copy)
            for sigma in args.sigmas:
                dst = os.path.join(work, "out.zarr")
                profiled(client, f"{n}^3 sigma {sigma:g} blur_zarr", lambda: fbd.blur_zarr(src, dst, sigma, overwrite=True))
                shutil.rmtree(dst)
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
