"""The Python front end states no rule of its own (issue 26): the common options' checks and the
device grammar are the core's (validate.hpp), named as keyword arguments; the plan and the registry
are the core's one serialiser's JSON (serialize.hpp), laid out in NumPy's order."""
import numpy as np
import pytest

import fastblur
from fastblur import _core

DEVICE_WORDS = ": expected cpu, vulkan, vulkan:N (an index) or vulkan:NAME (part of a device's name)"


@pytest.mark.parametrize("kwargs,message", [
    (dict(tolerance=-1), "tolerance=-1 must be a finite value >= 0"),
    (dict(tolerance=float("nan")), "tolerance=nan must be a finite value >= 0"),
    (dict(threads=-3), "threads=-3 must be an integer >= 0 (0 = every core)"),
    (dict(device="gpu"), "device='gpu'" + DEVICE_WORDS),
    (dict(device="vulkan:"), "device='vulkan:'" + DEVICE_WORDS),
    (dict(mode="constant", cval=float("nan"), rounding="nearest"),
     "cval=nan must be finite (or rounding='scipy', as SciPy takes any)"),
])
def test_the_core_checks_the_common_options_with_pythons_names(kwargs, message):
    with pytest.raises(ValueError) as e:
        fastblur.gaussian_filter(np.zeros((8, 9), np.float32), 1.5, **kwargs)
    assert str(e.value) == message


def test_scipy_takes_any_cval():
    out = fastblur.gaussian_filter(np.zeros((8, 9), np.float32), 1.5, mode="constant", cval=float("nan"))
    assert np.isnan(out).any()


def test_the_plan_is_the_core_json_in_numpy_order():
    p = fastblur.plan((64, 80), (0, 2.0), dtype="int16")
    for key in ("algorithm", "predicted_max_error", "predicted_cost", "cost_profile", "reason", "considered", "description", "radius",
                "support", "achieved_sigma", "weights", "schedule"):
        assert key in p, key
    assert p["radius"] == [0, 8] and p["weights"][0] is None and len(p["weights"][1]) == 17
    assert p["weights"][1] == pytest.approx(list(fastblur.gaussian_kernel(2.0)), abs=1e-15)
    assert isinstance(p["predicted_cost"], float) and isinstance(p["achieved_sigma"][0], float)
    assert p["cost_profile"] == ""  # the CPU: costs from the model
    # A kernel of more than 64 taps is given as its length.
    wide = fastblur.plan((400, 400), 20.0, dtype="float32")
    assert wide["weights"] == [161, 161]
    # Per-axis parameters as lists in NumPy order, the whole plan's as values.
    box = fastblur.plan((64, 64, 64), (1.0, 2.0, 5.0), algorithm="box")
    assert box["box_passes"] == 3 and len(box["box_radius"]) == 3
    assert box["box_radius"][2][0] > box["box_radius"][0][0]
    # The schedule names what runs, and last_run() reports the same keys.
    fastblur.gaussian_filter(np.zeros((64, 80), np.int16), (0, 2.0))
    run = _core.last_run()
    for key in ("backend", "driver", "threads", "intermediate", "rounding"):
        assert run[key] == p["schedule"][key]


def test_the_registry_is_the_core_json():
    algorithms = fastblur.algorithms()
    assert [a["name"] for a in algorithms][0] == "auto"
    for a in algorithms:
        for key in ("name", "summary", "description", "planar", "gpu_only", "capabilities", "parameters"):
            assert key in a, key
        for key in ("separable", "max_dimensions", "derivatives", "exact", "cpu", "vulkan", "vulkan_volumes"):
            assert key in a["capabilities"], key
        for p in a["parameters"]:
            for key in ("key", "flag", "kind", "doc", "range", "default", "min", "max", "choices"):
                assert key in p, key
