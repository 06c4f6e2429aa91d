"""python3 -m fastblur [blur] IN OUT --sigma S[,S...] [options] [--scheduler ADDRESS | --workers N]

IN and OUT are .npy files (blurred in memory by fastblur.gaussian_filter) or zarr arrays (blurred
chunk by chunk with fastblur.dask, see fastblur.dask.blur_zarr: on this process's threads by
default, on N local worker processes with --workers, or on an existing dask.distributed scheduler
with --scheduler; dask's progress bar on a terminal; an interrupted run leaves OUT marked
incomplete and the same command resumes it). The algorithm options (--passes, --variant, ...)
are generated from the registry (fastblur.algorithms()), as the C++ command line's are. Errors are
one line on stderr; the exit status is 2 for bad arguments, 1 for other failures, 130 when
interrupted.
"""
import argparse
import os
import sys


def _list(kind):
    def parse(text):
        try:
            items = [kind(t) for t in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of {kind.__name__}") from None
        return items[0] if len(items) == 1 else items
    return parse


class _Parser(argparse.ArgumentParser):
    """argparse's parser with one-line errors (no usage block), exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parameters_by_flag(algorithms):
    """Every algorithm parameter by its command-line flag (several algorithms may share one)."""
    out = {}
    for a in algorithms:
        for p in a["parameters"]:
            out.setdefault(p["flag"], []).append((a["name"], p))
    return out


def _value(text, p):
    """A parameter's text as its value, read by the core as the C++ command line reads it
    (set_parameter_text: the same words, numbers and ranges), the message in the flag's words."""
    from ._core import parameter_from_text
    try:
        return parameter_from_text(p["key"], text)
    except ValueError:
        raise ValueError(f"--{p['flag']} must be {p['range']}; got {text!r}") from None


def _add_algorithm_options(b, algorithms):
    """--algorithm, --tolerance and one option per parameter flag, from the registry."""
    names = ", ".join(a["name"] for a in algorithms)
    b.add_argument("--algorithm", default="auto", help=f"one of {names} (default auto)")
    b.add_argument("--tolerance", type=float, default=0.0, help="max error auto may trade for speed (default 0)")
    group = b.add_argument_group("algorithm options (from the registry)")
    for flag, targets in sorted(_parameters_by_flag(algorithms).items()):
        doc = "; ".join(f"{name}: {p['doc']} ({p['range']})" for name, p in targets)
        if all(p["kind"] == "flag" for _, p in targets):
            group.add_argument(f"--{flag}", dest=f"param:{flag}", action="store_true", default=None, help=doc)
        else:
            group.add_argument(f"--{flag}", dest=f"param:{flag}", default=None, metavar="VALUE", help=doc)


def _algorithm_options(args, algorithms):
    """The options dict (parameter key -> value) the given flags mean for the named algorithm."""
    options = {}
    for flag, targets in _parameters_by_flag(algorithms).items():
        given = getattr(args, f"param:{flag}")
        if given is None:
            continue
        chosen = [(name, p) for name, p in targets if name == args.algorithm]
        if not chosen:
            owners = " and ".join(name for name, _ in targets)
            raise ValueError(f"--{flag} is an option of {owners}" +
                             (": name the algorithm with --algorithm (auto chooses its candidates' parameters)"
                              if args.algorithm == "auto" else f", not of {args.algorithm}"))
        _, p = chosen[0]
        options[p["key"]] = True if given is True else _value(given, p)
    return options


def _parser(algorithms):
    p = _Parser(prog="python3 -m fastblur", description="fastblur on .npy files and zarr stores (with dask)")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("blur", help="blur a .npy array or a zarr array (chunk by chunk) into a new one",
                       description="Blur IN into OUT: .npy files in memory (fastblur.gaussian_filter), zarr "
                       "arrays chunk by chunk (fastblur.dask).")
    b.add_argument("input", metavar="IN", help="a .npy file or a zarr array")
    b.add_argument("output", metavar="OUT", help="a .npy file (for a .npy IN) or a zarr array")
    b.add_argument("--sigma", required=True, type=_list(float), help="one value, or one per axis (array order)")
    b.add_argument("--order", type=_list(int), default=0, help="derivative order, or one per axis (default 0)")
    b.add_argument("--mode", type=_list(str), default="reflect",
                   help="reflect (default), mirror, nearest, wrap, constant; or one per axis")
    b.add_argument("--cval", type=float, default=0.0, help="the value beyond the edges for constant")
    b.add_argument("--truncate", type=float, default=4.0, help="radius = int(truncate * sigma + 0.5) (default 4)")
    b.add_argument("--radius", type=_list(int), default=None, help="explicit radius, or one per axis")
    b.add_argument("--axes", type=_list(int), default=None, help="the axes to blur (default: all)")
    _add_algorithm_options(b, algorithms)
    b.add_argument("--threads", type=int, default=0, help="fastblur threads (per chunk: default cores / tasks)")
    b.add_argument("--rounding", choices=("scipy", "nearest"), default="scipy",
                   help="scipy (default): SciPy's bits; nearest: rounded once")
    b.add_argument("--dtype", default=None, help="output dtype (default: the input's)")
    b.add_argument("--chunks", type=_list(int), default=None, help="chunks of the computation and of OUT "
                   "(default: IN's)")
    b.add_argument("--compressor", choices=("default", "none"), default="default",
                   help="OUT's compressor: zarr's default (Blosc) or none")
    b.add_argument("--overwrite", action="store_true", help="replace an existing OUT")
    where = b.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="an existing dask.distributed scheduler, e.g. "
                       "tcp://10.0.0.1:8786")
    where.add_argument("--workers", type=int, metavar="N", help="start a local cluster of N worker processes")
    b.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="dask's progress bar (default: when stderr is a terminal)")
    return p


