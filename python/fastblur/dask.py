"""fastblur on dask arrays and zarr stores: chunked, lazy, local or on a dask.distributed cluster.

``gaussian_filter(x, sigma, ...)``, ``gaussian_filter1d``, ``gaussian_laplace`` and
``gaussian_gradient_magnitude`` take a dask array and the arguments of the module's functions and
return a lazy dask array with the same chunks. ``blur_zarr(src,
dst, sigma, ...)`` blurs one zarr array into another chunk by chunk (``python3 -m fastblur blur
IN.zarr OUT.zarr --sigma S`` is the command for it).

How a chunk is blurred (docs/DESIGN.md: tiles, bands and chunks are one idea): each output chunk is
computed from its chunk plus a halo on each side, gathered from the neighbouring chunks, as wide as
the plan's support along that axis (fir, fft: the kernel's radius; box, kawase, sliding-dct: the
reach of their finite kernels; iir: where the recursion's transient has decayed by 1e-8, far below
any tolerance). The halo stops at the array's true borders, so there the piece's edge is the
array's edge and fastblur applies the requested mode itself (mirror too, which dask's own boundary
options cannot express); a ``wrap`` halo is taken from the far end instead. The whole array is
planned once, and every chunk runs the planned algorithm and options, so all chunks agree and
``fir`` results are bit-identical to one call on the whole array, for every mode and any chunk
shape (chunks smaller than the halo too: the halo spans as many neighbours as it needs).
Algorithms that are not shift-invariant start each piece on their block grid (downsample);
planar ones that size their levels from the whole image (dual-kawase, mip-poisson) get whole
axes, as the command line's streaming does.

blur_zarr does not exchange halos through dask: each of its tasks reads its chunk's piece straight
from the source store into buffers kept per thread from task to task, blurs it there and writes
its output chunk (_zarr_chunks.py: no fresh memory per chunk, no chunk held for its neighbours or
sent between workers), unless the pieces would decode far more of the source than they hold
(computation chunks much smaller than the source's), where the graph above does it. Same pieces,
same calls: the same bits.
"""
import bisect
import numbers
import os
import threading

import numpy as np
import dask
import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from . import _check_common, plan as _plan
from . import gaussian_filter as _np_gaussian_filter
from . import _zarr_chunks, _zarr_store
from ._gaussian_family import derivative as _family_derivative, sigma_per_axis, sqrt_in_place
from ._scipy_args import active_axes, axis_1d, check_axes, normalize_sequence
from ._zarr_store import is_complete

__all__ = ["gaussian_filter", "gaussian_filter1d", "blur_zarr", "halo", "is_complete"]

def _check_dask(x):
    if not isinstance(x, da.Array):
        raise TypeError(f"x must be a dask array, got {type(x).__name__} (use fastblur.gaussian_filter for NumPy "
                        "arrays, or dask.array.from_array / from_zarr)")
    if x.dtype.kind not in "biufc":
        raise RuntimeError(f"array type {x.dtype!r} not supported")
    if any(np.isnan(c) for cs in x.chunks for c in cs):
        raise ValueError("x has unknown chunk sizes (nan); call x.compute_chunk_sizes() first")
    if x.size and any(c == 0 for cs in x.chunks for c in cs):
        raise ValueError(f"x has a chunk of length 0 (chunks {x.chunks}); rechunk it, e.g. x.rechunk(x.chunksize)")


def _output_dtype(output, x):
    if output is None:
        return x.dtype
    if isinstance(output, np.ndarray):
        raise TypeError("output must be a dtype for dask arrays (the result is a new dask array)")
    dtype = np.dtype(output)
    if x.dtype.kind == "c" and dtype.kind != "c":
        raise RuntimeError("output must have complex dtype")
    return dtype


def _registry():
    from . import _core
    return {a["name"]: a for a in _core.algorithms()}


