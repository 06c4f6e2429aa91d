"""Arrays of other libraries (issue 30; fastblur/_foreign_arrays.py, python/src/dlpack_arrays.cpp).

CPU memory through DLPack: Debian's PyTorch tensors and a minimal DLPack producer, read and written
in place, the result of the caller's library. CUDA memory: the whole path of fastblur/cuda.hpp run
on lavapipe through a stand-in CUDA driver (tests/python/fake_cuda_driver.cpp, whose "device
memory" is host memory and which maps lavapipe's exported allocations), so the copies, the
Vulkan buffer CUDA maps, pooling, layouts and refusals are tested without a GPU. Random data: the
seed is printed."""
import ctypes
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import fastblur
from fastblur import _core

SEED = int.from_bytes(os.urandom(4), "little")
print(f"test_foreign_arrays seed {SEED}")


def rng():
    return np.random.default_rng(SEED)


# ---------------------------------------------------------------------------------------------
# CPU memory through DLPack


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.uint8, torch.int16])
def test_torch_cpu_tensors_give_the_numpy_bits_as_torch_tensors(dtype):
    a = rng().integers(0, 200, (23, 31, 3)).astype(torch.empty(0, dtype=dtype).numpy().dtype)
    t = torch.from_numpy(a.copy())
    r = fastblur.gaussian_filter(t, (2.5, 1.5, 0))
    assert isinstance(r, torch.Tensor) and r.dtype == dtype
    assert np.array_equal(r.numpy(), fastblur.gaussian_filter(a, (2.5, 1.5, 0)))
    assert torch.equal(t, torch.from_numpy(a)), "the input was written"
    r1 = fastblur.gaussian_filter1d(t, 3.0, axis=0, mode="wrap")
    assert isinstance(r1, torch.Tensor) and np.array_equal(r1.numpy(), fastblur.gaussian_filter1d(a, 3.0, axis=0, mode="wrap"))


def test_torch_cpu_views_outputs_and_in_place_share_the_callers_memory():
    a = rng().random((40, 52), dtype=np.float32)
    t = torch.from_numpy(a.copy())
    for view, host in ((t[:, ::2], a[:, ::2]), (t.T, a.T), (t[3:30, 5:], a[3:30, 5:])):
        assert np.array_equal(fastblur.gaussian_filter(view, 2.0).numpy(), fastblur.gaussian_filter(host, 2.0))
    out = torch.zeros(40, 52)
    r = fastblur.gaussian_filter(t, 2.0, output=out)
    assert r is out and np.array_equal(out.numpy(), fastblur.gaussian_filter(a, 2.0))
    strided_out = torch.zeros(40, 104)[:, ::2]
    fastblur.gaussian_filter(t, 2.0, output=strided_out)
    assert np.array_equal(strided_out.numpy(), fastblur.gaussian_filter(a, 2.0))
    pointer = t.data_ptr()
    r = fastblur.gaussian_filter(t, 2.0, output=t)
    assert r is t and t.data_ptr() == pointer and np.array_equal(t.numpy(), fastblur.gaussian_filter(a, 2.0))
    result = fastblur.gaussian_filter(torch.from_numpy(a), 1.0, tolerance=1e-3, algorithm="auto")
    assert np.array_equal(result.numpy(), fastblur.gaussian_filter(a, 1.0, tolerance=1e-3))


def test_the_gaussian_family_takes_cpu_tensors():
    a = rng().random((30, 26))
    t = torch.from_numpy(a.copy())
    for f in (fastblur.gaussian_laplace, fastblur.gaussian_gradient_magnitude):
        r = f(t, 1.7)
        assert isinstance(r, torch.Tensor) and np.array_equal(r.numpy(), f(a, 1.7))


class Producer:
    """Any library's CPU array that offers only DLPack (here over a NumPy array)."""

    def __init__(self, a, device=(1, 0)):
        self.a, self.device = a, device

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.device


def from_dlpack(x):  # this module is Producer's library: results come back through it
    return Producer(np.from_dlpack(x))


def test_any_cpu_dlpack_producer_gets_its_own_kind_back():
    a = rng().random((19, 21), dtype=np.float32)
    r = fastblur.gaussian_filter(Producer(a), 1.3)
    assert isinstance(r, Producer) and np.array_equal(r.a, fastblur.gaussian_filter(a, 1.3))


