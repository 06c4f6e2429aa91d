"""fastblur.dask.blur_zarr and `python3 -m fastblur blur`: a zarr round trip equal to one call, the
source untouched, an interrupted run marked incomplete and resumed, refusals of a destination that
is the source, lies in it or holds something else, and the command's errors."""
import os
import subprocess
import sys

import dask
import numpy as np
import pytest
import zarr
from dask.callbacks import Callback

import fastblur
import fastblur.dask as fbd


def snapshot(path):
    """Every file under path with its bytes and modification time."""
    out = {}
    for root, _, files in os.walk(path):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[p] = (fh.read(), os.stat(p).st_mtime_ns)
    return out


@pytest.fixture
def source(tmp_path, rng):
    a = rng.random((30, 26, 22)).astype(np.float32)
    path = str(tmp_path / "in.zarr")
    z = zarr.open_array(path, mode="w", shape=a.shape, chunks=(7, 10, 9), dtype=a.dtype)
    z[...] = a
    return path, a


def test_round_trip_equals_one_call(source, tmp_path):
    path, a = source
    before = snapshot(path)
    dst = str(tmp_path / "out.zarr")
    out = fbd.blur_zarr(path, dst, (2.0, 1.5, 3.0), mode="mirror", algorithm="fir")
    assert np.array_equal(out[...], fastblur.gaussian_filter(a, (2.0, 1.5, 3.0), mode="mirror", algorithm="fir"))
    assert out.chunks == (7, 10, 9) and fbd.is_complete(dst)
    assert snapshot(path) == before  # the source untouched
    # Again with the same parameters: already complete, nothing rewritten.
    written = snapshot(dst)
    fbd.blur_zarr(path, dst, (2.0, 1.5, 3.0), mode="mirror", algorithm="fir")
    assert snapshot(dst) == written
    # Other chunks, dtype and compressor.
    dst2 = str(tmp_path / "out2.zarr")
    out = fbd.blur_zarr(zarr.open_array(path, mode="r"), dst2, 2.0, chunks=(16, 5, 22), output="float64",
                        compressor=None, algorithm="fir")
    assert out.chunks == (16, 5, 22) and out.dtype == np.float64 and out.compressor is None
    assert np.array_equal(out[...], fastblur.gaussian_filter(a, 2.0, output=np.float64, algorithm="fir"))


class StopAfter(Callback):
    """Interrupts a computation after n chunks are written, as Ctrl-C would."""

    def __init__(self, n):
        super().__init__()
        self.left = n

    def _posttask(self, key, result, dsk, state, id):
        if not (isinstance(key, tuple) and key[0].startswith("fastblur-zarr-write")):
            return
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt


def test_interrupted_run_is_marked_and_resumes(source, tmp_path):
    path, a = source
    dst = str(tmp_path / "out.zarr")
    with pytest.raises(KeyboardInterrupt), StopAfter(5):
        fbd.blur_zarr(path, dst, 2.5, algorithm="fir", chunks=(10, 13, 11))
    assert not fbd.is_complete(dst)
    z = zarr.open_array(dst, mode="r")
    chunks = [k for k in os.listdir(dst) if not k.startswith(".")]
    # The chunks being written when the interruption came were finished before blur_zarr raised:
    # no write is left in flight (its temporary file) to race a resume.
    assert not [k for k in chunks if k.endswith(".partial")], chunks
    assert 0 < len(chunks) < z.nchunks  # partial, and marked so; unwritten float chunks read NaN
    assert np.isnan(z[...]).any()
    kept = {k: os.stat(os.path.join(dst, k)).st_mtime_ns for k in chunks}
    fbd.blur_zarr(path, dst, 2.5, algorithm="fir", chunks=(10, 13, 11))  # resumes
    assert fbd.is_complete(dst)
    assert {k: os.stat(os.path.join(dst, k)).st_mtime_ns for k in chunks} == kept  # done chunks not redone
    assert np.array_equal(zarr.open_array(dst, mode="r")[...], fastblur.gaussian_filter(a, 2.5, algorithm="fir"))


