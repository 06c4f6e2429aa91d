"""One line for everything underneath: route scipy.ndimage's Gaussian functions through fastblur
(``fastblur.patch_scipy``, ``unpatch_scipy``, ``scipy_patched`` call this module with the package's
functions).

``patch_scipy()`` replaces ``gaussian_filter``, ``gaussian_filter1d``, ``gaussian_laplace`` and
``gaussian_gradient_magnitude`` in ``scipy.ndimage`` (the names libraries such as scikit-image call
as ``ndi.gaussian_filter``) and in ``scipy.ndimage._filters`` (where SciPy's own functions - its
``gaussian_laplace``, ``gaussian_gradient_magnitude``, ``generic_*`` - look them up) with fastblur's,
which take the same arguments and give SciPy's bits, so results do not change. ``unpatch_scipy()``
puts SciPy's own function objects back. Calls nest and are thread-safe: each patch is undone by one
unpatch, and SciPy's functions return when the last is undone. ``scipy_patched()`` is the same as a
context manager. What is not changed: code that imported a function by name before the patch
(``from scipy.ndimage import gaussian_filter`` at its import) keeps SciPy's; float16 input, which
SciPy refuses, is blurred (in float32) while patched.
"""
import contextlib
import functools
import threading

NAMES = ("gaussian_filter", "gaussian_filter1d", "gaussian_laplace", "gaussian_gradient_magnitude")

_lock = threading.Lock()
_depth = 0
_originals = {}  # (module, name) -> SciPy's function object


def _modules():
    import scipy.ndimage
    import scipy.ndimage._filters
    return (scipy.ndimage, scipy.ndimage._filters)


def _replacement(ours):
    @functools.wraps(ours)
    def call(*args, **kwargs):
        return ours(*args, **kwargs)

    call.__fastblur_patch__ = True
    return call


def patch(functions):
    """Routes scipy.ndimage's Gaussian functions through `functions` (name -> fastblur's; see the
    module's docstring)."""
    global _depth
    with _lock:
        if _depth == 0:
            for module in _modules():
                for name in NAMES:
                    current = getattr(module, name)
                    if getattr(current, "__fastblur_patch__", False):
                        raise RuntimeError(f"scipy's {module.__name__}.{name} is already fastblur's, patched outside fastblur")
                    _originals[(module, name)] = current
            replacements = {name: _replacement(functions[name]) for name in NAMES}
            for module in _modules():
                for name in NAMES:
                    setattr(module, name, replacements[name])
        _depth += 1


def unpatch():
    """Undoes one patch(); the last one puts SciPy's own functions back (RuntimeError if none is in effect)."""
    global _depth
    with _lock:
        if _depth == 0:
            raise RuntimeError("scipy is not patched by fastblur")
        _depth -= 1
        if _depth == 0:
            for (module, name), original in _originals.items():
                setattr(module, name, original)
            _originals.clear()


@contextlib.contextmanager
def patched(functions):
    """A block with scipy.ndimage's Gaussian functions routed through `functions`, undone on the way
    out, exceptions included."""
    patch(functions)
    try:
        yield
    finally:
        unpatch()
