#!/usr/bin/env bash
# What a Python user installs, tested as they get it (issue 27): the wheel built by the project's
# PEP 517 build (pyproject.toml, setup.py) from this checkout's build tree, installed with pip into a
# fresh virtual environment outside the source tree (--system-site-packages for numpy/scipy, no
# index: offline), then
#  1. the extension's and every bundled library's NEEDED entries: only glibc, libstdc++/libgcc, libm
#     and what the wheel carries in fastblur.libs/ (never the Vulkan loader), and the tag names the
#     glibc it needs;
#  2. `import fastblur` with the Vulkan loader unavailable: CPU calls work, the device list is the CPU,
#     device='vulkan' says in one line that no Vulkan loader was found;
#  3. the Python test suite (tests/python, as the python_module test runs it) against the installed
#     package, from a directory outside the source tree.
# Usage: wheel_test.sh SOURCE_DIR BUILD_DIR PYTHON
set -euo pipefail
src=$1 build=$2 python=$3
work=$(mktemp -d /tmp/fastblur-wheel-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "wheel test in $work"
FASTBLUR_CMAKE_BUILD_DIR=$build "$python" -m build --wheel --no-isolation --outdir "$work/dist" "$src" >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; echo "FAILED: the wheel did not build"; exit 1; }
wheel=$(ls "$work"/dist/fastblur-*.whl)
echo "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
case $(basename "$wheel") in
  *-manylinux_2_*_x86_64.whl|*-manylinux_2_*_aarch64.whl) ;;
  *) echo "FAILED: the wheel's tag does not name the glibc it needs: $(basename "$wheel")"; exit 1 ;;
esac

"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --no-index --no-deps --no-cache-dir --quiet "$wheel"
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
ext=$(ls "$site"/fastblur/_core*.so)
echo "installed into $site ($(du -sk "$site/fastblur" "$site/fastblur.libs" | awk '{s+=$1} END {print s}') KiB)"

# 1. Needed libraries.
bad=0
for f in "$ext" "$site"/fastblur.libs/*; do
  for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case $lib in
      libc.so.*|libm.so.*|libstdc++.so.*|libgcc_s.so.*|ld-linux-*.so.*|libdl.so.*|libpthread.so.*|librt.so.*) ;;
      *) if [ ! -e "$site/fastblur.libs/$lib" ]; then echo "FAILED: $(basename "$f") needs $lib, which the wheel does not carry"; bad=1; fi ;;
    esac
    case $lib in libvulkan*) echo "FAILED: $(basename "$f") links the Vulkan loader ($lib)"; bad=1 ;; esac
  done
done
[ $bad = 0 ] || exit 1
echo "needed libraries: $(readelf -d "$ext" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"

# 2. No Vulkan loader.
cd "$work"
FASTBLUR_VULKAN_LOADER=/nonexistent/libvulkan.so.1 "$work/venv/bin/python" - "$site" <<'PY'
import sys
import numpy as np
import fastblur
assert fastblur.__file__.startswith(sys.argv[1]), fastblur.__file__
a = np.random.default_rng(0).random((32, 24))
assert np.allclose(fastblur.gaussian_filter(a, 2.0).sum(), a.sum(), rtol=1e-3)
names = [d["name"] for d in fastblur.devices()]
assert names == ["cpu"], names
try:
    fastblur.gaussian_filter(a, 2.0, device="vulkan")
except Exception as e:  # noqa: BLE001 - its type and message are what is checked
    message = str(e)
    assert "no Vulkan loader" in message and "\n" not in message, message
    print(f"device='vulkan' without a loader: {type(e).__name__}: {message}")
else:
    raise AssertionError("device='vulkan' ran without a Vulkan loader")
PY

# 3. The test suite against the installed package (no PYTHONPATH; run from outside the tree).
FASTBLUR_EXPECT_PACKAGE_IN=$site FASTBLUR_BUILD_DIR=$build "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir="$work" \
  --ignore="$src/tests/python/test_dask.py" --ignore="$src/tests/python/test_dask_zarr.py" \
  --ignore="$src/tests/python/test_dask_cluster.py" "$src/tests/python"
echo "the installed wheel passes"