def test_dlpack_refusals_say_what_is_missing():
    with pytest.raises(ValueError, match="bfloat16"):
        fastblur.gaussian_filter(torch.zeros(5, 5, dtype=torch.bfloat16), 1.0)
    with pytest.raises(ValueError, match="ROCm"):
        fastblur.gaussian_filter(Producer(np.zeros((4, 4)), device=(10, 0)), 1.0)
    capsule = np.zeros((3, 3)).__dlpack__()
    _core.import_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed already"):
        _core.import_dlpack(capsule)
    with pytest.raises(RuntimeError, match="grad"):  # torch's own refusal, one line
        fastblur.gaussian_filter(torch.zeros(4, 4, requires_grad=True), 1.0)


# ---------------------------------------------------------------------------------------------
# CUDA memory, through the stand-in driver on lavapipe

FAKE = os.environ.get("FASTBLUR_FAKE_CUDA_DRIVER")
needs_fake = pytest.mark.skipif(not FAKE, reason="a build without Vulkan: no stand-in CUDA driver (FASTBLUR_FAKE_CUDA_DRIVER)")


def lavapipe_uuid():
    return next(d["uuid"] for d in fastblur.devices() if d["name"].startswith("vulkan"))


if FAKE:
    os.environ["FASTBLUR_CUDA_DRIVER"] = FAKE  # read on the first CUDA call, which this module makes
    os.environ["FASTBLUR_FAKE_CUDA_UUID"] = lavapipe_uuid()
    fake = ctypes.CDLL(FAKE)  # the same library fastblur opens: its counters


class CudaArray:
    """A CUDA array as a library hands one over: __cuda_array_interface__, item assignment."""

    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return {"data": (self.a.ctypes.data, False), "shape": self.a.shape, "typestr": self.a.dtype.str,
                "strides": None if self.a.flags.c_contiguous else self.a.strides, "version": 3}

    def __setitem__(self, key, value):
        self.a[key] = value.a if isinstance(value, CudaArray) else value


def empty_like(x):  # this module is CudaArray's library
    return CudaArray(np.empty_like(x.a))


def on_gpu(a, sigma, **kw):
    """The host path on the same Vulkan device: what the CUDA path must equal bit for bit."""
    return fastblur.gaussian_filter(a, sigma, device="vulkan", **kw)


@needs_fake
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float16, np.float32])
@pytest.mark.parametrize("shape,sigma", [((37, 53), 2.0), ((29, 41, 4), (3.0, 1.5, 0)), ((1, 77), 1.2),
                                         ((11, 13, 17), 1.5)])
def test_cuda_arrays_give_the_host_paths_bits(dtype, shape, sigma):
    a = (rng().random(shape) * (200 if np.dtype(dtype).kind == "u" else 1)).astype(dtype)
    r = fastblur.gaussian_filter(CudaArray(a.copy()), sigma)
    assert isinstance(r, CudaArray) and r.a.dtype == dtype
    assert np.array_equal(r.a, on_gpu(a, sigma))


@needs_fake
@pytest.mark.parametrize("algorithm", [a["name"] for a in fastblur.algorithms()
                                       if a["name"] not in ("auto", "correlate")])
def test_every_algorithm_on_cuda_arrays_equals_its_host_run(algorithm):
    a = rng().random((48, 64, 4), dtype=np.float32)
    kw = dict(algorithm=algorithm, tolerance=0.05 if algorithm != "fir" else 0.0)
    for mode in ("reflect", "nearest", "wrap", "mirror", "constant"):
        try:
            want = on_gpu(a, (4.0, 4.0, 0), mode=mode, **kw)
        except (NotImplementedError, ValueError) as e:  # the host path refuses: so must the CUDA one
            with pytest.raises(type(e)):
                fastblur.gaussian_filter(CudaArray(a.copy()), (4.0, 4.0, 0), mode=mode, **kw)
            continue
        r = fastblur.gaussian_filter(CudaArray(a.copy()), (4.0, 4.0, 0), mode=mode, **kw)
        assert np.array_equal(r.a, want), (algorithm, mode)


