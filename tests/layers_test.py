#!/usr/bin/python3
"""Layers point one way (docs/DESIGN.md, "Layers"): every `#include "..."` in src/, include/, tools/,
python/src/ and bench/, and every import between the modules of python/fastblur/, goes to the same
layer or a lower one; the front ends (tools, python, bench) see only the public headers (tools also
src/io, a library of its own). Fails naming file:line for each include that crosses upward.

    /usr/bin/python3 tests/layers_test.py [ROOT]

Before the real tree it checks itself on a small tree with an upward include planted, so a checker
that can no longer fail fails too."""
import ast
import os
import re
import sys
import tempfile

# The library's layers, lowest first: a unit may include its own layer and the ones below. In a layer
# marked independent its units may not include one another either (the two backends).
LAYERS = [
    ("api", ["api"], False),                    # the public vocabulary: views, specs, plans, devices
    ("core", ["core"], False),                  # views, elements and their conversion, borders, threads
    ("kernel", ["kernel"], False),              # the math: weights, schedules, coefficients
    ("tiling", ["tiling"], False),              # pieces with halos (the planner sizes GPU tiles with it)
    ("plan", ["algorithms", "plan"], False),    # descriptors and the planner
    ("backends", ["cpu", "vulkan"], True),      # the CPU and Vulkan executors (and the shaders)
    ("front door", ["front_door"], False),      # blur(), make_plan(spec, view, device), devices
    ("tools of the library", ["analysis", "codegen"], True),  # metrics and plots; shader code generation
    ("umbrella", ["umbrella"], False),          # fastblur/fastblur.hpp: every public header
    ("io", ["io"], False),                      # image and array files (the fastblur_io library)
]
RANK = {unit: rank for rank, (_, units, _) in enumerate(LAYERS) for unit in units}
INDEPENDENT = {unit for _, units, independent in LAYERS if independent for unit in units}

# The front ends: public headers, their own directory, and these units only.
FRONT_ENDS = {"tools": {"io"}, "python": set(), "bench": set()}

# Each public header's layer: the layer that implements what it declares. The vocabulary headers
# (types every layer speaks; their entry points, blur() and make_plan(), are implemented above) are
# "api"; an include of one says nothing about a call, which the layers cannot check.
PUBLIC_HEADERS = {
    "error.hpp": "api", "view.hpp": "api", "algorithm.hpp": "api", "algorithm_list.def": "api",
    "blur.hpp": "api", "plan.hpp": "api", "device.hpp": "api", "version.hpp": "api",
    "validate.hpp": "api",  # the common options' checks and the device grammar (src/validate.cpp)
    "serialize.hpp": "plan",  # plans and the registry as JSON (src/plan/serialize.cpp)
    "kernel.hpp": "kernel", "kernel_iir.hpp": "kernel", "kernel_sliding_dct.hpp": "kernel",
    "kernel_dual_kawase.hpp": "kernel", "kernel_mip_poisson.hpp": "kernel",
    "reference.hpp": "cpu", "vulkan.hpp": "vulkan", "cuda.hpp": "front_door",
    "derivative_step.hpp": "cpu",  # the family's element-wise steps (src/cpu/derivative_step.cpp)
    "derivative_sum.hpp": "front_door",  # the family through the front door (src/derivative_sum.cpp)
    "missing_data.hpp": "front_door",  # normalized convolution through the front door (src/missing_data.cpp)
    "analysis.hpp": "analysis", "codegen.hpp": "codegen",
    "fastblur.hpp": "umbrella",
}

# Private files outside a directory of their own.
SRC_FILES = {
    "device_access.hpp": "api",  # Device's private half: the vk::Context behind it (forward-declared)
    "front_door.hpp": "front_door", "front_door.cpp": "front_door", "blur.cpp": "front_door",
    "device.cpp": "front_door", "blur_slices.cpp": "front_door", "cuda_arrays.cpp": "front_door", "cuda_arrays_internal.hpp": "front_door",
    "derivative_sum.cpp": "front_door", "missing_data.cpp": "front_door", "missing_rules.hpp": "front_door",
    "validate.cpp": "api",  # validate.hpp's checks: they include only the vocabulary
}