class _Halo:
    """Per axis: how far a piece reaches beyond its chunk (None: the whole axis), the block grid its
    start keeps (align), plus the algorithm and options every chunk runs."""

    def __init__(self, ndim):
        self.reach = [0] * ndim
        self.align = [1] * ndim
        self.radius = [None] * ndim  # the kernel radius chunks use where the plan sets it
        self.algorithm = None
        self.options = None
        self.rounding = None  # the plan's: a tolerance's fir is not SciPy's filter, even when named so


def _plan_halo(x, active, truncate, algorithm, tolerance, options, out_dtype, rounding):
    """Plans the whole array once (per group of three axes, as the core filters them) and returns the
    halo per axis with the algorithm and options all chunks must run."""
    h = _Halo(x.ndim)
    registry = _registry()
    # Complex data is blurred as its float64 parts (as the main module does).
    core_dtype = np.dtype(np.float64) if x.dtype.kind == "c" else x.dtype
    core_out = np.dtype(np.float64) if out_dtype.kind == "c" else out_dtype
    chosen, chosen_options = None, None
    for start in range(0, len(active), 3):
        group = active[start:start + 3]
        p = _plan([x.shape[g[0]] for g in group], [g[1] for g in group], dtype=core_dtype, output=core_out,
                  mode=[g[3] for g in group], truncate=truncate, radius=[g[4] for g in group],
                  order=[g[2] for g in group], algorithm=algorithm, tolerance=tolerance, options=options,
                  rounding=rounding)
        name = p["algorithm"]
        info = registry[name]
        # The options the plan runs with (the caller's and those its candidate chose, e.g. a
        # tolerance's downsample factor and truncation) and its resolved whole-plan parameters that
        # are options of its algorithm (levels sized from the whole image, say), so that a chunk
        # cannot plan differently.
        opts = {**options, **p["options"]}
        for par in info["parameters"]:
            key = par["key"]
            if key in p and not isinstance(p[key], (list, tuple)):
                opts[key] = p[key]
        if chosen is not None and (name != chosen or opts != chosen_options):
            raise RuntimeError(f"the axes plan to different algorithms ({chosen}, {name}); pass algorithm= explicitly")
        chosen, chosen_options = name, opts
        h.rounding = p["schedule"]["rounding"]
        # Algorithms that are not shift-invariant (downsampling's blocks) start pieces on the plan's
        # grid: the largest align of its axes, as the core's piece grid (fastblur::piece_grid) takes it.
        align = max(int(a) for a in p["align"])
        for i, ((ax, *_), support) in enumerate(zip(group, p["support"])):
            # Planar algorithms size their levels from the whole image: no piece equals it but the whole.
            h.reach[ax] = None if info["planar"] else int(support)
            h.align[ax] = align
            if info["exact"]:
                # The exact algorithms' kernel is the plan's radius (auto with a tolerance may shorten
                # fir's): every chunk takes the planned radius.
                h.radius[ax] = int(p["radius"][i])
    h.algorithm, h.options = chosen, chosen_options
    return h


def _axis_pieces(bounds, n, lo, hi, wrap):
    """The input intervals covering [lo, hi) of an axis of length n cut at `bounds` (chunk starts and
    n): (chunk index, start, stop) within each chunk, in order; periodic when `wrap`, else clipped."""
    if not wrap:
        lo, hi = max(lo, 0), min(hi, n)
    out = []
    p = lo
    while p < hi:
        q = p % n
        j = bisect.bisect_right(bounds, q) - 1
        stop = min(bounds[j + 1], q + (hi - p))
        out.append((j, q - bounds[j], stop - bounds[j]))
        p += stop - q
    return out


