"""plan, analyze, the kernel helpers, docstrings, and the installed package."""
import inspect
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
import scipy.ndimage as nd

import fastblur


def test_plan_reports_the_choice_and_its_prediction():
    p = fastblur.plan((1080, 1920), 3.0)
    assert p["algorithm"] == "fir" and p["radius"] == [12, 12] and p["predicted_max_error"] < 1e-3
    p = fastblur.plan((512, 512), 40.0, tolerance=1e-2)
    assert p["algorithm"] != "fir" and p["predicted_max_error"] <= 1e-2
    assert p["considered"] and "plan:" in p["description"]
    p = fastblur.plan((64, 64), 5.0, algorithm="kawase")
    assert len(p["kawase_offsets"]) == 2 and len(p["kawase_offsets"][0]) > 0
    with pytest.raises(ValueError):
        fastblur.plan((64, 64), 5.0, tolerance=-1)
    # An array itself, as gaussian_filter takes it: its shape and dtype (found trying plan() as a user).
    a = np.zeros((150, 230, 4), np.uint8)
    p = fastblur.plan(a, (5, 5, 0))
    assert p == fastblur.plan((150, 230, 4), (5, 5, 0), dtype=np.uint8)
    assert fastblur.plan(a, (5, 5, 0), dtype=np.float64) == fastblur.plan((150, 230, 4), (5, 5, 0), dtype=np.float64) != p
    with pytest.raises(TypeError, match="a tuple of ints or an array"):
        fastblur.plan("image", 5.0)


def test_analyze_returns_the_design_metrics():
    m = fastblur.analyze("box", 5.0, options={"box_passes": 3})
    assert abs(m["effective_sigma"] - 5.0) < 1e-6
    assert 0.0 < m["max_error"] < 0.07 and 0.0 < m["l1_error"] < 0.06 and 30 < m["psnr_db"] < 80
    f = fastblur.analyze("fir", 3.0, anisotropy=False, psnr=False)
    assert f["max_error"] < 1e-3 and f["anisotropy"] is None and f["psnr_db"] is None
    # The core's analyze, as `fastblur analyze --json` (tests/cli): auto is planned and named.
    a = fastblur.analyze("auto", 3.0, options={})
    assert a["algorithm"] == "fir" and a["predicted_max_error"] < 1e-4 and a["psnr_db"] > 60
    with pytest.raises(ValueError, match="sigma"):
        fastblur.analyze("fir", 0.0)


def test_analyze_is_the_command_lines():
    # One analyze in the core: the CLI's --json and Python's dict are the same object, number for number.
    build = os.environ.get("FASTBLUR_BUILD_DIR")
    if not build:
        pytest.skip("FASTBLUR_BUILD_DIR not set (ctest sets it)")
    import json
    for args, algorithm, options in ((["--algorithm", "box", "--passes", "4"], "box", {"box_passes": 4}),
                                     ([], "auto", {}), (["--algorithm", "iir"], "iir", {})):
        r = subprocess.run([os.path.join(build, "fastblur"), "analyze", "--sigma", "3.5", "--json", *args],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        cli = json.loads(r.stdout)
        assert cli.pop("plots") == []
        assert cli == fastblur.analyze(algorithm, 3.5, options=options), args


def test_gaussian_kernel_is_scipys():
    for sigma, order in [(1.0, 0), (2.5, 1), (4.0, 2)]:
        r = int(4 * sigma + 0.5)
        impulse = np.zeros(2 * r + 1)
        impulse[r] = 1.0
        want = nd.gaussian_filter1d(impulse, sigma, order=order, mode="constant")
        np.testing.assert_allclose(fastblur.gaussian_kernel(sigma, order=order), want, atol=1e-15)


def test_linear_sampling_reproduces_the_kernel(rng):
    w = fastblur.gaussian_kernel(3.0)
    taps = fastblur.linear_sampling(w)
    assert len(taps) < len(w)
    x = rng.random(200)
    xs = np.arange(200.0)
    want = np.convolve(x, w, mode="same")[50:150]
    got = sum(wt * np.interp(xs[50:150] + off, xs, x) for off, wt in taps)
    np.testing.assert_allclose(got, want, atol=1e-12)
    g = fastblur.linear_sampling_gaussian(3.0)
    np.testing.assert_allclose(g[:, 1].sum(), 1.0, atol=1e-12)
    q = fastblur.linear_sampling_2d(np.outer(w, w))
    assert q.shape[1] == 3 and abs(q[:, 2].sum() - 1.0) < 1e-12


def test_schedules_and_series():
    sigma = 7.3
    offsets = fastblur.kawase_schedule(sigma)
    k = fastblur.kawase_kernel(offsets)
    x = np.arange(len(k)) - len(k) // 2
    assert abs(np.sqrt((k * x * x).sum()) - sigma) < 1e-9
    assert set(fastblur.kawase_presets()) == {"0,1,2,2,3", "2,3,3,3"}
    p = fastblur.box_passes(sigma, 3)
    assert p.shape == (3, 2)
    radius, beta, w = fastblur.sliding_dct_kernel(sigma)
    assert len(w) == 2 * radius + 1 and abs(w.sum() - 1) < 1e-12 and len(beta) == 6
    assert abs(fastblur.binomial_kernel(4).sum() - 1) < 1e-15
    assert fastblur.incremental_gaussian(2.0, 5).dtype == np.float64
    assert fastblur.radius_for_precision(2.0, 1 / 255) > 0 and fastblur.sigma_for_precision(8, 1 / 255) > 0
    assert {a["name"] for a in fastblur.algorithms()} >= {"auto", "fir", "box", "iir", "kawase", "sliding-dct"}


def test_every_public_function_has_a_docstring():
    assert fastblur.__doc__ and "SciPy" in fastblur.__doc__
    for name in fastblur.__all__:
        obj = getattr(fastblur, name)
        assert inspect.getdoc(obj), name
    params = inspect.signature(fastblur.gaussian_filter).parameters
    for p in ("input", "sigma", "order", "output", "mode", "cval", "truncate", "radius", "axes", "algorithm",
              "tolerance", "device", "threads"):
        assert p in params


def test_cmake_install_puts_it_where_debians_python_finds_it(tmp_path):
    build = os.environ.get("FASTBLUR_BUILD_DIR")
    if not build:
        pytest.skip("FASTBLUR_BUILD_DIR not set (ctest sets it)")
    stage = tmp_path / "stage"
    subprocess.run(["cmake", "--install", build, "--prefix", "/usr/local", "--component", "Unspecified"],
                   check=True, env={**os.environ, "DESTDIR": str(stage)}, capture_output=True)
    found = list(stage.rglob("fastblur/__init__.py"))
    assert len(found) == 1, found
    site = found[0].parent.parent
    on_path = "/" + str(site.relative_to(stage))
    paths = subprocess.run([sys.executable, "-c", "import sys; print('\\n'.join(sys.path))"], check=True,
                           capture_output=True, text=True).stdout.split()
    assert on_path in paths, (on_path, paths)
    r = subprocess.run([sys.executable, "-c", "import fastblur, numpy; print(fastblur.gaussian_filter(numpy.ones((4, 4)), 1).sum())"],
                       env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert abs(float(r.stdout) - 16.0) < 1e-9
