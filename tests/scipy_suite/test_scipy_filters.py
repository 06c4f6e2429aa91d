"""SciPy's installed scipy/ndimage/tests/test_filters.py, collected here so that conftest.py's
replacement applies (imported, never copied). One difference is by design and expected to fail:
float16 input, which SciPy refuses and fastblur blurs."""
import pytest
import scipy.ndimage.tests.test_filters as scipy_tests
from scipy.ndimage.tests.test_filters import *  # noqa: F401,F403 - the tests themselves

import fastblur

assert scipy_tests.ndimage.gaussian_filter.__wrapped__ is fastblur.gaussian_filter, "conftest.py did not patch SciPy"
