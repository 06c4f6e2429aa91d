"""The hostile corpus through the command line: `fastblur blur IN.npy OUT.npy` with the request as
options. Each error is one line on stderr with a non-zero status; the output is never created and
the input is untouched."""
import hashlib
import os
import subprocess
import tempfile

import numpy as np
import pytest

from corpus import cases, check_message, value

CLI = os.environ.get("FASTBLUR_CLI", "fastblur")
FLAGS = {"sigma": "--sigma", "truncate": "--truncate", "radius": "--radius", "border": "--border", "cval": "--cval",
         "algorithm": "--algorithm", "tolerance": "--tolerance", "device": "--device", "threads": "--threads",
         "rounding": "--rounding"}


def option_flags():
    """Registry key -> the command line's flag, from the Python module's registry if it is built,
    else the keys' own spelling (the CLI derives both from one registry)."""
    try:
        import fastblur
        return {p["key"]: "--" + p["flag"] for a in fastblur.algorithms() for p in a["parameters"]}
    except ImportError:
        return {}


def text(v):
    v = value(v)
    if isinstance(v, list):
        return ",".join(text(x) for x in v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def arguments(request):
    args = []
    for key, flag in FLAGS.items():
        if key in request:
            v = request[key]
            if isinstance(v, dict) and "latin1" in v:  # bytes that are not UTF-8, as a shell passes them
                args += [flag.encode(), v["latin1"].encode("latin1")]
            else:
                args += [flag, text(v)]
    flags = option_flags()
    for key, v in request.get("options", {}).items():
        args += [flags.get(key, "--" + key.replace("_", "-")), text(v)]
    return args


def make_array(shape, dtype):
    rng = np.random.default_rng(5)
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind == "c":
        return (rng.random(shape) + 1j * rng.random(shape)).astype(dtype)
    return (rng.random(shape) * 200).astype(dtype)


@pytest.mark.parametrize("name,request_,expect", cases("cli"))
def test_verdict(name, request_, expect):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.npy"), os.path.join(d, "out.npy")
        np.save(src, make_array(tuple(request_["shape"]), request_["dtype"]))
        digest = hashlib.sha256(open(src, "rb").read()).hexdigest()
        proc = subprocess.run([CLI, "blur", src, dst, *arguments(request_)], capture_output=True, timeout=120)
        stderr = proc.stderr.decode("utf-8", "replace")
        if expect["class"] == "ok":
            assert proc.returncode == 0, stderr
            assert os.path.exists(dst)
        else:
            assert proc.returncode != 0, f"{name}: accepted"
            assert proc.returncode < 128, f"{name}: died of a signal ({proc.returncode})"
            assert stderr.startswith("fastblur: error: "), stderr
            check_message(stderr.strip(), expect)
            assert not os.path.exists(dst), f"{name}: an output was written"
            assert sorted(os.listdir(d)) == ["in.npy"], f"{name}: left {os.listdir(d)}"
        assert hashlib.sha256(open(src, "rb").read()).hexdigest() == digest, f"{name}: the input changed"