def _axis_plan(chunks, n, reach, align, wrap):
    """For each chunk of an axis: its pieces (see _axis_pieces) and where the chunk lies in them."""
    bounds = [0]
    for c in chunks:
        bounds.append(bounds[-1] + c)
    out = []
    for b in range(len(chunks)):
        s, e = bounds[b], bounds[b + 1]
        if len(chunks) == 1 or reach == 0:
            lo, hi, w = s, e, False            # the chunk alone: no halo needed
        elif reach is None or (wrap and align > 1):
            lo, hi, w = 0, n, False            # the whole axis (a wrap halo would break the block grid)
        else:
            reach = -(-reach // align) * align  # whole blocks of the algorithm's grid, as src/tiling
            lo, hi, w = (s - reach) // align * align, e + reach, wrap  # pieces start on that grid
        pieces = _axis_pieces(bounds, n, lo, hi, w)
        start = max(lo, 0) if not w else lo
        out.append((pieces, (s - start, e - start)))
    return out


def _host_slots():
    """Task slots per host of the current dask.distributed client's cluster, so that fastblur's
    threads per task times the tasks running at once match the host's cores; {} without a client."""
    try:
        from distributed import default_client
        client = default_client()
    except (ImportError, ValueError):
        return {}
    slots = {}
    for addr, w in client.scheduler_info().get("workers", {}).items():
        host = w.get("host") or addr.rsplit(":", 1)[0]
        slots[host] = slots.get(host, 0) + int(w.get("nthreads", 1))
    return slots


def _task_threads(requested, host_slots):
    """fastblur's threads for one chunk: the request, or the cores of this machine shared among the
    tasks that run at once on it (dask fills the cores with tasks already)."""
    if requested:
        return requested
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        worker = None
    if worker is not None:
        host = worker.address.split("://")[-1].rsplit(":", 1)[0]
        slots = host_slots.get(host) or getattr(worker, "nthreads", 1)
        return max(1, cores // slots)
    import multiprocessing
    if threading.current_thread() is threading.main_thread() and multiprocessing.parent_process() is None:
        return 0  # the synchronous scheduler: one task at a time, every core
    return max(1, cores // int(dask.config.get("num_workers", None) or cores))


def _blur_piece(parts, crop, kwargs, threads, host_slots, mask_parts=None):
    """Assembles a chunk with its halo from its parts (and its mask's, where mask= was given), blurs
    it with fastblur and returns the chunk."""
    if mask_parts is not None:
        kwargs = dict(kwargs, mask=np.block(mask_parts) if isinstance(mask_parts, list) else mask_parts)
    assembled = isinstance(parts, list)
    piece = np.block(parts) if assembled else parts
    if piece.dtype.isnative:
        # An unpickled array (from another process) carries an equal but distinct dtype object,
        # which the core's type check (by identity) refuses: view it with NumPy's own.
        piece = piece.view(np.dtype(piece.dtype.char))
    threads = _task_threads(threads, host_slots)
    if assembled and piece.dtype.kind == "f" and piece.dtype.itemsize <= 4 and np.dtype(kwargs["output"]) == piece.dtype:
        # float32/float16 pieces blur in place (the core allows aliasing; a piece we assembled is ours):
        # one piece less in the worker's memory.
        out = _np_gaussian_filter(piece, threads=threads, **dict(kwargs, output=piece))
    else:
        out = _np_gaussian_filter(piece, threads=threads, **kwargs)
    # A copy, so the piece with its halo is freed as soon as the task ends.
    return np.ascontiguousarray(out[tuple(slice(a, b) for a, b in crop)])


def _halo_part(block, index):
    """A copy of part of a chunk: a view would keep the whole neighbour chunk in the worker's memory."""
    return block[index].copy()


def _nest(axis_pieces, key, halo_name, block, dsk):
    """The nested list (one level per axis) of the keys of a chunk's parts; parts that are not whole
    input chunks become slicing tasks, so only the halo travels between workers."""
    def build(depth, index, sl, combo):
        if depth == len(axis_pieces):
            k = (key,) + tuple(index)
            whole = all(s is None for s in sl)
            if whole:
                return k
            name = (halo_name,) + tuple(block) + tuple(combo)
            dsk[name] = (_halo_part, k, tuple(slice(None) if s is None else slice(*s) for s in sl))
            return name
        out = []
        for i, (j, a, b, full) in enumerate(axis_pieces[depth]):
            out.append(build(depth + 1, index + [j], sl + [None if full else (a, b)], combo + [i]))
        return out
    return build(0, [], [], [])


def _pieces(x, active, cval, truncate, algorithm, tolerance, threads, options, rounding, out_dtype, missing=None):
    """Plans the whole array and returns the keywords every chunk's call takes, per axis the pieces of
    each chunk (see _axis_plan) and the cluster's task slots per host."""
    h = _plan_halo(x, active, truncate, algorithm, tolerance, options, out_dtype, rounding)
    active = [(ax, s, o, m, r if h.radius[ax] is None else h.radius[ax]) for ax, s, o, m, r in active]
    # output as a string: a dtype object unpickled in a worker would not be NumPy's own (see _blur_piece).
    kwargs = dict(sigma=[a[1] for a in active], order=[a[2] for a in active], mode=[a[3] for a in active],
                  radius=[a[4] for a in active], axes=[a[0] for a in active], cval=cval, truncate=truncate,
                  output=out_dtype.str, algorithm=h.algorithm, tolerance=tolerance, rounding=h.rounding,
                  options=h.options)
    if missing:  # nan_policy / preserve_nan: each piece a normalized convolution over its halo, as the whole
        kwargs.update(missing)
    modes = {a[0]: a[3] for a in active}
    per_axis = []
    for ax in range(x.ndim):
        per_axis.append(_axis_plan(x.chunks[ax], x.shape[ax], h.reach[ax], h.align[ax], modes.get(ax) == "wrap"))
    host_slots = _host_slots() if not threads else {}
    return kwargs, per_axis, host_slots


def _filter(x, active, cval, truncate, algorithm, tolerance, threads, options, rounding, out_dtype, missing=None,
            mask=None):
    """The lazy blur of dask array x along `active` axes: (axis, sigma, order, mode, radius) each;
    `missing` the module's nan_policy / preserve_nan keywords, or None; `mask` a dask array of x's
    chunks (mask=), whose pieces are assembled with the same halos as x's."""
    kwargs, per_axis, host_slots = _pieces(x, active, cval, truncate, algorithm, tolerance, threads, options,
                                           rounding, out_dtype, missing)
    token = tokenize(x, kwargs, threads, host_slots, mask)
    name, halo_name = "fastblur-gaussian-" + token, "fastblur-halo-" + token
    mask_halo_name = "fastblur-mask-halo-" + token
    dsk = {}
    for block in np.ndindex(*x.numblocks):
        axis_pieces, crop = [], []
        for ax, b in enumerate(block):
            pieces, c = per_axis[ax][b]
            chunk = x.chunks[ax]
            axis_pieces.append([(j, s, e, s == 0 and e == chunk[j]) for j, s, e in pieces])
            crop.append(c)
        parts = _nest(axis_pieces, x.name, halo_name, block, dsk)
        mask_parts = None if mask is None else _nest(axis_pieces, mask.name, mask_halo_name, block, dsk)
        if x.ndim and all(len(p) == 1 for p in axis_pieces):
            for _ in range(x.ndim):
                parts = parts[0]  # one part: no assembly
                mask_parts = None if mask_parts is None else mask_parts[0]
        dsk[(name,) + tuple(block)] = (_blur_piece, parts, tuple(crop), kwargs, threads, host_slots, mask_parts)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x] if mask is None else [x, mask])
    return da.Array(graph, name, x.chunks, meta=np.empty((0,) * x.ndim, dtype=out_dtype))


def _blur_store_chunk(source, target, coords, region, boxes, crop, kwargs, threads, host_slots):
    """blur_zarr's task for one output chunk on the store path: reads the chunk with its halo straight
    from the source zarr array into this thread's kept piece buffer, blurs it there, and writes the
    chunk's part into the target zarr array; returns the bytes written."""
    dtype = np.dtype(source.dtype.char)  # NumPy's own dtype object (see _blur_piece)
    shape = tuple(sum(b - a for a, b in ivs) for ivs in boxes)
    piece = _zarr_chunks.buffer("piece", shape, dtype)
    # The piece is the product of each axis's intervals (several where a wrap halo comes from the far end).
    offsets = []
    for ivs in boxes:
        at, offs = 0, []
        for a, b in ivs:
            offs.append(at)
            at += b - a
        offsets.append(offs)
    for index in np.ndindex(*[len(ivs) for ivs in boxes]):
        box = tuple(boxes[ax][i] for ax, i in enumerate(index))
        dest = tuple(slice(offsets[ax][i], offsets[ax][i] + b - a) for ax, (i, (a, b)) in enumerate(zip(index, box)))
        _zarr_chunks.read_box(source, box, piece[dest])
    threads = _task_threads(threads, host_slots)
    out_dtype = np.dtype(np.dtype(kwargs["output"]).char)
    if dtype.kind == "f" and dtype.itemsize <= 4 and out_dtype == dtype:
        out = piece  # in place, as _blur_piece blurs an assembled piece
    else:
        out = _zarr_chunks.buffer("out", shape, out_dtype)
    _np_gaussian_filter(piece, threads=threads, **dict(kwargs, output=out))
    return _zarr_chunks.write_chunk(target, coords, region, out[tuple(slice(a, b) for a, b in crop)])


def _store_tasks(x, source, target, todo, sigma, kwargs):
    """blur_zarr's store path: for each output chunk in `todo` (block coordinates of x, the source
    zarr array `source` as dask array with the computation's chunks) a task reading its piece from
    `source`, blurring it and writing `target`'s chunk; None where dask's halo exchange is the better
    way (the pieces would decode far more of the source than they hold: computation chunks much
    smaller than the source's) or there is nothing to filter."""
    args = _checked(x, sigma, **kwargs)
    if args is None or not source.dtype.isnative or not np.dtype(args[-1]).isnative:
        return None
    threads = args[5]
    kw, per_axis, host_slots = _pieces(x, *args)
    bounds = [np.concatenate([[0], np.cumsum(c)]).astype(int).tolist() for c in x.chunks]
    tasks, decoded, held = [], 0, 0
    for block in todo:
        boxes, crop, region = [], [], []
        for ax, b in enumerate(block):
            pieces, c = per_axis[ax][b]
            ivs = []
            for j, s, e in pieces:
                a, z = bounds[ax][j] + s, bounds[ax][j] + e
                if ivs and ivs[-1][1] == a:
                    ivs[-1] = (ivs[-1][0], z)
                else:
                    ivs.append((a, z))
            boxes.append(tuple(ivs))
            crop.append(c)
            region.append(slice(bounds[ax][b], bounds[ax][b + 1]))
        for index in np.ndindex(*[len(ivs) for ivs in boxes]):
            box = tuple(boxes[ax][i] for ax, i in enumerate(index))
            decoded += _zarr_chunks.decoded_size(source, box)
            held += int(np.prod([b - a for a, b in box]))
        tasks.append((_blur_store_chunk, source, target, tuple(block), tuple(region), tuple(boxes), tuple(crop), kw,
                      threads, host_slots))
    if decoded > 8 * held:
        return None
    return tasks


def halo(x, sigma, order=0, mode="reflect", truncate=4.0, *, radius=None, axes=None, algorithm="auto",
         tolerance=0.0, options=None, output=None, rounding="scipy"):
    """The halo per axis that gaussian_filter gives each chunk of `x` (a dask array or a shape):
    an int per axis, or None where the whole axis is needed; and the algorithm every chunk runs."""
    shaped = x if isinstance(x, da.Array) else da.empty(tuple(int(n) for n in x), chunks=-1)
    out_dtype = _output_dtype(output, shaped)
    tolerance, _, options = _check_common(algorithm, tolerance, "cpu", 0, rounding, options)
    active = active_axes(shaped.ndim, sigma, order, mode, truncate, radius, axes)
    h = _plan_halo(shaped, active, float(truncate), algorithm, tolerance, options, out_dtype, rounding)
    return h.reach, h.algorithm


def _check_cval(cval):
    if not isinstance(cval, numbers.Number) or isinstance(cval, complex) or np.iscomplexobj(cval):
        raise TypeError(f"must be real number, not {type(cval).__name__}")
    return float(cval)


def gaussian_filter(x, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None,
                    axes=None, algorithm="auto", tolerance=0.0, threads=0, rounding="scipy", options=None,
                    nan_policy="propagate", mask=None, preserve_nan=False):
    """``fastblur.gaussian_filter`` of a dask array, lazily, chunk by chunk: a dask array with x's
    chunks. The arguments are the module's (``output`` is a dtype here); ``threads`` is fastblur's
    threads per chunk, 0 (default) sharing each machine's cores among the tasks running on it.
    Results equal one call on the whole array: bit-identical for fir (and the exact default on float64
    and integer data), within the algorithm's tolerance for the approximations. Raises as the module
    does; TypeError for a non-dask x, ValueError for chunks of length 0."""
    missing = _missing(nan_policy, mask, preserve_nan)
    args = _checked(x, sigma, order, output, mode, cval, truncate, radius=radius, axes=axes, algorithm=algorithm,
                    tolerance=tolerance, threads=threads, rounding=rounding, options=options)
    mask = _chunked_mask(mask, x)
    if args is None:
        return x.astype(_output_dtype(output, x))
    return _filter(x, *args, missing=missing, mask=mask)


def _missing(nan_policy, mask, preserve_nan):
    """The module's missing-data keywords for each chunk's call, or None: NaN omitted, as one call on
    the whole array would (a piece's halo covers the kernel's reach for the weights as for the values)."""
    if nan_policy not in ("propagate", "omit"):
        raise ValueError(f"nan_policy must be 'propagate' or 'omit', got {nan_policy!r}")
    if nan_policy == "propagate" and mask is None:
        if preserve_nan:
            raise ValueError("preserve_nan needs nan_policy='omit' or a mask")
        return None
    return dict(nan_policy=nan_policy, preserve_nan=bool(preserve_nan))


def _chunked_mask(mask, x):
    """mask= as a dask array of x's shape and chunks (each chunk's piece is then assembled with its
    halo as x's is), or None. A NumPy mask is wrapped; a dask one rechunked; the module checks the
    values (bool flags or float certainty) on each piece as on the whole."""
    if mask is None:
        return None
    m = mask if isinstance(mask, da.Array) else da.from_array(np.asarray(mask), chunks=x.chunks)
    if m.shape != x.shape:
        raise ValueError(f"mask has shape {m.shape}, the array {x.shape}: they must be the same")
    return m.rechunk(x.chunks)


def _checked(x, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None, axes=None,
             algorithm="auto", tolerance=0.0, threads=0, rounding="scipy", options=None):
    """gaussian_filter's arguments checked: _filter's after x, or None where no axis is filtered."""
    _check_dask(x)
    out_dtype = _output_dtype(output, x)
    tolerance, threads, options = _check_common(algorithm, tolerance, "cpu", threads, rounding, options)
    if x.dtype.kind != "c":
        cval = _check_cval(cval)
    active = active_axes(x.ndim, sigma, order, mode, truncate, radius, axes)
    if not active or x.size == 0:
        return None
    return (active, cval, float(truncate), algorithm, tolerance, threads, options, rounding, out_dtype)


def gaussian_filter1d(x, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None, algorithm="auto", tolerance=0.0, threads=0, rounding="scipy", options=None,
                      nan_policy="propagate", mask=None, preserve_nan=False):
    """``fastblur.gaussian_filter1d`` of a dask array along ``axis``, lazily (see gaussian_filter)."""
    missing = _missing(nan_policy, mask, preserve_nan)
    _check_dask(x)
    mask = _chunked_mask(mask, x)
    out_dtype = _output_dtype(output, x)
    tolerance, threads, options = _check_common(algorithm, tolerance, "cpu", threads, rounding, options)
    active = axis_1d(x.ndim, sigma, axis, order, mode, truncate, radius)
    if x.dtype.kind != "c":
        cval = _check_cval(cval)
    if not active or x.size == 0:
        return x.astype(out_dtype)
    return _filter(x, active, cval, float(truncate), algorithm, tolerance, threads, options, rounding, out_dtype,
                   missing=missing, mask=mask)


def _generic(x, derivative, output, mode, cval, sigma, kwargs, axes, square):
    """The module's gaussian_laplace / gaussian_gradient_magnitude (_gaussian_family.py) on a dask
    array: the same derivative calls, lazily, combined block by block with NumPy's in-place
    arithmetic in the output dtype (so integers wrap and round as SciPy's do)."""
    _check_dask(x)
    out_dtype = _output_dtype(output, x)
    axes = check_axes(axes, x.ndim)
    sigma = sigma_per_axis(sigma, axes, x.ndim)
    if len(axes) == 0:
        return x.astype(out_dtype)
    modes = normalize_sequence(mode, len(axes))
    square_block = lambda b: np.multiply(b, b, out=b.copy())  # noqa: E731
    out = derivative(x, axes[0], out_dtype, modes[0], cval, sigma, **kwargs)
    if square:
        out = out.map_blocks(square_block, dtype=out_dtype)
    for ii in range(1, len(axes)):
        tmp = derivative(x, axes[ii], out_dtype, modes[ii], cval, sigma, **kwargs)
        if square:
            tmp = tmp.map_blocks(square_block, dtype=out_dtype)
        out = da.map_blocks(lambda a, b: np.add(a, b, out=a.copy()), out, tmp, dtype=out_dtype)
    if square:
        def sqrt_block(b):
            b = b.copy()
            sqrt_in_place(b)
            return b
        out = out.map_blocks(sqrt_block, dtype=out_dtype)
    return out


def gaussian_laplace(x, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """``fastblur.gaussian_laplace`` of a dask array, lazily, chunk by chunk (each second derivative is
    this module's gaussian_filter; keywords as there). Results equal the module's on the whole array
    where its gaussian_filter's do (bit-identical for the exact default)."""
    return _generic(x, _family_derivative(gaussian_filter, 2), output, mode, cval, sigma, kwargs, axes, square=False)


def gaussian_gradient_magnitude(x, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """``fastblur.gaussian_gradient_magnitude`` of a dask array, lazily (see gaussian_laplace)."""
    return _generic(x, _family_derivative(gaussian_filter, 1), output, mode, cval, sigma, kwargs, axes, square=True)


def blur_zarr(src, dst, sigma, *, chunks=None, overwrite=False, compressor="default", progress=False, **kwargs):
    """Blurs the zarr array ``src`` into a new zarr array ``dst`` (a path or store) chunk by chunk with
    gaussian_filter; ``kwargs`` are its keywords (order, output, mode, cval, truncate, radius, axes,
    algorithm, tolerance, threads, rounding, options). ``chunks`` sets the chunks of the computation
    and of dst (default: src's); ``compressor`` dst's (zarr's default Blosc, or None). Runs on dask's
    current scheduler (a dask.distributed Client when one is active); ``progress`` shows dask's
    progress bar. Resumes an incomplete dst written with the same parameters; refuses another
    existing dst unless ``overwrite``. Returns dst opened read-only."""
    return _zarr_store.blur_zarr(gaussian_filter, src, dst, sigma, chunks=chunks, overwrite=overwrite,
                                 compressor=compressor, progress=progress, store_tasks=_store_tasks,
                                 release=_zarr_chunks.release, **kwargs)
