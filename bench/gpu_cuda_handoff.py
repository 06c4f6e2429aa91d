#!/usr/bin/env python3
"""Issue 46 on a lent GPU: what ordering a CUDA-array call with the caller's stream costs, handoff by
handoff (the plan's CudaHandoff: fastblur/cuda.hpp), each in a process of its own (the handoff is
chosen once per device and process; FASTBLUR_CUDA_HANDOFF / FASTBLUR_CUDA_HOST_WAITS pick it).
Medians of CUDA-event times on the caller's stream, with a device clone of the same tensor (the
copy's cost) and the host's wall time of the call. One JSON line per handoff and case.

Usage (the GPU machine, bench/gpu_machine.sh's `handoff` step):
    PYTHONPATH=<module> python3 bench/gpu_cuda_handoff.py
"""
import json
import os
import subprocess
import sys
import textwrap

CASES = textwrap.dedent("""
    import json, statistics, sys, time, torch, fastblur
    from fastblur import _core
    def event_ms(fn, repeat=40):
        for _ in range(5): fn()
        torch.cuda.synchronize()
        times, walls = [], []
        for _ in range(repeat):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); t = time.perf_counter(); fn(); walls.append((time.perf_counter() - t) * 1e3); b.record()
            b.synchronize(); times.append(a.elapsed_time(b))
        return statistics.median(times), statistics.median(walls)
    a = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        a.clone(); torch.cuda.synchronize()
    for name, shape, sigma in (("1x3x256x256 s2", (1, 3, 256, 256), (0, 0, 2.0, 2.0)),
                               ("1x3x1080x1920 s2", (1, 3, 1080, 1920), (0, 0, 2.0, 2.0)),
                               ("4K RGBA32F k7", (2160, 3840, 4), (1.0, 1.0, 0))):
        x = torch.rand(shape, device="cuda")
        out = torch.empty_like(x)
        call, wall = event_ms(lambda: fastblur.gaussian_filter(x, sigma, mode="mirror", truncate=3.0, output=out))
        copy, _ = event_ms(lambda: out.copy_(x))
        t = _core.cuda_last_timing()
        print(json.dumps({"handoff": _core.cuda_handoff(0)["handoff"], "case": name, "call_ms": round(call, 4),
                          "host_wall_ms": round(wall, 4), "copy_ms": round(copy, 4), "device_ms": round(t["device_ms"], 4)}),
              flush=True)
""")

VARIANTS = [("semaphores", {}), ("host-then-semaphore", {"FASTBLUR_CUDA_HANDOFF": "host-then-semaphore"}),
            ("semaphore-then-host", {"FASTBLUR_CUDA_HANDOFF": "semaphore-then-host"}),
            ("host-waits", {"FASTBLUR_CUDA_HOST_WAITS": "1"})]


def main():
    failed = 0
    for name, env in VARIANTS:
        try:
            p = subprocess.run([sys.executable, "-c", CASES], env=dict(os.environ, **env), capture_output=True, text=True,
                               timeout=60)
            lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
            for l in lines:
                print(l, flush=True)
            if p.returncode != 0 or not lines:
                failed += 1
                print(json.dumps({"handoff": name, "error": (p.stdout + p.stderr)[-600:]}), flush=True)
        except subprocess.TimeoutExpired:
            failed += 1
            print(json.dumps({"handoff": name, "error": "timed out after 60 s"}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
