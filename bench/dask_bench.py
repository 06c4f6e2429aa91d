"""fastblur.dask on zarr volumes and a 2-worker LocalCluster, against what dask-image does
(map_overlap of scipy.ndimage.gaussian_filter with a halo of the kernel radius) in the same run, and
against fastblur's own single-process call on the volume in memory; then, with --big, a volume larger
than memory blurred zarr to zarr with the peak resident memory of every process.

  PYTHONPATH=build/python /usr/bin/python3 bench/dask_bench.py                 # 1024^3 at sigma 2 and 8
  PYTHONPATH=build/python /usr/bin/python3 bench/dask_bench.py --big 2048 --no-volume
  PYTHONPATH=build/python /usr/bin/python3 bench/dask_bench.py --quick         # small, checks itself (ctest)

Inputs are smooth, quantised float32 volumes (so zarr's default Blosc compresses them), written to
--dir and deleted at the end. Rows: seconds zarr to zarr (read, blur, write), and fastblur in memory.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

import numpy as np


def parse_ints(text):
    return tuple(int(t) for t in text.split(","))


def make_block(block_info=None):
    """A block of the smooth quantised test volume, from its position alone."""
    (z0, z1), (y0, y1), (x0, x1) = block_info[None]["array-location"]
    z = np.sin(np.arange(z0, z1, dtype=np.float32) / 97.0)
    y = np.cos(np.arange(y0, y1, dtype=np.float32) / 61.0)
    x = np.sin(np.arange(x0, x1, dtype=np.float32) / 43.0)
    v = z[:, None, None] * y[None, :, None] + x[None, None, :]
    return np.round(v * 8.0) / 8.0


def write_volume(path, n, chunks):
    import dask.array as da
    shape = (n, n, n)
    norm = da.core.normalize_chunks(chunks, shape)
    x = da.map_blocks(make_block, chunks=norm, dtype=np.float32)
    x.to_zarr(path, overwrite=True)


def peak_rss(pid):
    """Peak resident memory of a process in bytes (VmHWM)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def timed(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


def fmt_gib(b):
    return f"{b / 2**30:.2f} GiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, every path, checked (for ctest)")
    ap.add_argument("--size", type=int, default=1024, help="edge of the cube (default 1024: 4 GiB float32)")
    ap.add_argument("--chunks", type=parse_ints, default=(256, 512, 512), help="zarr and dask chunks")
    ap.add_argument("--sigmas", type=lambda t: [float(s) for s in t.split(",")], default=[2.0, 8.0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--big", type=int, default=0, help="also blur a cube of this edge zarr to zarr (e.g. 2048)")
    ap.add_argument("--no-volume", action="store_true", help="skip the --size rows")
    ap.add_argument("--no-scipy", action="store_true", help="skip dask + scipy")
    ap.add_argument("--dir", default=None, help="where the zarr stores go (default: a temporary folder)")
    args = ap.parse_args()
    if args.quick:
        args.size, args.chunks, args.sigmas, args.big = 64, (16, 24, 32), [2.0, 4.0], 64

    import dask.array as da
    import distributed
    import psutil
    import scipy.ndimage as nd
    import zarr

    import fastblur
    import fastblur.dask as fbd

    work = tempfile.mkdtemp(prefix="fastblur-dask-bench-", dir=args.dir)
    rows, failures = [], []
    print(f"fastblur {fastblur.__version__}, {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.1f} GiB, "
          f"{args.workers}-worker LocalCluster (1 thread each), chunks {args.chunks}, work dir {work}", flush=True)
    cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        if not args.no_volume:
            n = args.size
            src = os.path.join(work, "in.zarr")
            t, _ = timed(lambda: write_volume(src, n, args.chunks))
            print(f"wrote {n}^3 float32 to {src} in {t:.1f} s", flush=True)
            # The floor of any chunked blur on this cluster: the store read, decompressed, compressed
            # and written again with no filter at all.
            copy = os.path.join(work, "copy.zarr")
            t_copy, _ = timed(lambda: da.from_zarr(src).to_zarr(copy, overwrite=True))
            shutil.rmtree(copy)
            print(f"zarr to zarr copy (no filter) {t_copy:.2f} s", flush=True)
            a = zarr.open_array(src, mode="r")[...]
            for sigma in args.sigmas:
                algorithm = fastblur.plan(a.shape, sigma)["algorithm"]
                t_single, single = timed(lambda: fastblur.gaussian_filter(a, sigma))
                dst = os.path.join(work, f"fastblur_{sigma:g}.zarr")
                t_fb, _ = timed(lambda: fbd.blur_zarr(src, dst, sigma, overwrite=True))
                out = zarr.open_array(dst, mode="r")
                # fir: bit-identical to the one call; what the planner takes instead at tolerance 0
                # (sliding-dct fitted to fir, fft) agrees with fir within 1e-5 of the peak.
                step = args.chunks[0]
                err = max(float(np.max(np.abs(out[s:s + step] - single[s:s + step]))) for s in range(0, n, step))
                same = err == 0.0
                if err > (0.0 if algorithm == "fir" else 1e-5 * float(np.max(np.abs(single)))):
                    failures.append(f"sigma {sigma}: dask result differs from one call by {err}")
                row = dict(n=n, sigma=sigma, algorithm=algorithm, single=t_single, fb=t_fb, same=same, err=err, copy=t_copy)
                if not args.no_scipy:
                    depth = int(4 * sigma + 0.5)
                    dst2 = os.path.join(work, f"scipy_{sigma:g}.zarr")
                    x = da.from_zarr(src)
                    y = x.map_overlap(nd.gaussian_filter, depth=depth, boundary="reflect", sigma=sigma, dtype=x.dtype)
                    t_sp, _ = timed(lambda: y.to_zarr(dst2, overwrite=True))
                    # Away from the borders (where dask's 'reflect' padding is not scipy's) the two agree.
                    c = slice(depth, n - depth)
                    diff = float(np.max(np.abs(zarr.open_array(dst2, mode="r")[c, c, c] - single[c, c, c])))
                    row.update(scipy=t_sp, diff=diff)
                    if diff > 1e-4:
                        failures.append(f"sigma {sigma}: scipy's interior differs from fastblur's by {diff}")
                    shutil.rmtree(dst2)
                shutil.rmtree(dst)
                rows.append(row)
                msg = (f"{n}^3 sigma {sigma:g} ({algorithm}): fastblur dask {t_fb:.2f} s, single process in memory "
                       f"{t_single:.2f} s (dask/single {t_fb / t_single:.2f}x), identical to one call: {same} (max diff {err:.1e})")
                if "scipy" in row:
                    msg += (f"; dask + scipy {row['scipy']:.2f} s ({row['scipy'] / t_fb:.1f}x fastblur's), "
                            f"interior max diff {row['diff']:.1e}")
                print(msg, flush=True)
                del single
            del a
            shutil.rmtree(src)
        if args.big:
            n = args.big
            src, dst = os.path.join(work, "big_in.zarr"), os.path.join(work, "big_out.zarr")
            t, _ = timed(lambda: write_volume(src, n, args.chunks))
            stored = sum(os.path.getsize(os.path.join(src, f)) for f in os.listdir(src))
            print(f"wrote {n}^3 float32 ({fmt_gib(4 * n**3)}, {fmt_gib(stored)} stored) in {t:.1f} s", flush=True)
            client.restart()  # peak memory from here on
            sigma = args.sigmas[0]
            t_big, _ = timed(lambda: fbd.blur_zarr(src, dst, sigma, overwrite=True))
            me = psutil.Process()
            workers = client.run(os.getpid)
            nannies = {psutil.Process(pid).ppid() for pid in workers.values()}
            peaks = [(p.pid, "dask worker" if p.pid in workers.values() else "nanny" if p.pid in nannies else
                      "helper: " + " ".join(p.cmdline())[:60], peak_rss(p.pid)) for p in me.children(recursive=True)]
            peaks.append((me.pid, "client + scheduler", peak_rss(me.pid)))
            worker_peaks = [peak_rss(pid) for pid in workers.values()]
            stored_out = sum(os.path.getsize(os.path.join(dst, f)) for f in os.listdir(dst))
            ok = fbd.is_complete(dst)
            # A slab of the result against one call on the slab with its halo (exact: fir by default).
            z0 = n // 2
            r = int(4 * sigma + 0.5)
            slab = zarr.open_array(src, mode="r")[z0 - r:z0 + r + 1]
            want = fastblur.gaussian_filter(slab, (sigma, sigma, sigma))[r]
            same = bool(np.array_equal(zarr.open_array(dst, mode="r")[z0], want))
            print(f"{n}^3 sigma {sigma:g} zarr to zarr: {t_big:.1f} s ({4 * n**3 / t_big / 2**20:.0f} MiB/s), output "
                  f"{fmt_gib(stored_out)} stored, complete {ok}, middle slice identical to a direct call: {same}")
            for pid, name, b in peaks:
                print(f"  peak RSS pid {pid} {name}: {fmt_gib(b)}")
            print(f"  peak RSS per worker: max {fmt_gib(max(worker_peaks))}", flush=True)
            if not (ok and same):
                failures.append("the large volume is incomplete or differs")
            shutil.rmtree(src)
            shutil.rmtree(dst)
    finally:
        client.close()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    if rows:
        print("\n| volume | sigma | algorithm | fastblur dask (s) | dask + scipy (s) | scipy / fastblur | "
              "single process in memory (s) | dask / single | zarr copy, no filter (s) |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for r in rows:
            sp = f"{r['scipy']:.2f} | {r['scipy'] / r['fb']:.1f}x" if "scipy" in r else "- | -"
            print(f"| {r['n']}^3 float32 | {r['sigma']:g} | {r['algorithm']} | {r['fb']:.2f} | {sp} | "
                  f"{r['single']:.2f} | {r['fb'] / r['single']:.2f}x | {r['copy']:.2f} |")
    for f in failures:
        print("FAILED:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
