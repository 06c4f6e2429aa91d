"""Zarr chunks read and written through buffers kept per thread, for blur_zarr's store path
(fastblur.dask): each task reads its chunk and halo straight from the source store and writes its
output chunk, reusing the same memory task after task instead of the fresh buffers zarr and numcodecs
allocate per call (page faults are most of their cost on large chunks: bench/RESULTS.md, issue 28,
deliverable 5). Imports nothing of fastblur's.

Where the layout allows - a zarr v2 array in C order without filters, native dtype, a fill value,
on a DirectoryStore (chunks read with readinto) or any other store - a chunk is decoded by its codec
into a kept buffer (or straight into the piece when it fills a contiguous part of it), and the
halo planes of a neighbour are decompressed alone when they are a run of its memory (Blosc's
partial decompression); an output chunk is encoded by libblosc into a kept buffer with the
compressor's own parameters (the bytes numcodecs would write) and written as DirectoryStore writes
it (a temporary file renamed). Anything else goes through zarr itself, with the same result.
"""
import ctypes
import threading

import numpy as np

_ALIGN = 4096  # O_DIRECT's alignment of buffer, offset and length (the page size: enough for any device)
_DIRECT_MIN = 8 << 20  # chunk files at least this large are written with O_DIRECT
_lock = threading.Lock()
_kept = {}  # thread id -> {name: flat uint8 array}


def buffer(name, shape, dtype):
    """A C-contiguous array of `shape` and `dtype` in this thread's kept buffer `name` (grown when too
    small; its contents are whatever the last user left)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    tid = threading.get_ident()
    with _lock:
        mine = _kept.setdefault(tid, {})
    flat = mine.get(name)
    if flat is None or flat.nbytes < nbytes:
        mine.pop(name, None)
        del flat
        # Page-aligned, so that a chunk encoded into it can be written with O_DIRECT.
        block = np.empty(max(nbytes, 1) + _ALIGN, np.uint8)
        at = -block.ctypes.data % _ALIGN
        flat = block[at:at + max(nbytes, 1)]
        mine[name] = flat
    return flat[:nbytes].view(dtype).reshape(shape)


def release():
    """Frees every thread's kept buffers in this process (at the end of a run)."""
    with _lock:
        _kept.clear()


def _zarr():
    import zarr
    return zarr


def _directory_store(store):
    zarr = _zarr()
    DirectoryStore = zarr.storage.DirectoryStore
    t = type(store)
    return (isinstance(store, DirectoryStore) and t.__getitem__ is DirectoryStore.__getitem__
            and t.__setitem__ is DirectoryStore.__setitem__ and t._fromfile is DirectoryStore._fromfile
            and t._tofile is DirectoryStore._tofile)


def _plain(z):
    """Whether zarr array z's chunks are its compressor's encoding of the C-ordered native values."""
    return (getattr(z, "_version", 2) == 2 and not z.filters and z.order == "C" and z.dtype.isnative
            and z.dtype.kind in "biufc" and z.fill_value is not None)


def _raw(store, key):
    """A chunk's stored bytes (in this thread's kept buffer from a DirectoryStore), or None if absent."""
    if _directory_store(store):
        import os
        path = os.path.join(store.path, store._normalize_key(key))
        try:
            f = open(path, "rb", buffering=0)
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return None
        with f:
            size = os.fstat(f.fileno()).st_size
            raw = buffer("bytes", (size,), np.uint8)
            view = memoryview(raw)
            got = 0
            while got < size:
                n = f.readinto(view[got:])
                if not n:
                    raise OSError(f"{path}: short read")
                got += n
        return raw
    try:
        return store[key]
    except KeyError:
        return None