def test_refusals(source, tmp_path):
    path, a = source
    before = snapshot(path)
    with pytest.raises(ValueError, match="is the source"):
        fbd.blur_zarr(path, path, 2.0)
    with pytest.raises(ValueError, match="is the source"):
        fbd.blur_zarr(path, path + "/../in.zarr", 2.0)
    with pytest.raises(ValueError, match="one inside the other"):
        fbd.blur_zarr(path, os.path.join(path, "out"), 2.0)
    with pytest.raises(ValueError, match="chunks must be positive"):
        fbd.blur_zarr(path, str(tmp_path / "o.zarr"), 2.0, chunks=(0, 5, 5))
    with pytest.raises(RuntimeError, match="sequence argument"):
        fbd.blur_zarr(path, str(tmp_path / "o.zarr"), (1.0, 2.0))
    with pytest.raises(FileNotFoundError):
        fbd.blur_zarr(str(tmp_path / "missing.zarr"), str(tmp_path / "o.zarr"), 2.0)
    assert not os.path.exists(tmp_path / "o.zarr")  # bad arguments create nothing
    other = str(tmp_path / "other.zarr")
    zarr.open_array(other, mode="w", shape=(3,), dtype="f4")[...] = 1
    with pytest.raises(FileExistsError, match="not a fastblur output"):
        fbd.blur_zarr(path, other, 2.0)
    done = str(tmp_path / "done.zarr")
    fbd.blur_zarr(path, done, 2.0)
    with pytest.raises(FileExistsError, match="other parameters"):
        fbd.blur_zarr(path, done, 3.0)
    out = fbd.blur_zarr(path, done, 3.0, overwrite=True, algorithm="fir")
    assert np.array_equal(out[...], fastblur.gaussian_filter(a, 3.0, algorithm="fir"))
    assert snapshot(path) == before


