"""python3 -m fastblur blur IN.zarr OUT.zarr --sigma S[,S...] [options] [--scheduler ADDRESS | --workers N]

Blurs a zarr array into a new one chunk by chunk with fastblur.dask (see fastblur.dask.blur_zarr):
on this process's threads by default, on N local worker processes with --workers, or on an
existing dask.distributed scheduler with --scheduler. Shows dask's progress bar on a terminal. An
interrupted run leaves OUT marked incomplete; the same command resumes it. Errors are one line on
stderr; the exit status is 2 for bad arguments, 1 for other failures, 130 when interrupted.
"""
import argparse
import sys


def _list(kind):
    def parse(text):
        try:
            items = [kind(t) for t in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of {kind.__name__}") from None
        return items[0] if len(items) == 1 else items
    return parse


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m fastblur", description="fastblur on zarr stores, with dask")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("blur", help="blur a zarr array into a new zarr array, chunk by chunk",
                       description="Blur the zarr array IN into the zarr array OUT chunk by chunk (fastblur.dask).")
    b.add_argument("input", metavar="IN.zarr")
    b.add_argument("output", metavar="OUT.zarr")
    b.add_argument("--sigma", required=True, type=_list(float), help="one value, or one per axis (array order)")
    b.add_argument("--order", type=_list(int), default=0, help="derivative order, or one per axis (default 0)")
    b.add_argument("--mode", type=_list(str), default="reflect",
                   help="reflect (default), mirror, nearest, wrap, constant; or one per axis")
    b.add_argument("--cval", type=float, default=0.0, help="the value beyond the edges for constant")
    b.add_argument("--truncate", type=float, default=4.0, help="radius = int(truncate * sigma + 0.5) (default 4)")
    b.add_argument("--radius", type=_list(int), default=None, help="explicit radius, or one per axis")
    b.add_argument("--axes", type=_list(int), default=None, help="the axes to blur (default: all)")
    b.add_argument("--algorithm", default="auto", help="fir, box, iir, sliding-dct, ... (default auto)")
    b.add_argument("--tolerance", type=float, default=0.0, help="max error auto may trade for speed (default 0)")
    b.add_argument("--threads", type=int, default=0, help="fastblur threads per chunk (default: cores / tasks)")
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


def _blur(args):
    from .dask import blur_zarr

    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    kwargs = dict(order=args.order, mode=args.mode, cval=args.cval, truncate=args.truncate, radius=args.radius,
                  axes=args.axes, algorithm=args.algorithm, tolerance=args.tolerance, threads=args.threads,
                  output=args.dtype, chunks=args.chunks, overwrite=args.overwrite, progress=progress,
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
    args = _parser().parse_args(argv)
    try:
        _blur(args)
    except KeyboardInterrupt:
        print(f"fastblur: interrupted; {args.output} is marked incomplete, the same command resumes it", file=sys.stderr)
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
