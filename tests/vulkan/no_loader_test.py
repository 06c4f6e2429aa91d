"""The Vulkan loader is a run-time dependency (issue 27, src/vulkan/loader.cpp), checked on the
products themselves: the CLI and the Python module carry no NEEDED entry for libvulkan, open it only
when a Vulkan device is asked for, and without it (FASTBLUR_VULKAN_LOADER naming a missing file)
list the CPU alone, blur on the CPU, and refuse device='vulkan' with one line saying what to install.

    no_loader_test.py --cli PATH [--python-dir DIR] [--readelf PATH]
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

MESSAGE = ("no Vulkan loader (libvulkan.so.1) was found: install the Vulkan loader (Debian: libvulkan1) "
           "and a driver to use device='vulkan'")
MISSING = "/nonexistent/libvulkan.so.1"
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(cmd, extra_env=None):
    env = dict(os.environ)
    env.pop("FASTBLUR_VULKAN_LOADER", None)
    env.update(extra_env or {})
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def needed(readelf, path):
    out = subprocess.run([readelf, "-d", path], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line]


def opened_vulkan(result):
    """Whether the dynamic linker's LD_DEBUG=files trace shows libvulkan being opened."""
    return any("file=libvulkan" in line for line in result.stderr.splitlines())


def write_npy(path, rows, cols):
    """A float32 array of ones, written by hand so the CLI's checks need no NumPy."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % (rows * cols), *([1.0] * (rows * cols))))


def check_cli(cli, work):
    src, dst = os.path.join(work, "in.npy"), os.path.join(work, "out.npy")
    write_npy(src, 8, 8)
    no_loader = {"FASTBLUR_VULKAN_LOADER": MISSING}
    r = run([cli, "devices"], no_loader)
    check(r.returncode == 0 and "cpu: always available" in r.stdout and
          ("vulkan: none (" + MESSAGE) in r.stdout and "vulkan:0" not in r.stdout,
          "CLI without a loader: `devices` lists the CPU alone and says why (%r)" % r.stdout.strip())
    r = run([cli, "blur", src, dst, "-s", "1"], no_loader)
    check(r.returncode == 0 and os.path.exists(dst), "CLI without a loader: a CPU blur works (%s)" % r.stderr.strip())
    r = run([cli, "blur", src, dst, "-s", "1", "--device", "vulkan"], no_loader)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    check(r.returncode != 0 and len(lines) == 1 and MESSAGE in lines[0] and MISSING in lines[0],
          "CLI without a loader: --device vulkan fails with one line naming the loader (%r)" % r.stderr.strip())
    r = run([cli, "blur", src, dst, "-s", "1"], {"LD_DEBUG": "files"})
    check(r.returncode == 0 and not opened_vulkan(r), "CLI: a CPU blur never opens libvulkan")


PYTHON_NO_LOADER = r"""
import numpy as np, fastblur
names = [d["name"] for d in fastblur.devices()]
assert names == ["cpu"], names
out = fastblur.gaussian_filter(np.ones((8, 8), np.float32), 1)
assert np.allclose(out, 1), out
for attempt in range(2):
    try:
        fastblur.gaussian_filter(np.ones((8, 8), np.float32), 1, device="vulkan")
    except RuntimeError as e:
        message = str(e)
        assert message.startswith(%r), message
        assert "\n" not in message, message
    else:
        raise AssertionError("device='vulkan' worked without a loader")
print(message)
""" % MESSAGE

PYTHON_CPU_ONLY = r"""
import numpy as np, fastblur
fastblur.gaussian_filter(np.ones((8, 8), np.float32), 1)
fastblur.gaussian_filter(np.ones((8, 8), np.uint8), 2, algorithm="box")
"""


def check_python(python_dir):
    env = {"PYTHONPATH": python_dir}
    r = run([sys.executable, "-c", PYTHON_NO_LOADER], dict(env, FASTBLUR_VULKAN_LOADER=MISSING))
    check(r.returncode == 0 and r.stdout.startswith(MESSAGE),
          "Python without a loader: devices() is the CPU, CPU filters work, device='vulkan' raises "
          "RuntimeError with the one line (%s)" % (r.stdout.strip() or r.stderr.strip()[-2000:]))
    r = run([sys.executable, "-c", PYTHON_CPU_ONLY], dict(env, LD_DEBUG="files"))
    check(r.returncode == 0 and not opened_vulkan(r), "Python: import and CPU filters never open libvulkan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python-dir")
    parser.add_argument("--readelf")
    args = parser.parse_args()
    binaries = [args.cli]
    if args.python_dir:
        package = os.path.join(args.python_dir, "fastblur")
        binaries += [os.path.join(package, f) for f in sorted(os.listdir(package))
                     if f.startswith("_core") and f.endswith(".so")]
    if args.readelf:
        for path in binaries:
            libs = needed(args.readelf, path)
            check(not any("vulkan" in lib for lib in libs), "%s NEEDED has no libvulkan: %s" %
                  (os.path.basename(path), " ".join(libs)))
    with tempfile.TemporaryDirectory() as work:
        check_cli(args.cli, work)
    if args.python_dir:
        check_python(args.python_dir)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