def _is_npy(path):
    return path.lower().endswith(".npy")


def _blur_npy(args, filter_kwargs):
    """A .npy file blurred in memory, written to a temporary file and renamed (complete or absent)."""
    import numpy as np

    from . import gaussian_filter

    if not _is_npy(args.output):
        raise ValueError(f"OUT '{args.output}' must be a .npy file for a .npy IN")
    for given, flag in ((args.scheduler, "--scheduler"), (args.workers, "--workers"), (args.chunks, "--chunks")):
        if given is not None:
            raise ValueError(f"{flag} is for zarr arrays; IN is a .npy file")
    if os.path.abspath(args.input) == os.path.abspath(args.output):
        raise ValueError(f"OUT '{args.output}' is IN")
    if os.path.exists(args.output) and not args.overwrite:
        raise FileExistsError(f"'{args.output}' exists; pass --overwrite to replace it")
    a = np.load(args.input, allow_pickle=False)
    out = gaussian_filter(a, args.sigma, **filter_kwargs)
    temporary = args.output + ".partial.npy"
    try:
        np.save(temporary, out, allow_pickle=False)
        os.replace(temporary, args.output)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def _blur(args, algorithms):
    options = _algorithm_options(args, algorithms)
    filter_kwargs = dict(order=args.order, mode=args.mode, cval=args.cval, truncate=args.truncate, radius=args.radius,
                         axes=args.axes, algorithm=args.algorithm, tolerance=args.tolerance, threads=args.threads,
                         output=args.dtype, rounding=args.rounding, options=options)
    if _is_npy(args.input):
        _blur_npy(args, filter_kwargs)
        return
    from .dask import blur_zarr

    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    kwargs = dict(filter_kwargs, chunks=args.chunks, overwrite=args.overwrite, progress=progress,
                  compressor=None if args.compressor == "none" else "default")
    if args.scheduler is None and args.workers is None:
        blur_zarr(args.input, args.output, args.sigma, **kwargs)
        return
    from distributed import Client, LocalCluster

    if args.scheduler is not None:
        with Client(args.scheduler, timeout=30):
            blur_zarr(args.input, args.output, args.sigma, **kwargs)
        return
    # Its scheduler and workers listen on loopback only.
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        with Client(cluster):
            blur_zarr(args.input, args.output, args.sigma, **kwargs)


def main(argv=None):
    from . import algorithms as registry

    algorithms = registry()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in ("blur", "-h", "--help"):
        argv.insert(0, "blur")  # blur is the only command: it may be left out
    args = _parser(algorithms).parse_args(argv)
    try:
        _blur(args, algorithms)
    except KeyboardInterrupt:
        if _is_npy(args.input):
            print(f"fastblur: interrupted; {args.output} was not written", file=sys.stderr)
        else:
            print(f"fastblur: interrupted; {args.output} is marked incomplete, the same command resumes it",
                  file=sys.stderr)
        return 130
    except (ValueError, TypeError, RuntimeError, FileExistsError) as e:
        print(f"fastblur: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # one line, as the C++ command's errors
        print(f"fastblur: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