def read_box(z, box, dest):
    """dest[...] = z[box] for zarr array z and box a tuple of (start, stop) per axis."""
    if not _plain(z):
        dest[...] = z[tuple(slice(a, b) for a, b in box)]
        return
    compressor = z.compressor
    store = z.chunk_store
    dtype = dest.dtype
    chunks = z.chunks
    ranges = [range(a // c, (b - 1) // c + 1) for (a, b), c in zip(box, chunks)]
    for index in np.ndindex(*[len(r) for r in ranges]):
        coords = tuple(r[i] for r, i in zip(ranges, index))
        # This chunk's part of the box: within the chunk (sub) and within dest (out).
        sub, out = [], []
        for (a, b), c, k in zip(box, chunks, coords):
            lo, hi = max(a, k * c), min(b, (k + 1) * c)
            sub.append((lo - k * c, hi - k * c))
            out.append(slice(lo - a, hi - a))
        target = dest[tuple(out)]
        cdata = _raw(store, z._chunk_key(coords))
        if cdata is None:
            target[...] = z.fill_value
            continue
        whole = all(a == 0 and b == c for (a, b), c in zip(sub, chunks))
        if compressor is None:
            chunk = np.frombuffer(cdata, dtype=dtype, count=int(np.prod(chunks))).reshape(chunks)
            target[...] = chunk[tuple(slice(a, b) for a, b in sub)]
            continue
        if whole and target.flags.c_contiguous:
            compressor.decode(cdata, out=target)  # straight into the piece
            continue
        # The run of the chunk's memory holding the part: from its first to its last element.
        strides = np.cumprod((1,) + chunks[:0:-1])[::-1]
        first = int(sum(a * s for (a, _), s in zip(sub, strides)))
        last = int(sum((b - 1) * s for (_, b), s in zip(sub, strides)))
        size = int(np.prod(chunks))
        run_size = last + 1 - first
        if compressor.codec_id == "blosc" and run_size * 2 <= size and _blosc_typesize(cdata) == dtype.itemsize:
            from numcodecs.blosc import decompress_partial
            run = buffer("chunk", (run_size,), dtype)
            decompress_partial(cdata, first, run_size, dest=run)
            # The part as a strided view of the run.
            part = np.lib.stride_tricks.as_strided(
                run, shape=tuple(b - a for a, b in sub), strides=tuple(int(s) * dtype.itemsize for s in strides))
            target[...] = part
            continue
        chunk = buffer("chunk", chunks, dtype)
        compressor.decode(cdata, out=chunk)
        target[...] = chunk[tuple(slice(a, b) for a, b in sub)]


def decoded_size(z, box):
    """Elements read_box decodes for box (the chunks it decodes whole, the runs it decodes alone)."""
    chunks = z.chunks
    size = int(np.prod(chunks))
    blosc = _plain(z) and z.compressor is not None and z.compressor.codec_id == "blosc"
    strides = np.cumprod((1,) + chunks[:0:-1])[::-1]
    ranges = [range(a // c, (b - 1) // c + 1) for (a, b), c in zip(box, chunks)]
    total = 0
    for index in np.ndindex(*[len(r) for r in ranges]):
        coords = tuple(r[i] for r, i in zip(ranges, index))
        sub = [(max(a, k * c) - k * c, min(b, (k + 1) * c) - k * c) for (a, b), c, k in zip(box, chunks, coords)]
        run = int(sum((b - 1 - a) * s for (a, b), s in zip(sub, strides))) + 1
        total += run if blosc and run * 2 <= size else size
    return total


def _blosc_typesize(cdata):
    from numcodecs.blosc import cbuffer_metainfo
    return cbuffer_metainfo(cdata)[0]


_libblosc = None


def _blosc():
    """libblosc (the library numcodecs' Blosc is built on), or False where it cannot be loaded."""
    global _libblosc
    if _libblosc is None:
        try:
            lib = ctypes.CDLL("libblosc.so.1")
            f = lib.blosc_compress_ctx
            f.restype = ctypes.c_int
            f.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                          ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
            _libblosc = lib
        except (OSError, AttributeError):
            _libblosc = False
    return _libblosc


def _encode(compressor, data):
    """The compressor's encoding of the C-contiguous array data: a kept buffer's view or bytes."""
    if compressor is None:
        return data.reshape(-1).view(np.uint8)
    if compressor.codec_id == "blosc" and _blosc():
        from numcodecs import blosc
        if data.nbytes <= blosc.MAX_BUFFERSIZE:
            shuffle = compressor.shuffle
            if shuffle == blosc.AUTOSHUFFLE:
                shuffle = blosc.BITSHUFFLE if data.dtype.itemsize == 1 else blosc.SHUFFLE
            dest = buffer("bytes", (data.nbytes + blosc.MAX_OVERHEAD,), np.uint8)
            # As numcodecs' compress does in a thread other than the main one (one internal thread).
            n = _blosc().blosc_compress_ctx(int(compressor.clevel), int(shuffle), data.dtype.itemsize, data.nbytes,
                                            data.ctypes.data, dest.ctypes.data, dest.nbytes,
                                            compressor.cname.encode() if isinstance(compressor.cname, str)
                                            else compressor.cname, int(compressor.blocksize), 1)
            if n > 0:
                return dest[:n]
    return compressor.encode(data)


def write_chunk(z, coords, region, core):
    """z[region] = core, where region is zarr array z's chunk at `coords` (the whole chunk, or its part
    inside the array at an edge); returns core.nbytes."""
    if not _plain(z) or core.dtype != z.dtype:
        z[region] = core
        return core.nbytes
    chunks = z.chunks
    if core.shape == chunks and core.flags.c_contiguous:
        data = core
    else:
        # zarr stores edge chunks whole, the part outside the array holding the fill value.
        data = buffer("chunk", chunks, core.dtype)
        if core.shape != chunks:
            data[...] = z.fill_value
        data[tuple(slice(0, n) for n in core.shape)] = core
    payload = _encode(z.compressor, data)
    store = z.chunk_store
    key = z._chunk_key(coords)
    if _directory_store(store):
        if not _write_direct(store, key, payload):
            store[key] = payload  # written from the buffer (a temporary file, then renamed)
    else:
        store[key] = bytes(payload) if isinstance(payload, np.ndarray) else payload
    return core.nbytes


def _write_direct(store, key, payload):
    """Writes a DirectoryStore's chunk file as the store does (a temporary file, renamed) but with
    O_DIRECT: the bytes go from the buffer to the device without passing through new page cache,
    which costs as much kernel time as the rest of the chunk's work on large poorly compressed
    chunks (bench/RESULTS.md). False (nothing written) where it does not apply: a small or unaligned
    payload, no O_DIRECT, a file system refusing it."""
    import os
    import uuid
    if not hasattr(os, "O_DIRECT") or not isinstance(payload, np.ndarray) or payload.nbytes < _DIRECT_MIN \
            or payload.ctypes.data % _ALIGN or not payload.flags.c_contiguous:
        return False
    path = os.path.join(store.path, store._normalize_key(key))
    folder = os.path.dirname(path)
    if os.path.isdir(path) or os.path.isfile(folder):
        return False  # the store's own write handles (or refuses) these
    os.makedirs(folder, exist_ok=True)
    temp = f"{path}.{uuid.uuid4().hex}.partial"
    data = memoryview(payload.reshape(-1).view(np.uint8))
    n = len(data)
    aligned = n - n % _ALIGN
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_DIRECT, 0o666)
    except OSError:
        return False
    try:
        try:
            done = 0
            while done < aligned:
                done += os.write(fd, data[done:aligned])
        finally:
            os.close(fd)
        if aligned < n:
            with open(temp, "ab") as f:  # the tail, shorter than a block, through the page cache
                f.write(data[aligned:])
        os.replace(temp, path)
        return True
    except OSError:
        return False
    finally:
        if os.path.exists(temp):
            os.remove(temp)
