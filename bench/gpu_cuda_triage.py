#!/usr/bin/env python3
"""A CUDA-array call taken apart on a lent GPU when bench/gpu_cuda_arrays.py fails: each variant in
a process of its own (a failed CUDA call poisons its context), one line each - PASS or FAIL with the
error's last words, the handoff and the plan's reading of the buffers.

Usage (the GPU machine, bench/gpu_machine.sh's `triage` step):
    PYTHONPATH=<module> python3 bench/gpu_cuda_triage.py
"""
import os
import subprocess
import sys
import textwrap

CALL = textwrap.dedent("""
    import os, sys, numpy as np, torch, fastblur
    from fastblur import _core
    kind, dtype, shape, sigma = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4])
    g = torch.Generator().manual_seed(46)
    host = (torch.rand(shape, generator=g) * (255 if dtype == "uint8" else 1)).to(getattr(torch, dtype)).numpy()
    if os.environ.get("HOST_FIRST", "1") == "1":
        want = fastblur.gaussian_filter(host, sigma, device="vulkan")
    if kind == "cupy":
        import cupy
        x = cupy.asarray(host)
    else:
        x = torch.from_numpy(host).cuda()
    torch.cuda.synchronize()
    r = fastblur.gaussian_filter(x, sigma)
    if os.environ.get("SYNC_AFTER") == "1":
        torch.cuda.synchronize()
        print("synchronized after the call", flush=True)
    got = cupy.asnumpy(r) if kind == "cupy" else r.cpu().numpy()
    if os.environ.get("HOST_FIRST", "1") != "1":
        want = fastblur.gaussian_filter(host, sigma, device="vulkan")
    ran = _core.last_run()
    print("RESULT", np.array_equal(got, want), float(np.abs(got.astype(np.float64) - want).max()),
          _core.cuda_handoff(0)["handoff"], ran.get("gpu_io"), ran.get("cuda_handoff"), flush=True)
""")

VARIANTS = [
    ("torch float32 96x128x4", {}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch float32, host waits", {"FASTBLUR_CUDA_HOST_WAITS": "1"}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch float32, launch blocking", {"CUDA_LAUNCH_BLOCKING": "1"}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch float32, synchronized after", {"SYNC_AFTER": "1"}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch float32, validation", {"FASTBLUR_VULKAN_VALIDATION": "1"}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch float32, no host path first", {"HOST_FIRST": "0"}, ("torch", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
    ("torch uint8 (converted)", {}, ("torch", "uint8", "(77, 131)", "2.0")),
    ("torch uint8, host waits", {"FASTBLUR_CUDA_HOST_WAITS": "1"}, ("torch", "uint8", "(77, 131)", "2.0")),
    ("cupy float32", {}, ("cupy", "float32", "(96, 128, 4)", "(5.0, 5.0, 0)")),
]


def main():
    failed = 0
    for name, env, args in VARIANTS:
        try:
            p = subprocess.run([sys.executable, "-c", CALL, *args], env=dict(os.environ, **env), capture_output=True,
                               text=True, timeout=60)
            out = p.stdout + p.stderr
            result = [l for l in p.stdout.splitlines() if l.startswith("RESULT")]
            ok = p.returncode == 0 and result and result[0].split()[1] == "True"
            tail = " | ".join(l for l in out.strip().splitlines()[-6:] if l.strip())[-700:]
            print(f"{'PASS' if ok else 'FAIL'} {name}: rc={p.returncode} {result[0] if result else ''} {'' if ok else tail}",
                  flush=True)
            failed += not ok
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: timed out after 60 s", flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