# Stated exceptions: (including file, included path or prefix ending in '/') -> why. Keep them few.
EXCEPTIONS = {
    # A white-box benchmark: it times the Vulkan backend's own stages (transfers, recorders, a job's
    # submission) on the device's context, which no public header exposes, and should not.
    ("bench/gpu_bench.cpp", "vulkan/"): "white-box benchmark of the Vulkan backend's stages",
    ("bench/gpu_bench.cpp", "device_access.hpp"): "white-box benchmark: the device's Vulkan context",
    # Its floors (a copy kernel, an empty dispatch, recorded on the backend's context) and its traffic
    # model (each algorithm's resolved passes and the recorders' image layouts), for the same reason.
    ("bench/gpu_floor.hpp", "vulkan/"): "white-box benchmark: the floors on the backend's context",
    ("bench/gpu_floor.cpp", "vulkan/"): "white-box benchmark: the floors on the backend's context",
    ("bench/gpu_model.cpp", "vulkan/"): "white-box benchmark: the recorders' layouts in the traffic model",
    ("bench/gpu_model.cpp", "algorithms/"): "white-box benchmark: each algorithm's resolved passes in the model",
    # Every named variant of a plan (issue 47's levers) is a case of its own, from the planner's table.
    ("bench/gpu_bench.cpp", "algorithms/gpu_variants.hpp"): "white-box benchmark: the plan's named GPU variants",
    # SciPy's order's line kernels timed alone (the certified uint8 sums against the double sums): no
    # public call runs one line.
    ("bench/scipy_rows_bench.cpp", "cpu/"): "white-box benchmark of SciPy's order's line kernels",
}

# Quoted includes of other projects (Highway's own convention) and files generated into the build tree.
EXTERNAL = ("hwy/",)
GENERATED = {"fastblur/version.hpp": "api", "shaders/": "vulkan", "gpu_profiles.inc": "algorithms"}

SCANNED = ["src", "include", "tools", "python/src", "bench"]
SOURCE_EXT = (".cpp", ".hpp", ".h", ".cc", ".inc", ".def")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

# python/fastblur's modules, lowest first: each may import only the ones before it.
PY_MODULES = ["_core", "_scipy_args", "_mask_rules", "_foreign_arrays", "_gaussian_family", "_scipy_patch", "__init__", "torch", "_zarr_chunks", "_zarr_store", "dask", "__main__"]


def unit_of(root, path):
    """The unit of a repository-relative path, or None for a file the table does not place."""
    parts = path.split("/")
    if parts[0] == "include" and len(parts) == 3 and parts[1] == "fastblur":
        return PUBLIC_HEADERS.get(parts[2])
    if parts[0] == "src":
        if len(parts) == 2:
            return SRC_FILES.get(parts[1])
        return parts[1] if parts[1] in RANK else None
    if parts[0] == "tools":
        return "tools"
    if parts[:2] == ["python", "src"]:
        return "python"
    if parts[0] == "bench":
        return "bench"
    return None


def resolve(root, including, target):
    """(repository-relative path or None, unit or None, external?) of `#include "target"` in `including`."""
    here = os.path.dirname(including)
    for base in (here, "include", "src"):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate, unit_of(root, candidate), False
    if target.startswith(EXTERNAL):
        return None, None, True
    for prefix, unit in GENERATED.items():
        if target == prefix or (prefix.endswith("/") and target.startswith(prefix)):
            return target, unit, False
    return None, None, False


def excepted(including, target):
    for (path, included), _ in EXCEPTIONS.items():
        if path == including and (target == included or (included.endswith("/") and target.startswith(included))):
            return True
    return False


