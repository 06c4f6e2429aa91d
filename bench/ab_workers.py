"""The A/B scripts' workers (bench/module_ab.py, bench/photos_ab.py): one Python process per build of
the module (pybind11 registers a type once a process), driven over pipes."""
import os
import subprocess
import sys


def spawn(worker, spec):
    """A process running `worker` (Python source) on the module build at `path`, or `path:NAME=value`
    with one more environment variable (an experiment's switch)."""
    path, _, setting = spec.partition(":")
    env = dict(os.environ)
    if setting:
        name, value = setting.split("=", 1)
        env[name] = value
    return subprocess.Popen([sys.executable, "-c", worker, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)