@needs_fake
def test_cuda_batches_layouts_outputs_and_in_place():
    g = rng()
    batch = g.random((5, 3, 24, 20), dtype=np.float32)
    r = fastblur.gaussian_filter(CudaArray(batch.copy()), (0, 0, 2.0, 2.0))
    for n in range(5):
        for c in range(3):
            assert np.array_equal(r.a[n, c], on_gpu(batch[n, c], 2.0))
    a = g.random((40, 60), dtype=np.float32)
    for view in (a.T, a[5:33, 7:50], a[::2], a[:, ::2]):  # transposed, pitched rows, every other row, a copy first
        assert np.array_equal(fastblur.gaussian_filter(CudaArray(view), 1.5).a, on_gpu(view, 1.5))
    out = np.zeros((40, 60), np.float32)
    r = fastblur.gaussian_filter(CudaArray(a), 1.5, output=CudaArray(out))
    assert np.array_equal(out, on_gpu(a, 1.5))
    wide = np.zeros((40, 120), np.float32)
    fastblur.gaussian_filter(CudaArray(a), 1.5, output=CudaArray(wide[:, ::2]))  # an output the core cannot copy into
    assert np.array_equal(wide[:, ::2], on_gpu(a, 1.5)) and not wide[:, 1::2].any()
    b = a.copy()
    fastblur.gaussian_filter(CudaArray(b), 1.5, output=CudaArray(b))
    assert np.array_equal(b, on_gpu(a, 1.5))
    r1 = fastblur.gaussian_filter1d(CudaArray(a), 2.0, axis=0)
    assert np.array_equal(r1.a, fastblur.gaussian_filter1d(a, 2.0, axis=0, device="vulkan"))
    u8 = (g.random((30, 30)) * 255).astype(np.uint8)
    out32 = np.zeros((30, 30), np.float32)
    fastblur.gaussian_filter(CudaArray(u8), 2.0, output=CudaArray(out32))
    assert np.array_equal(out32, fastblur.gaussian_filter(u8, 2.0, output=np.float32, device="vulkan"))


@needs_fake
def test_the_hundredth_call_imports_nothing_and_copies_once_each_way():
    a = rng().random((64, 64, 4), dtype=np.float32)
    ring = _core.cuda_handoff(0)["ring"]  # the buffers calls rotate through
    for _ in range(ring):
        fastblur.gaussian_filter(CudaArray(a), (2.0, 2.0, 0))
    imports, live = _core.cuda_imports(), fake.fake_cuda_live_imports()
    copies = fake.fake_cuda_copies()
    for _ in range(100):
        fastblur.gaussian_filter(CudaArray(a), (2.0, 2.0, 0))
    assert _core.cuda_imports() == imports and fake.fake_cuda_live_imports() == live == ring
    assert fake.fake_cuda_copies() - copies == 200  # one copy in and one out a call
    fastblur.gaussian_filter(CudaArray(np.zeros((300, 300, 4), np.float32)), (2.0, 2.0, 0))  # larger: replaced
    assert _core.cuda_imports() == imports + 1 and fake.fake_cuda_live_imports() == ring


@needs_fake
def test_cuda_calls_are_ordered_by_shared_semaphores_and_return_at_once():
    """The stand-in layer exports lavapipe's timeline semaphores, as NVIDIA's driver does: the plan
    says so, and calls on a stream that runs late (the stand-in's asynchronous mode) queue their
    work and return; every result is its own."""
    assert _core.cuda_handoff(0)["handoff"] == "semaphores", _core.cuda_handoff(0)
    g = rng()
    arrays = [g.random((40 + i, 52, 4), dtype=np.float32) for i in range(5)]
    want = [on_gpu(a, (2.0, 2.0, 0)) for a in arrays]
    outs = [CudaArray(np.zeros_like(a)) for a in arrays]
    fake.fake_cuda_synchronize()
    os.environ["FASTBLUR_FAKE_CUDA_ASYNC_US"] = "5000"
    try:
        for a, out in zip(arrays, outs):
            fastblur.gaussian_filter(CudaArray(a), (2.0, 2.0, 0), output=out)
        assert _core.last_run()["cuda_handoff"] == "semaphores" and _core.last_run()["gpu_io"] == "direct"
    finally:
        fake.fake_cuda_synchronize()
        del os.environ["FASTBLUR_FAKE_CUDA_ASYNC_US"]
    for out, w in zip(outs, want):
        assert np.array_equal(out.a, w)


