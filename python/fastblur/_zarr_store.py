"""Zarr in and out for fastblur.dask: blur_zarr blurs one zarr array into another chunk by chunk
with the lazy filter it is given (fastblur.dask.blur_zarr passes its gaussian_filter: this module
imports nothing of fastblur's, so the two do not import each other).

Safety: the source is opened read-only and may not be, contain or lie inside the destination. The
destination carries ``attrs['fastblur']`` = {'complete': False, ...the source and parameters...}
from its creation; each chunk is one zarr chunk key, written whole (DirectoryStore writes a
temporary file and renames it), so a key present is a finished chunk; 'complete' turns True only
after the last chunk. An interrupted run therefore leaves a destination marked incomplete (float
chunks never written read as NaN, the fill value), and the same call again resumes it, writing only
the missing chunks. A destination written with other parameters, or not by fastblur, is refused
unless overwrite=True.
"""
import json
import numbers
import os

import numpy as np
from concurrent.futures import ThreadPoolExecutor

import dask
import dask.array as da
from dask.system import CPU_COUNT
from dask.base import tokenize
from dask.delayed import Delayed
from dask.highlevelgraph import HighLevelGraph

_FILTER_KEYS = ("order", "output", "mode", "cval", "truncate", "radius", "axes", "algorithm", "tolerance",
                "threads", "rounding", "options")
_FORMAT = 1


def _zarr():
    import zarr
    return zarr


def _location(obj):
    """The directory a store lives in (a path, a zarr DirectoryStore or an array on one), or None."""
    if isinstance(obj, (str, os.PathLike)):
        return os.path.realpath(os.fspath(obj))
    store = getattr(obj, "store", obj)
    path = getattr(store, "path", None)
    if isinstance(path, str):
        sub = getattr(obj, "path", "") if obj is not store else ""
        return os.path.realpath(os.path.join(path, sub)) if sub else os.path.realpath(path)
    return None


def _check_apart(src, dst):
    a, b = _location(src), _location(dst)
    if a is None or b is None:
        if src is dst or getattr(src, "store", src) is getattr(dst, "store", dst):
            raise ValueError("dst is the source store: blur_zarr never writes to its source")
        return
    if a == b or (os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)):
        raise ValueError(f"dst {b} is the source: blur_zarr never writes to its source")
    if b.startswith(a + os.sep) or a.startswith(b + os.sep):
        raise ValueError(f"dst {b} and the source {a} lie one inside the other: writing one would change the other")


def _open_source(src):
    zarr = _zarr()
    if isinstance(src, zarr.Array):
        return zarr.open_array(src.store, path=src.path, mode="r")
    try:
        return zarr.open_array(src, mode="r")
    except zarr.errors.ArrayNotFoundError:
        raise FileNotFoundError(f"{src}: no zarr array there") from None


def _check_chunks(chunks, ndim):
    if chunks is None:
        return None
    if isinstance(chunks, numbers.Integral):
        chunks = (chunks,) * ndim
    chunks = tuple(chunks)
    if len(chunks) != ndim:
        raise RuntimeError("sequence argument must have length equal to input rank")
    for c in chunks:
        if isinstance(c, bool) or not isinstance(c, numbers.Integral) or c <= 0:
            raise ValueError(f"chunks must be positive integers, got {chunks}")
    return tuple(int(c) for c in chunks)


