"""The PEP 517 backend: setuptools' own (setuptools.build_meta), run from Debian's setuptools and
wheel even where pip's build isolation hides the system's site-packages and nothing can be
downloaded. The project builds offline by design, so instead of asking pip to fetch setuptools into
an isolated environment (which fails without a network), this backend puts the interpreter's own
site-packages (where python3-setuptools and python3-wheel live) on the path when setuptools is not
importable otherwise."""
import os
import site
import sys
import sysconfig


def _add_system_site_packages():
    candidates = []
    for scheme_vars in ({"base": sys.base_prefix, "platbase": sys.base_exec_prefix},):
        for key in ("purelib", "platlib"):
            candidates.append(sysconfig.get_path(key, vars=scheme_vars))
    candidates += [os.path.join(sys.base_prefix, "lib", "python3", "dist-packages"),
                   os.path.join(sys.base_prefix, "local", "lib", "python3", "dist-packages")]
    try:
        candidates += site.getsitepackages()
    except AttributeError:
        pass
    for path in candidates:
        if path and os.path.isdir(os.path.join(path, "setuptools")) and path not in sys.path:
            sys.path.append(path)


try:
    import setuptools  # noqa: F401
    import wheel  # noqa: F401
except ImportError:
    _add_system_site_packages()

from setuptools.build_meta import *  # noqa: E402,F401,F403 - the backend's hooks


# setuptools asks for `wheel` to be installed into the build environment; it is already importable
# here (Debian's python3-wheel), and asking would make pip try to download it.
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