@needs_fake
def test_without_exported_semaphores_the_host_waits_and_the_plan_says_so():
    p = run_alone({"FASTBLUR_CUDA_HOST_WAITS": "1"}, CALL + """
    from fastblur import _core
    print(_core.cuda_handoff(0)["handoff"], _core.last_run()["cuda_handoff"], _core.cuda_handoff(0)["ring"])
    """)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert lines[0].startswith("ran ") and float(lines[0].split()[1]) < 1e-6, p.stdout
    assert lines[1] == "host-waits host-waits 1", p.stdout


@needs_fake
def test_a_repeated_call_runs_its_prepared_core_call(monkeypatch):
    """The second call of a signature (arrays' kind, shapes, strides, dtypes, device; every argument)
    is laid out and planned no more: it runs the first call's prepared core call, with its bits;
    another shape, dtype, argument or argument type prepares anew; a refused call stays refused."""
    prepared = []
    real = _core.prepare_cuda_axes
    monkeypatch.setattr(_core, "prepare_cuda_axes", lambda *a: prepared.append(a) or real(*a))
    g = rng()
    a = g.random((3, 36, 44), dtype=np.float32)
    want = on_gpu(a, (0, 2.0, 2.0))
    for _ in range(5):
        r = fastblur.gaussian_filter(CudaArray(a), (0, 2.0, 2.0))  # a new output each time
        assert isinstance(r, CudaArray) and np.array_equal(r.a, want)
    assert len(prepared) == 1
    out = CudaArray(np.zeros_like(a))
    for _ in range(3):
        fastblur.gaussian_filter(CudaArray(a), (0, 2.0, 2.0), output=out)
        assert np.array_equal(out.a, want)
    assert len(prepared) == 2  # given an output: another signature, prepared once
    b = a.copy()
    for _ in range(2):
        b[...] = a
        fastblur.gaussian_filter(CudaArray(b), (0, 2.0, 2.0), output=CudaArray(b))  # in place: the same layout
        assert np.array_equal(b, want)
    assert len(prepared) == 2
    for call in (lambda: fastblur.gaussian_filter(CudaArray(a), (0, 2.0, 3.0)),
                 lambda: fastblur.gaussian_filter(CudaArray(a), (0, 2.0, 2.0), mode="wrap"),
                 lambda: fastblur.gaussian_filter(CudaArray(a.astype(np.float16)), (0, 2.0, 2.0)),
                 lambda: fastblur.gaussian_filter(CudaArray(a[:, ::2]), (0, 2.0, 2.0)),
                 lambda: fastblur.gaussian_filter1d(CudaArray(a), 2.0, axis=1)):
        before = len(prepared)
        call(), call()
        assert len(prepared) == before + 1
    fastblur.gaussian_filter(CudaArray(a), 2.0, order=0)
    with pytest.raises(TypeError):  # order=0.0: SciPy's TypeError, though the equal order=0 ran before
        fastblur.gaussian_filter(CudaArray(a), 2.0, order=0.0)
    for _ in range(2):
        with pytest.raises(ValueError, match="own GPU"):
            fastblur.gaussian_filter(CudaArray(a), 2.0, device="vulkan:7")
    r = fastblur.gaussian_filter(CudaArray(a), [0, 2.0, 2.0])  # a list: its own signature, the same bits
    assert np.array_equal(r.a, want)


@needs_fake
def test_fastblur_holds_the_cuda_context_its_buffers_live_in():
    """NumPy-backed "CUDA" arrays hold no CUDA context (as a PyTorch program before its first CUDA
    tensor): fastblur keeps the primary context it imported its buffers and semaphores into, so
    its next calls find them alive (NVIDIA's driver failed them with an unspecified launch failure
    when the context was released after each call; the stand-in fails them as destroyed)."""
    a = rng().random((30, 40), dtype=np.float32)
    for _ in range(4):
        assert np.array_equal(fastblur.gaussian_filter(CudaArray(a), 1.5).a, on_gpu(a, 1.5))
    assert fake.fake_cuda_context_holders() >= 1


