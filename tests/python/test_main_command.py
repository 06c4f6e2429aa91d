"""`python3 -m fastblur`: its algorithm options are generated from the registry (as the C++
command line's are, tools/fastblur/algorithm_options.cpp), so every algorithm option can be given;
a bad value is one line on stderr with a nonzero exit status, and nothing is written (issue 26)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import fastblur


def run(*args):
    return subprocess.run([sys.executable, "-m", "fastblur", *map(str, args)], capture_output=True, text=True,
                          env=dict(os.environ), timeout=120)


@pytest.fixture
def npy(tmp_path, rng):
    a = (rng.random((40, 50)) * 100).astype(np.float32)
    path = tmp_path / "in.npy"
    np.save(path, a)
    return path, a


def test_an_algorithm_option_runs_that_algorithm(npy, tmp_path):
    path, a = npy
    out = tmp_path / "out.npy"
    r = run(path, out, "--sigma", 2, "--algorithm", "box", "--passes", 4)
    assert r.returncode == 0, r.stderr
    want = fastblur.gaussian_filter(a, 2.0, algorithm="box", options={"box_passes": 4})
    assert np.array_equal(np.load(out), want)
    # `blur` may be named; a flag shared by two algorithms sets the named one's parameter.
    out2 = tmp_path / "out2.npy"
    r = run("blur", path, out2, "--sigma", 2, "--algorithm", "kawase", "--passes", 3)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(out2), fastblur.gaussian_filter(a, 2.0, algorithm="kawase",
                                                                   options={"kawase_passes": 3}))
    # Option text is read by the core, as the C++ command line reads it: a whole real for an integer,
    # a comma list of reals.
    out3 = tmp_path / "out3.npy"
    r = run(path, out3, "--sigma", 2, "--algorithm", "box", "--passes", "4.0")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(out3), want)
    r = run(path, out3, "--sigma", 2, "--algorithm", "kawase", "--offsets", "0.5,1.5,2.5", "--overwrite")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(out3), fastblur.gaussian_filter(a, 2.0, algorithm="kawase",
                                                                   options={"kawase_offsets": [0.5, 1.5, 2.5]}))


@pytest.mark.parametrize("args,words", [
    (("--algorithm", "box", "--passes", "99"), ["99"]),             # out of range: the core's check
    (("--algorithm", "box", "--passes", "x"), ["--passes", "x"]),    # not a number
    (("--algorithm", "box", "--passes", "4.5"), ["--passes", "1 to 6", "4.5"]),  # not whole
    (("--passes", "3"), ["--passes", "--algorithm"]),                # auto: which algorithm's?
    (("--algorithm", "fir", "--passes", "3"), ["--passes", "fir"]),  # not fir's option
    (("--tolerance", "-1"), ["tolerance", "must be a finite value >= 0"]),
    (("--no-such-option", "1"), ["no-such-option"]),
])
def test_a_bad_value_is_one_line_and_a_nonzero_status(npy, tmp_path, args, words):
    path, _ = npy
    out = tmp_path / "bad.npy"
    r = run(path, out, "--sigma", 2, *args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    assert not out.exists() and os.listdir(tmp_path) == ["in.npy"]


def test_every_registry_option_is_offered():
    r = run("blur", "--help")
    assert r.returncode == 0
    for a in fastblur.algorithms():
        assert a["name"] in r.stdout
        for p in a["parameters"]:
            assert f"--{p['flag']}" in r.stdout, p["flag"]
