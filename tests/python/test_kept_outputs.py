"""New outputs whose memory is reused once freed (python/src/kept_outputs.cpp): a freed output's
block serves the next of its size, every call writes every element of a reused block (one filled with
NaN first), blocks alive are never shared, and the limit is kept."""
import gc
import pickle

import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur
from fastblur import _core


def address(a):
    return a.__array_interface__["data"][0]


@pytest.fixture
def keep_all():
    """The default limit around each test, what was kept freed before and after."""
    old = fastblur.set_kept_output_limit(0)
    fastblur.set_kept_output_limit(512 << 20)
    yield
    fastblur.set_kept_output_limit(0)
    fastblur.set_kept_output_limit(old)


def poisoned_block(shape, dtype):
    """A kept block of this size whose memory holds NaN (or 0xAB bytes): what a call must overwrite."""
    a = _core.new_output(np.dtype(dtype), list(shape))
    a.view(np.uint8).fill(0xFF if np.dtype(dtype).kind in "fc" else 0xAB)
    where = address(a)
    del a
    gc.collect()
    return where


CALLS = {
    "default": lambda a: fastblur.gaussian_filter(a, 1.7),
    "nearest": lambda a: fastblur.gaussian_filter(a, 1.7, rounding="nearest"),
    "tolerance": lambda a: fastblur.gaussian_filter(a, 9.0, tolerance=1e-2),
    "one axis": lambda a: fastblur.gaussian_filter1d(a, 2.5, axis=0),
    "order 1": lambda a: fastblur.gaussian_filter(a, 1.2, order=(0, 1)),
    "laplace": lambda a: fastblur.gaussian_laplace(a, 1.5),
    "gradient magnitude": lambda a: fastblur.gaussian_gradient_magnitude(a, 1.5),
    "correlate1d": lambda a: fastblur.correlate1d(a, [0.25, 0.5, 0.25], axis=1),
    "omit": lambda a: fastblur.gaussian_filter(np.where(np.arange(a.size).reshape(a.shape) % 11 == 0, np.nan, a),
                                               2.0, nan_policy="omit"),
    "sigma 0": lambda a: fastblur.gaussian_filter(a, 0.0),
}


# uint8 data: every call but omit (which needs NaN or a mask) and the family (uint8 derivatives wrap).
CASES = [(name, dtype) for name in sorted(CALLS) for dtype in ("float64", "float32", "uint8")
         if dtype != "uint8" or name not in ("laplace", "gradient magnitude", "omit")]


@pytest.mark.parametrize("name, dtype", CASES)
def test_a_reused_block_is_written_whole(rng, keep_all, name, dtype):
    shape = (900, 400) if dtype != "uint8" else (1200, 900)  # over 1 MiB in every dtype
    a = (rng.random(shape) * 255).astype(dtype)
    want = CALLS[name](a).copy()
    del_at = poisoned_block(want.shape, want.dtype)
    got = CALLS[name](a)
    assert address(got) == del_at, "the freed block was not reused"
    np.testing.assert_array_equal(got, want)


def test_scipys_bits_in_a_reused_block(rng, keep_all):
    a = rng.random((600, 500))
    poisoned_block(a.shape, a.dtype)
    got = fastblur.gaussian_filter(a, 3.0)
    np.testing.assert_array_equal(got, nd.gaussian_filter(a, 3.0))


def test_live_outputs_never_share_a_block(rng, keep_all):
    a = rng.random((512, 512))
    outs = [fastblur.gaussian_filter(a, 1.0) for _ in range(4)]
    assert len({address(o) for o in outs}) == 4
    np.testing.assert_array_equal(np.stack(outs), np.stack([outs[0]] * 4))
    before = _core.kept_outputs()[1]
    del outs
    gc.collect()
    assert _core.kept_outputs()[1] == before + 4


def test_small_outputs_are_numpys_and_reused_ones_behave(rng, keep_all):
    small = fastblur.gaussian_filter(rng.random((64, 64)), 1.0)
    assert small.flags.owndata
    big = fastblur.gaussian_filter(rng.random((600, 500)).astype(np.float32), 1.0)
    assert big.flags.writeable and big.flags.c_contiguous and big.dtype == np.float32
    assert not big.flags.owndata and big.base is not None
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(big)), big)
    view = big[10:20]
    del big
    gc.collect()
    view[:] = 1.0  # the block stays alive while a view of it does
    assert float(view.sum()) == view.size


def test_the_limit_is_kept(rng, keep_all):
    a = rng.random((600, 500))  # 2.4 MB: a 4 MiB block
    outs = [fastblur.gaussian_filter(a, 1.0) for _ in range(3)]
    fastblur.set_kept_output_limit(9 << 20)
    del outs
    gc.collect()
    kept, blocks = _core.kept_outputs()
    assert kept <= 9 << 20 and blocks == 2
    fastblur.set_kept_output_limit(0)
    assert _core.kept_outputs() == (0, 0)
    fastblur.gaussian_filter(a, 1.0)
    gc.collect()
    assert _core.kept_outputs() == (0, 0)
    with pytest.raises(ValueError, match="kept output limit"):
        fastblur.set_kept_output_limit(-1)


def test_the_default_limit_and_the_environment():
    """A fresh process keeps at most 512 MiB or a 16th of the memory; FASTBLUR_KEPT_OUTPUT_MIB sets it."""
    import os
    import subprocess
    import sys
    ask = "import fastblur; print(fastblur.set_kept_output_limit(0))"
    env = {k: v for k, v in os.environ.items() if k != "FASTBLUR_KEPT_OUTPUT_MIB"}
    got = int(subprocess.run([sys.executable, "-c", ask], env=env, capture_output=True, text=True, check=True).stdout)
    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert got == min(512 << 20, memory // 16)
    env["FASTBLUR_KEPT_OUTPUT_MIB"] = "3"
    got = int(subprocess.run([sys.executable, "-c", ask], env=env, capture_output=True, text=True, check=True).stdout)
    assert got == 3 << 20
