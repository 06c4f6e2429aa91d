"""The Python package's build (pyproject.toml runs it through packaging/backend.py): the project's
CMake build of the module only (the core library, the pybind11 extension, the Python files), then a
self-contained extension as auditwheel makes one - every shared library it needs beyond glibc,
libstdc++/libgcc and libm copied into fastblur.libs/ under a name of its own (its hash in it, so it
never clashes with another copy a process has loaded) and found through the extension's RPATH
(patchelf) - and a wheel tag naming the glibc the result needs (manylinux_2_X for the newest
GLIBC_2.X symbol version it uses). The Vulkan loader is not linked: the core opens it when a
Vulkan device is asked for. Offline; needs cmake, a C++20 compiler, pybind11-dev, the core's -dev
packages (README) and patchelf."""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
# What a manylinux system provides and the wheel may rely on (PEP 600's policy, the C/C++ runtime).
SYSTEM = re.compile(r"^(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux-x86-64|ld-linux-aarch64)\.so")
LIBS_DIR = "fastblur.libs"


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(fastblur VERSION ([0-9.]+)", f.read()).group(1)


def needed(path):
    out = subprocess.run(["readelf", "-d", path], check=True, capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def resolved(path):
    """NEEDED name -> the file the dynamic loader picks for `path` (ldd)."""
    out = subprocess.run(["ldd", path], check=True, capture_output=True, text=True).stdout
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s*(\S+) => (/\S+)", out, re.M)}


def glibc_needed(paths):
    newest = (2, 17)
    for p in paths:
        out = subprocess.run(["objdump", "-T", p], check=True, capture_output=True, text=True).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", out):
            newest = max(newest, (int(major), int(minor)))
    return newest


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # FASTBLUR_CMAKE_BUILD_DIR: an existing build tree of this checkout (the README's), whose module
        # is built (or brought up to date) there instead of configuring a new one - what ctest's wheel
        # test uses; the packaging, bundling and tagging are the same.
        build_dir = os.environ.get("FASTBLUR_CMAKE_BUILD_DIR") or os.path.abspath(os.path.join(self.build_temp, "cmake"))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        if not os.environ.get("FASTBLUR_CMAKE_BUILD_DIR"):
            self.configure(build_dir)
        subprocess.run(["cmake", "--build", build_dir, "--target", "fastblur_python", "--parallel", jobs], check=True)
        package = os.path.join(build_dir, "python", "fastblur")
        target = os.path.abspath(os.path.join(self.build_lib, "fastblur"))
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        self.bundle(os.path.join(target, "_core" + suffix), os.path.join(os.path.dirname(target), LIBS_DIR))

    @staticmethod
    def configure(build_dir):
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                     f"-DPython_EXECUTABLE={sys.executable}", "-DFASTBLUR_ENABLE_PYTHON=ON",
                     "-DFASTBLUR_ENABLE_VULKAN=ON", "-DFASTBLUR_ENABLE_CLI=OFF", "-DFASTBLUR_ENABLE_TESTS=OFF",
                     "-DFASTBLUR_ENABLE_BENCH=OFF", "-DFASTBLUR_ENABLE_FUZZ=OFF"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        subprocess.run(configure, check=True)

    @staticmethod
    def bundle(extension, libs_dir):
        """Copies what `extension` needs beyond the system's into libs_dir under hashed names and points
        the extension (and the copies, at each other) there."""
        os.makedirs(libs_dir, exist_ok=True)
        renamed = {}  # original soname -> bundled name
        todo = [extension]
        while todo:
            path = todo.pop()
            where = resolved(path)
            for name in needed(path):
                if SYSTEM.match(name) or name in renamed:
                    continue
                source = where.get(name)
                if not source:
                    raise RuntimeError(f"{os.path.basename(path)} needs {name}, which the loader does not find")
                with open(source, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()[:8]
                stem, _, rest = name.partition(".so")
                renamed[name] = f"{stem}-{digest}.so{rest}"
                copy = os.path.join(libs_dir, renamed[name])
                shutil.copyfile(source, copy)
                os.chmod(copy, 0o755)
                subprocess.run(["patchelf", "--set-soname", renamed[name], copy], check=True)
                todo.append(copy)
        for path in [extension] + [os.path.join(libs_dir, n) for n in renamed.values()]:
            for old in needed(path):
                if old in renamed:
                    subprocess.run(["patchelf", "--replace-needed", old, renamed[old], path], check=True)
            rpath = "$ORIGIN/../" + LIBS_DIR if path == extension else "$ORIGIN"
            subprocess.run(["patchelf", "--set-rpath", rpath, path], check=True)


os.makedirs(os.path.join(ROOT, "build-wheel"), exist_ok=True)  # setuptools wants egg_base to exist
cmdclass = {"build_ext": CMakeBuild}
try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        """The tag: this interpreter's, and manylinux_2_X for the newest glibc symbol version the
        extension and its bundled libraries use (computed after the build)."""
        def get_tag(self):
            python, abi, plat = super().get_tag()
            files = []
            for base, _, names in os.walk(self.bdist_dir):
                files += [os.path.join(base, n) for n in names if ".so" in n]
            if files and plat.startswith("linux_"):
                major, minor = glibc_needed(files)
                plat = f"manylinux_{major}_{minor}_{plat[len('linux_'):]}"
            return python, abi, plat

    cmdclass["bdist_wheel"] = PlatformWheel
except ImportError:
    pass

setup(
    # Build products beside the README's build/ (ignored: build-*/), not inside it.
    options={"build": {"build_base": "build-wheel"}, "egg_info": {"egg_base": "build-wheel"}},
    version=version(),
    packages=[],
    ext_modules=[Extension("fastblur._core", sources=[])],
    cmdclass=cmdclass,
    zip_safe=False,
)