class CountedCudaArray(CudaArray):
    """As a PyTorch or CuPy array: a DLPack device too, and an interface that costs to build."""
    reads = 0

    @property
    def __cuda_array_interface__(self):
        CountedCudaArray.reads += 1
        return CudaArray.__cuda_array_interface__.fget(self)

    def __dlpack_device__(self):
        return (2, 0)


@needs_fake
def test_a_call_builds_each_arrays_cuda_interface_once():
    a = rng().random((40, 50, 4), dtype=np.float32)
    x, out = CountedCudaArray(a.copy()), CountedCudaArray(np.empty_like(a))
    CountedCudaArray.reads = 0
    r = fastblur.gaussian_filter(x, (2.0, 2.0, 0), output=out)
    assert r is out and np.array_equal(out.a, on_gpu(a, (2.0, 2.0, 0)))
    assert CountedCudaArray.reads == 2  # once for the input, once for the output


@needs_fake
def test_a_cuda_calls_time_is_taken_apart():
    fastblur.gaussian_filter(CudaArray(rng().random((96, 128, 4), dtype=np.float32)), (3.0, 3.0, 0))
    t = _core.cuda_last_timing()  # with semaphores, waits for the call's work to read the device's spans
    host = ("copy_in_wait_ms", "plan_ms", "record_ms", "run_ms")
    assert t["handoff"] == "semaphores"
    assert all(t[k] >= 0 for k in t if k != "handoff") and t["record_ms"] > 0 and t["run_ms"] > 0
    assert sum(t[k] for k in host) <= t["total_ms"]
    assert t["copy_in_wait_ms"] == 0  # nothing waited for on the host
    # The device's spans (lavapipe has timestamps): float32 is read and written where it lies.
    assert t["algorithm_ms"] > 0 and t["convert_in_ms"] + t["algorithm_ms"] + t["convert_out_ms"] <= t["device_ms"]


@needs_fake
def test_the_cuda_plan_is_the_plan_run():
    a = CudaArray(rng().random((50, 70), dtype=np.float32))
    for tolerance in (0.0, 1e-2):
        fastblur.gaussian_filter(a, 6.0, tolerance=tolerance)
        ran = _core.last_run()
        iface = a.__cuda_array_interface__
        args = fastblur._requests([(0, 6.0, 0, "reflect", 24), (1, 6.0, 0, "reflect", 24)])  # the call's, as it made them
        planned = _core.plan_cuda_axes(iface, iface, 0, *args, 0.0, 4.0, "auto", tolerance, {}, "scipy")
        assert ran["algorithm"] == planned["algorithm"]
        assert {k: ran[k] for k in planned["schedule"]} == planned["schedule"]
        assert planned["schedule"]["gpu_io"] == "direct" and planned["schedule"]["cuda_handoff"] == "semaphores"
        # fastblur.plan for that shape on that GPU's Vulkan device is the same plan, but for the two
        # keys of a CUDA array's buffers (read where they lie, ordered with the caller's stream)
        public = fastblur.plan((50, 70), 6.0, dtype="float32", device="vulkan", tolerance=tolerance)
        cuda_only = {"gpu_io", "cuda_handoff"}
        assert public["schedule"]["gpu_io"] == "converted" and public["schedule"]["cuda_handoff"] == "none"
        assert public["algorithm"] == ran["algorithm"]
        assert {k: ran[k] for k in public["schedule"] if k not in cuda_only} == {
            k: v for k, v in public["schedule"].items() if k not in cuda_only}


@needs_fake
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape,sigma,mode", [((37, 53), 2.0, "reflect"), ((29, 41, 3), (3.0, 1.5, 0), "mirror"),
                                              ((11, 13, 17), 1.5, "wrap"), ((40, 31), 2.5, "constant")])
