"""The CLI's start-up: nothing calibrated that the command does not use (issue 44). Debian's libhwy.so
measures its timer at load for nanobenchmark, which fastblur never calls; the executable answers that
call itself (tools/fastblur/hwy_timer_at_load.cpp). Run by ctest with Debian's python3."""
import os
import statistics
import subprocess
import time

CLI = os.environ.get("FASTBLUR_CLI", "fastblur")


def test_libhwys_load_time_timer_calibration_is_answered_by_the_executable():
    env = dict(os.environ, LD_DEBUG="bindings")
    proc = subprocess.run([CLI, "--version"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    bindings = [line for line in proc.stderr.splitlines() if "_ZN3hwy8platform15TimerResolutionEv" in line]
    # libhwy's initializer looks the function up through its PLT (Debian's 1.0.3 does); where a
    # future libhwy no longer does, there is nothing to bind and nothing to answer.
    for line in bindings:
        target = line.split(" to ", 1)[1].split(" [", 1)[0]
        assert os.path.basename(target) == os.path.basename(CLI), line


def test_version_starts_in_a_few_milliseconds():
    # The target is 10 ms on a 2-core VM (bench/RESULTS.md); here a loose bound, for sanitizer builds
    # and busy machines: the median of 15 runs under 150 ms (libhwy's calibration alone was ~3 ms,
    # the old 400 ms image-library load would fail it).
    times = []
    for _ in range(15):
        t = time.perf_counter()
        subprocess.run([CLI, "--version"], capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    assert statistics.median(times) < 0.150, times
