"""Runs SciPy's own ndimage filter tests against fastblur: before they are imported, SciPy's
gaussian_filter and gaussian_filter1d are replaced by fastblur's - in scipy.ndimage, which the tests
call, and in scipy.ndimage._filters, whose gaussian_laplace and gaussian_gradient_magnitude call
them - so every test of those functions exercises our module with SciPy's expectations."""
import pytest
import scipy.ndimage
import scipy.ndimage._filters

import fastblur

for module in (scipy.ndimage, scipy.ndimage._filters):
    module.gaussian_filter = fastblur.gaussian_filter
    module.gaussian_filter1d = fastblur.gaussian_filter1d


# The documented difference: SciPy refuses float16 input, fastblur blurs it (in float32). Strict,
# so the day it passes (or another test fails) the suite says so.
FLOAT16_BY_DESIGN = {"test_gaussian_filter"}


def pytest_collection_modifyitems(items):
    for item in items:
        if item.name in FLOAT16_BY_DESIGN:
            item.add_marker(pytest.mark.xfail(strict=True, reason="float16 input is accepted by design"))