def run_command(*args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "fastblur", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_command(source, tmp_path):
    path, a = source
    dst = str(tmp_path / "cmd.zarr")
    r = run_command("blur", path, dst, "--sigma", "2,0,1.5", "--mode", "wrap", "--algorithm", "fir")
    assert r.returncode == 0, r.stderr
    want = fastblur.gaussian_filter(a, (2, 0, 1.5), mode="wrap", algorithm="fir")
    assert np.array_equal(zarr.open_array(dst, mode="r")[...], want)
    r = run_command("blur", path, dst, "--sigma", "3")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "other parameters" in r.stderr
    r = run_command("blur", path, path, "--sigma", "3")
    assert r.returncode == 2 and "is the source" in r.stderr
    r = run_command("blur", path, str(tmp_path / "x.zarr"), "--sigma", "1,2,3,4")
    assert r.returncode == 2 and "length equal to input rank" in r.stderr
    r = run_command("blur", path, str(tmp_path / "x.zarr"), "--sigma", "2", "--mode", "bogus")
    assert r.returncode == 2 and "boundary mode" in r.stderr
    r = run_command("blur", path, str(tmp_path / "x.zarr"))
    assert r.returncode == 2 and "--sigma" in r.stderr
    r = run_command("blur", str(tmp_path / "none.zarr"), str(tmp_path / "x.zarr"), "--sigma", "2")
    assert r.returncode == 1 and "no zarr array" in r.stderr
    assert not os.path.exists(tmp_path / "x.zarr")


# The store path (fastblur/_zarr_chunks.py): blur_zarr's tasks read their chunk and halo from the
# source store themselves into buffers kept per thread and write their chunk; the same bits as the
# graph of halo exchanges and as one call, whatever the layout.

@pytest.fixture
def store_path_used(monkeypatch):
    """Records whether each blur_zarr call took the store path."""
    used = []
    original = fbd._store_tasks

    def spy(*args, **kwargs):
        tasks = original(*args, **kwargs)
        used.append(tasks is not None)
        return tasks
    monkeypatch.setattr(fbd, "_store_tasks", spy)
    return used


def make_source(path, a, chunks, **kwargs):
    z = zarr.open_array(path, mode="w", shape=a.shape, chunks=chunks, dtype=a.dtype, **kwargs)
    z[...] = a
    return z


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_store_path_equals_one_call(tmp_path, rng, store_path_used, mode):
    from fastblur import _zarr_chunks
    a = rng.random((40, 21, 18)).astype(np.float32)
    src = str(tmp_path / "in.zarr")
    make_source(src, a, (16, 21, 18))  # halo planes of a neighbour: blosc's partial decompression
    want = fastblur.gaussian_filter(a, (2.0, 1.0, 1.5), mode=mode, cval=0.5, algorithm="fir")
    out = fbd.blur_zarr(src, str(tmp_path / "out.zarr"), (2.0, 1.0, 1.5), mode=mode, cval=0.5, algorithm="fir")
    assert np.array_equal(out[...], want)
    # Other computation chunks (edge chunks written whole, padded with the fill value), float64 out.
    out = fbd.blur_zarr(src, str(tmp_path / "out2.zarr"), (2.0, 1.0, 1.5), mode=mode, cval=0.5, algorithm="fir",
                        chunks=(12, 8, 18), output="float64")
    assert np.array_equal(out[...], fastblur.gaussian_filter(a, (2.0, 1.0, 1.5), mode=mode, cval=0.5, algorithm="fir",
                                                             output=np.float64))
    assert store_path_used == [True, True]
    assert not _zarr_chunks._kept  # the kept buffers freed at the end


def test_store_path_layouts(tmp_path, rng, store_path_used):
    """Sources and destinations the fast reads and writes do not cover go through zarr itself."""
    from numcodecs import Delta, Zstd
    a = (rng.random((24, 30, 20)) * 60000).astype(np.uint16)
    want = fastblur.gaussian_filter(a, 2.0, mode="mirror")
    sources = {
        "zstd": dict(compressor=Zstd()),
        "raw": dict(compressor=None),
        "filters": dict(filters=[Delta(dtype="u2")]),
        "nested": dict(dimension_separator="/"),
        "fortran": dict(order="F"),
    }
    for name, kwargs in sources.items():
        src = str(tmp_path / f"{name}.zarr")
        make_source(src, a, (10, 12, 20), **kwargs)
        out = fbd.blur_zarr(src, str(tmp_path / f"{name}_out.zarr"), 2.0, mode="mirror")
        assert np.array_equal(out[...], want), name
    # Missing source chunks read as the fill value, as zarr reads them.
    src = str(tmp_path / "sparse.zarr")
    z = zarr.open_array(src, mode="w", shape=a.shape, chunks=(10, 12, 20), dtype=a.dtype, fill_value=7)
    z[:10] = a[:10]
    out = fbd.blur_zarr(src, str(tmp_path / "sparse_out.zarr"), 2.0, mode="mirror")
    assert np.array_equal(out[...], fastblur.gaussian_filter(z[...], 2.0, mode="mirror"))
    # A destination in memory: stored as bytes of its own, not the kept buffer.
    dst = zarr.storage.MemoryStore()
    out = fbd.blur_zarr(str(tmp_path / "raw.zarr"), dst, 2.0, mode="mirror")
    assert np.array_equal(out[...], want)
    assert all(store_path_used)


def test_store_path_direct_writes(tmp_path, rng, monkeypatch):
    """Chunk files written with O_DIRECT (every size here): the same bytes as zarr's own writes,
    tails shorter than a block included, no temporary file left."""
    from fastblur import _zarr_chunks
    monkeypatch.setattr(_zarr_chunks, "_DIRECT_MIN", 0)
    a = rng.random((64, 40, 36)).astype(np.float32)
    src = str(tmp_path / "in.zarr")
    make_source(src, a, (32, 40, 36))
    for compressor in ("default", None):
        dst = str(tmp_path / f"out_{compressor}.zarr")
        out = fbd.blur_zarr(src, dst, 1.5, algorithm="fir", compressor=compressor)
        assert np.array_equal(out[...], fastblur.gaussian_filter(a, 1.5, algorithm="fir"))
        assert not [f for f in os.listdir(dst) if f.endswith(".partial")]
        # The files are what zarr writes for these values.
        ref = zarr.open_array(str(tmp_path / "ref.zarr"), mode="w", shape=a.shape, chunks=(32, 40, 36), dtype="f4",
                              fill_value=np.nan, **({} if compressor == "default" else {"compressor": None}))
        ref[...] = out[...]
        for key in ("0.0.0", "1.0.0"):
            with open(os.path.join(dst, key), "rb") as f, open(str(tmp_path / "ref.zarr" / key), "rb") as g:
                assert f.read() == g.read(), key


def test_store_path_declined(tmp_path, rng, store_path_used):
    """Computation chunks far smaller than the source's: each piece would decode whole source chunks
    for a few voxels, so the graph of halo exchanges does it (decoding each chunk once)."""
    a = rng.random((64, 64, 64)).astype(np.float32)
    src = str(tmp_path / "in.zarr")
    make_source(src, a, (64, 64, 64))
    out = fbd.blur_zarr(src, str(tmp_path / "out.zarr"), 1.0, algorithm="fir", chunks=(8, 8, 8))
    assert np.array_equal(out[...], fastblur.gaussian_filter(a, 1.0, algorithm="fir"))
    assert store_path_used == [False]
