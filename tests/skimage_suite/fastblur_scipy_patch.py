"""pytest plugin (``-p fastblur_scipy_patch``): scikit-image's installed tests run with
``fastblur.patch_scipy()`` in effect from before collection to the end of the session, so every
scipy.ndimage Gaussian call underneath scikit-image is fastblur's; the calls routed are counted and
the session fails if there were none (the patch reached nothing) or if unpatching did not bring
SciPy's own functions back."""
import functools

import scipy.ndimage

import fastblur

NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")
CALLS = {name: 0 for name in NAMES}
_ORIGINALS = {}


def _counting(name, ours):
    @functools.wraps(ours)
    def call(*args, **kwargs):
        CALLS[name] += 1
        return ours(*args, **kwargs)
    return call


def pytest_configure(config):
    for name in NAMES:
        _ORIGINALS[name] = getattr(scipy.ndimage, name)
        setattr(fastblur, name, _counting(name, getattr(fastblur, name)))
    fastblur.patch_scipy()


def pytest_sessionfinish(session, exitstatus):
    fastblur.unpatch_scipy()
    restored = all(getattr(scipy.ndimage, name) is _ORIGINALS[name] for name in NAMES)
    if sum(CALLS.values()) == 0 or not restored:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line("scipy.ndimage Gaussian calls routed through fastblur: " +
                                ", ".join(f"{name} {count}" for name, count in CALLS.items()))
