"""fastblur.patch_scipy / unpatch_scipy / scipy_patched: scipy.ndimage's four Gaussian functions
routed through fastblur (the public names and scipy.ndimage._filters, where SciPy's own functions
look them up) with SciPy's bits, undone exactly (SciPy's own function objects back), nested, under
exceptions and from many threads at once."""
import threading

import numpy as np
import pytest
import scipy.ndimage as nd
import scipy.ndimage._filters as filters

import fastblur

NAMES = ["gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude"]


def originals():
    return {(m.__name__, n): getattr(m, n) for m in (nd, filters) for n in NAMES}


def is_patched():
    return all(getattr(getattr(m, n), "__fastblur_patch__", False) for m in (nd, filters) for n in NAMES)


def test_patch_routes_through_fastblur_with_scipy_bits(rng):
    before = originals()
    a = (rng.random((40, 33)) * 255).astype(np.uint8)
    want = {n: getattr(nd, n)(a, 1.7) for n in NAMES}
    fastblur.patch_scipy()
    try:
        assert is_patched()
        for n in NAMES:
            assert getattr(nd, n).__wrapped__ is getattr(fastblur, n)
            got = getattr(nd, n)(a, 1.7)
            assert got.dtype == want[n].dtype and got.tobytes() == want[n].tobytes(), n
        # SciPy's own gaussian_laplace (kept by whoever imported it before) now calls fastblur's filter.
        got = before[("scipy.ndimage._filters", "gaussian_laplace")](a.astype(np.float16), 1.2)
        assert got.dtype == np.float16  # SciPy's filter refuses float16; fastblur's blurs it
    finally:
        fastblur.unpatch_scipy()
    after = originals()
    assert all(after[k] is before[k] for k in before), "SciPy's own functions are back"
    with pytest.raises(RuntimeError):
        nd.gaussian_filter(a.astype(np.float16), 1.0)


def test_nesting_and_exceptions():
    before = originals()
    with fastblur.scipy_patched():
        fastblur.patch_scipy()
        fastblur.unpatch_scipy()
        assert is_patched(), "an inner unpatch leaves the outer patch"
        with pytest.raises(ZeroDivisionError):
            with fastblur.scipy_patched():
                raise ZeroDivisionError
        assert is_patched()
    assert all(originals()[k] is before[k] for k in before)
    with pytest.raises(RuntimeError, match="not patched"):
        fastblur.unpatch_scipy()


def test_threads(rng):
    before = originals()
    a = rng.random((64, 64))
    want = nd.gaussian_filter(a, 2.0)
    errors = []

    def worker():
        try:
            for _ in range(40):
                with fastblur.scipy_patched():
                    got = nd.gaussian_filter(a, 2.0)
                    if got.tobytes() != want.tobytes():
                        errors.append("different bits")
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(originals()[k] is before[k] for k in before)
