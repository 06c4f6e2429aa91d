"""fastblur.dask on a dask.distributed LocalCluster of 2 worker processes on loopback: the same answer
as one call, a zarr round trip and the command through --scheduler, and a worker killed in the
middle of a computation (the cluster retries; the result is still identical)."""
import os
import signal
import subprocess
import sys
import time

import cloudpickle
import dask.array as da
import distributed
import numpy as np
import pytest
import zarr

import fastblur
import fastblur.dask as fbd

# The slow identity below runs on the workers, which cannot import this test file.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, host="127.0.0.1", dashboard_address=None)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def test_same_as_one_call(client, rng):
    a = rng.random((40, 36, 30)).astype(np.float32)
    x = da.from_array(a, chunks=((5, 20, 15), (3, 33), (10, 10, 10)))
    for mode in ("reflect", "mirror", "nearest", "wrap", "constant"):
        y = fbd.gaussian_filter(x, (2.0, 1.0, 3.0), mode=mode, cval=0.5, algorithm="fir")
        want = fastblur.gaussian_filter(a, (2.0, 1.0, 3.0), mode=mode, cval=0.5, algorithm="fir")
        assert np.array_equal(client.compute(y).result(timeout=60), want), mode
    y = fbd.gaussian_filter(x, 2.5, algorithm="box")
    np.testing.assert_allclose(y.compute(), fastblur.gaussian_filter(a, 2.5, algorithm="box"), rtol=0, atol=2e-6)
    # Data with holes across processes: the mask's pieces travel with the data's (mask=, unpickled).
    flags = rng.random(a.shape) < 0.2
    y = fbd.gaussian_filter(x, 2.0, mask=da.from_array(flags, chunks=(20, 18, 15)), preserve_nan=True)
    want = fastblur.gaussian_filter(a, 2.0, mask=flags, preserve_nan=True)
    assert np.array_equal(client.compute(y).result(timeout=60), want, equal_nan=True)


def test_zarr_and_command_on_the_cluster(client, rng, tmp_path):
    a = rng.integers(0, 65535, size=(33, 47), endpoint=True).astype(np.uint16)
    src, dst, dst2 = (str(tmp_path / n) for n in ("in.zarr", "out.zarr", "out2.zarr"))
    zarr.open_array(src, mode="w", shape=a.shape, chunks=(8, 12), dtype=a.dtype)[...] = a
    want = fastblur.gaussian_filter(a, 3.0, mode="mirror")
    out = fbd.blur_zarr(src, dst, 3.0, mode="mirror")
    assert np.array_equal(out[...], want) and fbd.is_complete(dst)
    r = subprocess.run([sys.executable, "-m", "fastblur", "blur", src, dst2, "--sigma", "3", "--mode", "mirror",
                        "--scheduler", client.scheduler.address], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(zarr.open_array(dst2, mode="r")[...], want)


def slow_identity(block):
    time.sleep(0.15)
    return block


def test_worker_killed_mid_computation(client, rng):
    a = rng.random((64, 64, 32)).astype(np.float32)
    x = da.from_array(a, chunks=(16, 16, 32)).map_blocks(slow_identity, dtype=a.dtype)  # 16 chunks, ~0.15 s each
    y = fbd.gaussian_filter(x, 2.0, mode="mirror", algorithm="fir")
    want = fastblur.gaussian_filter(a, 2.0, mode="mirror", algorithm="fir")
    future = client.compute(y)

    def blurred(dask_scheduler):
        return sum(1 for k, ts in dask_scheduler.tasks.items()
                   if "fastblur-gaussian" in str(k) and ts.state == "memory")

    deadline = time.monotonic() + 60
    while client.run_on_scheduler(blurred) < 2:  # some chunks blurred, not all
        assert time.monotonic() < deadline and not future.done()
        time.sleep(0.02)
    assert not future.done()
    pids = client.run(os.getpid)
    os.kill(next(iter(pids.values())), signal.SIGKILL)
    assert np.array_equal(future.result(timeout=120), want)