def test_cuda_arrays_with_holes_equal_the_host_paths_normalized_convolution(dtype, shape, sigma, mode):
    # nan_policy='omit' (and preserve_nan) on the array's GPU: the host path's normalized convolution
    # on the same device to float rounding, the same NaN (mode='constant' with cval NaN: the outside
    # is missing); gaussian_filter1d too.
    g = rng()
    a = (g.random(shape) * 10).astype(dtype)
    a[g.random(shape) < 0.12] = np.nan
    a[(slice(2, 9),) * 2] = np.nan  # a block with no valid sample under a small kernel
    kw = dict(mode=mode, cval=np.nan, nan_policy="omit")
    tol = 2e-3 if dtype == np.float16 else 2e-6
    for preserve in (False, True):
        want = on_gpu(a, sigma, preserve_nan=preserve, **kw)
        r = fastblur.gaussian_filter(CudaArray(a.copy()), sigma, preserve_nan=preserve, **kw)
        assert isinstance(r, CudaArray) and r.a.dtype == dtype
        assert np.array_equal(np.isnan(r.a), np.isnan(want))
        ok = ~np.isnan(want)
        np.testing.assert_allclose(r.a[ok].astype(np.float64), want[ok].astype(np.float64), rtol=tol, atol=tol)
    line = fastblur.gaussian_filter1d(CudaArray(a.copy()), 2.0, axis=0, nan_policy="omit")
    want = fastblur.gaussian_filter1d(a, 2.0, axis=0, nan_policy="omit", device="vulkan")
    assert np.array_equal(np.isnan(line.a), np.isnan(want))
    np.testing.assert_allclose(line.a[~np.isnan(want)].astype(np.float64), want[~np.isnan(want)].astype(np.float64),
                               rtol=tol, atol=tol)


@needs_fake
@pytest.mark.parametrize("dtype,shape,mask_dtype,mode", [(np.float32, (37, 53), np.bool_, "reflect"),
                                                         (np.float32, (29, 41, 3), np.float32, "mirror"),
                                                         (np.float16, (31, 27), np.float16, "wrap"),
                                                         (np.uint8, (33, 45, 4), np.bool_, "nearest"),
                                                         (np.float32, (40, 31), np.uint8, "constant")])
def test_cuda_arrays_with_a_mask_equal_the_host_paths_normalized_convolution(dtype, shape, mask_dtype, mode):
    # mask= a CUDA array (flags: True = missing; or certainty weights) on the array's GPU: the host
    # path's normalized convolution with the same mask on the same device, to float rounding (integers
    # within one step), the same empty pixels (NaN, or cval for integer data).
    g = rng()
    a = (g.random(shape) * (200 if np.dtype(dtype).kind == "u" else 10)).astype(dtype)
    flags = mask_dtype in (np.bool_, np.uint8)
    m = g.random(shape) < 0.2 if flags else g.random(shape)
    m[(slice(2, 24),) * 2] = 1 if flags else 0  # a block with no valid sample under the kernel
    m = m.astype(mask_dtype)
    kw = dict(mode=mode, cval=np.nan if mode == "constant" else 5.0)
    want = on_gpu(a, 2.0, mask=m.astype(np.float32) if mask_dtype == np.float16 else m, **kw)
    r = fastblur.gaussian_filter(CudaArray(a.copy()), 2.0, mask=CudaArray(m), **kw)
    assert isinstance(r, CudaArray) and r.a.dtype == dtype
    if np.dtype(dtype).kind == "f":
        assert np.array_equal(np.isnan(r.a), np.isnan(want)) and np.isnan(want).any()
        ok = ~np.isnan(want)
        tol = 2e-3 if dtype == np.float16 else 2e-6
        np.testing.assert_allclose(r.a[ok].astype(np.float64), want[ok].astype(np.float64), rtol=tol, atol=tol)
    else:
        assert np.abs(r.a.astype(int) - want.astype(int)).max() <= 1 and (want == 5).any()