def check_includes(root):
    problems, used = [], set()
    for top in SCANNED:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                unit = unit_of(root, path)
                if unit is None:
                    problems.append(f"{path}: not in the layer table (tests/layers_test.py): place it")
                    continue
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                    lines = f.readlines()
                for number, line in enumerate(lines, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    resolved, to, external = resolve(root, path, target)
                    if external:
                        continue
                    where = f"{path}:{number}: #include \"{target}\""
                    if to is None:
                        problems.append(f"{where}: not found or not in the layer table")
                        continue
                    if excepted(path, target):
                        used.add(next(k for k in EXCEPTIONS if k[0] == path and
                                      (k[1] == target or (k[1].endswith("/") and target.startswith(k[1])))))
                        continue
                    public = resolved.startswith("include/") or target in GENERATED and to == "api"
                    if unit in FRONT_ENDS:
                        if to == unit or public or to in FRONT_ENDS[unit]:
                            continue
                        problems.append(f"{where}: a front end ({unit}) includes a private header of {to}; "
                                        "use a public header")
                    elif path.startswith("include/") and not public:
                        problems.append(f"{where}: a public header includes a private one")
                    elif RANK[to] > RANK[unit]:
                        problems.append(f"{where}: {unit} (layer {LAYERS[RANK[unit]][0]}) includes {to} "
                                        f"(layer {LAYERS[RANK[to]][0]}, above it)")
                    elif RANK[to] == RANK[unit] and to != unit and unit in INDEPENDENT:
                        problems.append(f"{where}: {unit} includes {to}, an independent unit of its layer")
    for key in EXCEPTIONS:
        if key not in used:
            problems.append(f"exception {key[0]} -> {key[1]} no longer used: remove it from tests/layers_test.py")
    return problems


def imported_modules(tree, package="fastblur"):
    """(line, module) for each import of one of the package's modules, function bodies included."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None or node.level == 0 and node.module == package:
                for alias in node.names:  # `from . import x`: a module x, else a name of the package
                    out.append((node.lineno, alias.name if alias.name in PY_MODULES else "__init__"))
            elif node.level == 1:
                out.append((node.lineno, node.module.split(".")[0]))
            elif node.level == 0 and node.module and node.module.startswith(package + "."):
                out.append((node.lineno, node.module.split(".")[1]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    out.append((node.lineno, alias.name.split(".")[1]))
    return out


def check_python(root):
    problems = []
    package = os.path.join(root, "python", "fastblur")
    if not os.path.isdir(package):
        return problems
    for name in sorted(os.listdir(package)):
        if not name.endswith(".py"):
            continue
        module = name[:-3]
        path = f"python/fastblur/{name}"
        if module not in PY_MODULES:
            problems.append(f"{path}: not in PY_MODULES (tests/layers_test.py): place it")
            continue
        with open(os.path.join(package, name), encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
        for line, imported in imported_modules(tree):
            if imported not in PY_MODULES:
                problems.append(f"{path}:{line}: imports fastblur.{imported}, not in PY_MODULES")
            elif imported != module and PY_MODULES.index(imported) > PY_MODULES.index(module):
                problems.append(f"{path}:{line}: {module} imports {imported}, a module above it")
    return problems


def self_test():
    """The checker fails on a planted upward include and a planted upward import."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        write("include/fastblur/view.hpp", "#pragma once\n")
        write("src/plan/planner.hpp", '#include "fastblur/view.hpp"\n')
        write("src/core/border.cpp", '#include "fastblur/view.hpp"\n#include "plan/planner.hpp"\n')
        write("tools/fastblur/main.cpp", '#include "core/border.hpp"\n')
        write("src/core/border.hpp", "#pragma once\n")
        write("python/fastblur/_zarr_store.py", "def f():\n    from .dask import gaussian_filter\n")
        write("python/fastblur/dask.py", "from ._zarr_store import f\n")
        found = [p for p in check_includes(root) + check_python(root) if not p.startswith("exception ")]
        want = ["src/core/border.cpp:2", "tools/fastblur/main.cpp:1", "python/fastblur/_zarr_store.py:2"]
        missing = [w for w in want if not any(p.startswith(w) for p in found)]
        if missing or len(found) != len(want):
            print("layers_test's self-test: expected violations at", want, "got:", *found, sep="\n  ")
            return False
    return True


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not self_test():
        return 1
    problems = check_includes(root) + check_python(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer violation(s); the layers are in docs/DESIGN.md and tests/layers_test.py")
        return 1
    print("layers: every include and import points down or sideways within its layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