def _canonical(value):
    """JSON-comparable form of the parameters (tuples as lists, dtypes and numbers as JSON has them)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _write_chunk(block, target, region):
    target[region] = block
    return block.nbytes


def is_complete(store):
    """Whether a blur_zarr destination was written completely (False for one interrupted or not ours)."""
    meta = _zarr().open_array(store, mode="r").attrs.get("fastblur")
    return bool(isinstance(meta, dict) and meta.get("complete") is True)


def blur_zarr(gaussian_filter, src, dst, sigma, *, chunks=None, overwrite=False, compressor="default",
              progress=False, store_tasks=None, release=None, **kwargs):
    """Blurs the zarr array ``src`` into a new zarr array ``dst`` (a path or store) chunk by chunk with
    ``gaussian_filter`` (fastblur.dask's: a dask array in, a lazy dask array out); ``kwargs`` are its keywords (order, output, mode, cval, truncate,
    radius, axes, algorithm, tolerance, threads, rounding, options). ``chunks`` sets the chunks of the
    computation and of dst (default: src's); ``compressor`` dst's (zarr's default Blosc, or None).
    Runs on dask's current scheduler (a dask.distributed Client when one is active); ``progress``
    shows dask's progress bar. Resumes an incomplete dst written with the same parameters; refuses
    another existing dst unless ``overwrite``. Returns dst opened read-only.

    ``store_tasks(x, source, target, todo, sigma, kwargs)`` (fastblur.dask's) may return one task per
    chunk of ``todo`` that reads its piece from the source itself and writes the chunk (the store
    path: no chunk travels between tasks), or None for the graph of ``gaussian_filter``; ``release``
    then frees the buffers those tasks kept, in this process and on the cluster's workers."""
    zarr = _zarr()
    unknown = set(kwargs) - set(_FILTER_KEYS)
    if unknown:
        raise TypeError(f"blur_zarr() got unexpected keyword arguments: {', '.join(sorted(unknown))}")
    _check_apart(src, dst)
    source = _open_source(src)
    x = da.from_zarr(source)
    chunks = _check_chunks(chunks, source.ndim)
    if chunks is not None:
        x = x.rechunk(chunks)
    y = gaussian_filter(x, sigma, **kwargs)  # every argument checked before dst is touched
    out_chunks = tuple(int(c[0]) for c in y.chunks) if y.size else tuple(max(1, n) for n in y.shape)
    params = {k: v for k, v in kwargs.items() if k != "threads"}
    params["output"] = y.dtype.str
    record = _canonical({"format": _FORMAT, "source": _location(src) or repr(src), "sigma": sigma,
                         "parameters": params, "shape": y.shape, "chunks": out_chunks, "complete": False})

    target = None
    if not overwrite and zarr.storage.contains_array(zarr.storage.normalize_store_arg(dst)):
        existing = zarr.open_array(dst, mode="r+")
        meta = existing.attrs.get("fastblur")
        if not isinstance(meta, dict):
            raise FileExistsError(f"{dst} exists and is not a fastblur output; overwrite=True replaces it")
        if {k: v for k, v in meta.items() if k != "complete"} != {k: v for k, v in record.items() if k != "complete"}:
            raise FileExistsError(f"{dst} holds a blur with other parameters; overwrite=True replaces it")
        if meta.get("complete") is True:
            return zarr.open_array(dst, mode="r")
        target = existing  # an interrupted run: resume it
    elif not overwrite and zarr.storage.contains_group(zarr.storage.normalize_store_arg(dst)):
        raise FileExistsError(f"{dst} is a zarr group; overwrite=True replaces it")
    if target is None:
        fill = np.nan if y.dtype.kind in "fc" else 0
        create = dict(shape=y.shape, chunks=out_chunks, dtype=y.dtype, fill_value=fill, mode="w",
                      write_empty_chunks=True)
        if compressor != "default":
            create["compressor"] = compressor
        target = zarr.open_array(dst, **create)
        target.attrs["fastblur"] = record  # incomplete until every chunk is in

    # Chunks already written by an interrupted run are skipped.
    store = target.chunk_store if target.chunk_store is not None else target.store
    todo = [b for b in np.ndindex(*y.numblocks) if target._chunk_key(b) not in store]
    name = "fastblur-zarr-write-" + tokenize(y, record, todo)
    tasks = store_tasks(x, source, target, todo, sigma, kwargs) if store_tasks is not None else None
    dsk = {}
    if tasks is not None:
        # The store path: each task reads its chunk and halo from the source and writes its chunk.
        for i, task in enumerate(tasks):
            dsk[(name, i)] = task
        dependencies = []
    else:
        for i, block in enumerate(todo):
            region = tuple(slice(int(sum(c[:b])), int(sum(c[:b + 1]))) for c, b in zip(y.chunks, block))
            dsk[(name, i)] = (_write_chunk, (y.name,) + tuple(block), target, region)
        dependencies = [y]
    dsk[name] = (sum, [(name, i) for i in range(len(todo))])
    done = Delayed(name, HighLevelGraph.from_collections(name, dsk, dependencies=dependencies))
    try:
        _run(done, progress)
    finally:
        if tasks is not None and release is not None:
            _release(release)
    meta = dict(target.attrs["fastblur"])
    meta["complete"] = True
    target.attrs["fastblur"] = meta  # written last: the mark of a complete destination
    return zarr.open_array(dst, mode="r")


def _release(release):
    """Calls release here and on every worker of the current dask.distributed client (if any)."""
    release()
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        return
    try:
        client.run(release)
    except Exception:  # a worker gone: its buffers went with it
        pass


def _run(collection, progress):
    """Computes on dask's current scheduler, with its progress bar when asked."""
    client = None
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        pass
    if client is not None:
        future = client.compute(collection)
        if progress:
            from distributed import progress as show
            show(future)
        return future.result()
    kwargs = {}
    pool = None
    if dask.config.get("scheduler", None) in (None, "threads", "threading"):
        # dask's local threads, in a pool of our own: an interruption (Ctrl-C) or a failed chunk
        # stops dask from starting tasks but not the chunks its threads are writing, which would go
        # on after this raised (a resume started next would race them); they are waited for below.
        pool = ThreadPoolExecutor(CPU_COUNT)
        kwargs = {"scheduler": "threads", "pool": pool}
    try:
        if progress:
            from dask.diagnostics import ProgressBar
            with ProgressBar():
                return dask.compute(collection, **kwargs)[0]
        return dask.compute(collection, **kwargs)[0]
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
