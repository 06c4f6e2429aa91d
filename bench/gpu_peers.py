#!/usr/bin/env python3
"""fastblur's Vulkan backend against the GPU peers, side by side in one run: CuPy's
cupyx.scipy.ndimage.gaussian_filter and torchvision's transforms.functional.gaussian_blur.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/gpu_peers.py [--quick] [--repeat N] [--device vulkan:0]

Cases: the seed grid's kernel sizes 7/35/127 and sigma 20/50 (sigma = (k - 1) / 6, radius
int(4 sigma + 0.5) for every library) on 1920x1080 and 3840x2160 RGBA float32, and 256^3 / 512^3
float32 volumes at sigma 1, 4, 16. Times are medians in milliseconds, end to end from host memory
to host memory for every library (fastblur's host API uploads, blurs and downloads), plus the
peers' device-only times (CUDA events, data already on the GPU). Ratios are peer / fastblur on the
same end-to-end footing. A peer that is not installed is reported as such, not skipped silently.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def median_ms(fn, repeat):
    fn()  # warm-up: pipelines, CUDA contexts, plans
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def warm_up(cupy, torch, seconds):
    """Device copies until `seconds` have passed, so the first case does not start at the idle clock."""
    if seconds <= 0:
        return
    end = time.perf_counter() + seconds
    if cupy is not None:
        a = cupy.empty(1 << 28, dtype=cupy.uint8)
        while time.perf_counter() < end:
            for _ in range(20):
                b = a.copy()
            cupy.cuda.Device().synchronize()
        del a, b
    elif torch is not None:
        a = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
        while time.perf_counter() < end:
            for _ in range(20):
                b = a.clone()
            torch.cuda.synchronize()
        del a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--device", default="vulkan")
    ap.add_argument("--quick", action="store_true", help="small images, one repeat: check that it runs")
    ap.add_argument("--jsonl", help="also write each case as one JSON line to this file")
    ap.add_argument("--warm", type=float, default=2.0,
                    help="seconds of device copies before the first case, so the GPU's clock is steady (CuPy or torch)")
    args = ap.parse_args()

    import fastblur
    peers = {}
    try:
        import cupy
        import cupyx.scipy.ndimage as cnd
        peers["cupy"] = cupy.__version__
    except Exception as e:  # noqa: BLE001 - report why, whatever it is
        cupy = None
        print(f"cupy: not available ({type(e).__name__}: {e})")
    try:
        import torch
        import torchvision.transforms.functional as tvf
        if not torch.cuda.is_available():
            raise RuntimeError("torch sees no CUDA device")
        peers["torchvision"] = torch.__version__
    except Exception as e:  # noqa: BLE001
        torch = None
        print(f"torchvision: not available ({type(e).__name__}: {e})")

    gpus = [d for d in fastblur.devices() if d["name"].startswith("vulkan:")]
    print(f"fastblur {fastblur.__version__} on {args.device}: "
          + (", ".join(f"{d['name']} {d['device_name']}" for d in gpus) or "no Vulkan device"))
    print("peers: " + (", ".join(f"{k} {v}" for k, v in peers.items()) or "none installed"))
    if not gpus:
        print("no Vulkan device: nothing to measure")
        return 77  # ctest's skip code

    rng = np.random.default_rng(1)
    if args.quick:
        images = [("64x48 RGBA32F", rng.random((48, 64, 4), dtype=np.float32), 2)]
        volumes = [("16^3 R32F", rng.random((16, 16, 16), dtype=np.float32))]
        kernels = [("k7", 1.0)]
        vol_sigmas = [1.0]
        args.repeat = 1
    else:
        images = [("1920x1080 RGBA32F", rng.random((1080, 1920, 4), dtype=np.float32), 2),
                  ("3840x2160 RGBA32F", rng.random((2160, 3840, 4), dtype=np.float32), 2)]
        volumes = [(f"{n}^3 R32F", rng.random((n, n, n), dtype=np.float32)) for n in (256, 512)]
        kernels = [("k7", 1.0), ("k35", 34 / 6), ("k127", 21.0), ("s50", 50.0)]
        vol_sigmas = [1.0, 4.0, 16.0]

    warm_up(cupy, torch, args.warm)
    jsonl = open(args.jsonl, "a") if args.jsonl else None
    header = ["case", "fastblur ms", "cupy ms", "cupy dev ms", "torchvision ms", "torch dev ms", "cupy/fb", "torch/fb"]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |")

    def row(name, host, sigmas, spatial_axes):
        cells = {}
        cells["fastblur ms"] = median_ms(lambda: fastblur.gaussian_filter(host, sigmas, device=args.device), args.repeat)
        if cupy is not None:
            def cupy_e2e():
                out = cnd.gaussian_filter(cupy.asarray(host), sigmas)
                return cupy.asnumpy(out)
            cells["cupy ms"] = median_ms(cupy_e2e, args.repeat)
            dev = cupy.asarray(host)
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()

            def cupy_dev():
                start.record()
                cnd.gaussian_filter(dev, sigmas)
                stop.record()
                stop.synchronize()
                return cupy.cuda.get_elapsed_time(start, stop)
            cupy_dev()
            cells["cupy dev ms"] = statistics.median(cupy_dev() for _ in range(args.repeat))
        if torch is not None and spatial_axes == 2:
            sigma = sigmas[0]
            k = 2 * int(4 * sigma + 0.5) + 1

            def torch_e2e():
                t = torch.from_numpy(host).permute(2, 0, 1).unsqueeze(0).cuda()
                out = tvf.gaussian_blur(t, [k, k], [sigma, sigma])
                return out.squeeze(0).permute(1, 2, 0).cpu().numpy()
            cells["torchvision ms"] = median_ms(torch_e2e, args.repeat)
            dev = torch.from_numpy(host).permute(2, 0, 1).unsqueeze(0).cuda()
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

            def torch_dev():
                start.record()
                tvf.gaussian_blur(dev, [k, k], [sigma, sigma])
                stop.record()
                torch.cuda.synchronize()
                return start.elapsed_time(stop)
            torch_dev()
            cells["torch dev ms"] = statistics.median(torch_dev() for _ in range(args.repeat))
        out = [name]
        for col in header[1:6]:
            out.append(f"{cells[col]:.2f}" if col in cells else "-")
        for col in ("cupy ms", "torchvision ms"):
            out.append(f"{cells[col] / cells['fastblur ms']:.2f}" if col in cells else "-")
        print("| " + " | ".join(out) + " |", flush=True)
        if jsonl:
            jsonl.write(json.dumps({"name": name, **{k.replace(" ", "_"): round(v, 4) for k, v in cells.items()}}) + "\n")
            jsonl.flush()

    for name, img, _ in images:
        for kname, sigma in kernels:
            row(f"{name} {kname}", img, (sigma, sigma, 0), 2)
    for name, vol in volumes:
        for sigma in vol_sigmas:
            row(f"{name} s{sigma:g}", vol, sigma, 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
