#!/usr/bin/env python3
"""The Python layer's share of a CUDA-array call, measured without a GPU: a small array through the
stand-in CUDA driver (tests/python/fake_cuda_driver.cpp) on lavapipe, each call's wall time less
the C++ call's own (`_core.cuda_last_timing()['total_ms']`), median of 300; with --profile, where
it goes (cProfile).

  PYTHONPATH=build/python FASTBLUR_FAKE_CUDA_DRIVER=$PWD/build/tests/libfake_cuda_driver.so \\
      /usr/bin/python3 bench/cuda_python_overhead.py [--profile]
"""
import os
import statistics
import sys
import time

import numpy as np

os.environ["FASTBLUR_CUDA_DRIVER"] = os.environ["FASTBLUR_FAKE_CUDA_DRIVER"]
import fastblur  # noqa: E402
from fastblur import _core  # noqa: E402

os.environ["FASTBLUR_FAKE_CUDA_UUID"] = next(d["uuid"] for d in fastblur.devices() if d["name"].startswith("vulkan"))


class CudaArray:  # as tests/python/test_foreign_arrays.py's: host memory the stand-in driver calls device memory
    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return {"data": (self.a.ctypes.data, False), "shape": self.a.shape, "typestr": self.a.dtype.str,
                "strides": None, "version": 3}

    def __setitem__(self, key, value):
        self.a[key] = value.a if isinstance(value, CudaArray) else value


x = CudaArray(np.random.default_rng(0).random((32, 32, 4), dtype=np.float32))
out = CudaArray(np.empty_like(x.a))
for _ in range(20):
    fastblur.gaussian_filter(x, (1.0, 1.0, 0), output=out)
python_ms = []
for _ in range(300):
    t = time.perf_counter()
    fastblur.gaussian_filter(x, (1.0, 1.0, 0), output=out)
    python_ms.append((time.perf_counter() - t) * 1e3 - _core.cuda_last_timing()["total_ms"])
print(f"Python's share of a call: median {statistics.median(python_ms):.3f} ms, least {min(python_ms):.3f} ms")
if "--profile" in sys.argv:
    import cProfile
    import pstats
    cProfile.run("for _ in range(300): fastblur.gaussian_filter(x, (1.0, 1.0, 0), output=out)", "/tmp/cuda_python.prof")
    pstats.Stats("/tmp/cuda_python.prof").sort_stats("tottime").print_stats(15)