@needs_fake
def test_cuda_arrays_with_holes_refuse_what_the_device_does_not_take():
    a = np.ones((20, 20), np.float32)
    out = np.full((20, 20), 7, np.float32)
    with pytest.raises(TypeError, match="the mask is a CUDA array too"):
        fastblur.gaussian_filter(CudaArray(a), 1.0, mask=np.zeros((20, 20), bool), output=CudaArray(out))
    with pytest.raises(ValueError, match="the mask's shape"):
        fastblur.gaussian_filter(CudaArray(a), 1.0, mask=CudaArray(np.zeros((20, 21), bool)), output=CudaArray(out))
    with pytest.raises(TypeError, match="as the core takes it"):  # float64: this library's mask is taken as it is
        fastblur.gaussian_filter(CudaArray(a), 1.0, mask=CudaArray(np.zeros((20, 20))), output=CudaArray(out))
    with pytest.raises(NotImplementedError, match="constant border of a finite cval"):
        fastblur.gaussian_filter(CudaArray(a), 1.0, mode="constant", cval=2.0, nan_policy="omit", output=CudaArray(out))
    with pytest.raises(ValueError, match="float data"):
        fastblur.gaussian_filter(CudaArray(np.ones((20, 20), np.uint8)), 1.0, nan_policy="omit")
    with pytest.raises(ValueError, match="preserve_nan needs"):
        fastblur.gaussian_filter(CudaArray(a), 1.0, preserve_nan=True)
    assert (out == 7).all()


@needs_fake
def test_cuda_refusals_are_one_line_and_write_nothing():
    a = np.ones((20, 20), np.float64)
    with pytest.raises(NotImplementedError, match="float64 CUDA arrays are not supported .* float32"):
        fastblur.gaussian_filter(CudaArray(a), 1.0)
    out = np.full((20, 20), 7, np.float32)
    with pytest.raises(NotImplementedError, match="int32"):
        fastblur.gaussian_filter(CudaArray(np.ones((20, 20), np.int32)), 1.0, output=CudaArray(out))
    assert (out == 7).all()
    with pytest.raises(ValueError, match="own GPU"):
        fastblur.gaussian_filter(CudaArray(np.ones((4, 4), np.float32)), 1.0, device="vulkan:7")
    with pytest.raises(TypeError, match="input is not"):
        fastblur.gaussian_filter(np.ones((4, 4), np.float32), 1.0, output=CudaArray(np.ones((4, 4), np.float32)))


def run_alone(env, code):
    """A CUDA call in a process of its own (the driver is opened once a process)."""
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, capture_output=True, text=True,
                          timeout=120)


CALL = """
    import numpy as np, fastblur
    class CudaArray:
        def __init__(self, a): self.a = a
        @property
        def __cuda_array_interface__(self):
            return {"data": (self.a.ctypes.data, False), "shape": self.a.shape, "typestr": self.a.dtype.str, "version": 3}
    out = np.full((16, 16), 7, np.float32)
    try:
        fastblur.gaussian_filter(CudaArray(np.ones((16, 16), np.float32)), 1.0, output=CudaArray(out))
        print("ran", float(np.abs(out - 1).max()))
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
        assert (out == 7).all(), "written"
"""


@needs_fake
@pytest.mark.parametrize("env,expected", [
    ({"FASTBLUR_CUDA_DRIVER": "/nonexistent/libcuda.so.1"}, "RuntimeError: no CUDA driver (/nonexistent/libcuda.so.1) was found"),
    ({"FASTBLUR_FAKE_CUDA_INIT_ERROR": "100"}, "RuntimeError: the CUDA driver did not initialise (cuInit: CUDA_ERROR_NO_DEVICE)"),
    ({"FASTBLUR_FAKE_CUDA_UUID": "00112233445566778899aabbccddeeff"}, "RuntimeError: no Vulkan device has the UUID of CUDA device 0"),
    ({"FASTBLUR_VULKAN_LOADER": "/nonexistent/libvulkan.so.1"}, "RuntimeError: CUDA device 0 (fake CUDA device) has no Vulkan device: no Vulkan loader"),
])
def test_missing_pieces_are_named_in_one_line(env, expected):
    p = run_alone(env, CALL)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(expected), p.stdout


@needs_fake
def test_a_cuda_call_under_validation_has_no_messages():
    p = run_alone({"FASTBLUR_VULKAN_VALIDATION": "1"}, CALL)
    assert p.returncode == 0 and p.stdout.startswith("ran ") and float(p.stdout.split()[1]) < 1e-6, p.stdout + p.stderr
    assert "[validation" not in p.stderr, p.stderr
