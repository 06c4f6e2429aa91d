"""Shared fixtures: a seeded generator per test (seed printed; FASTBLUR_TEST_SEED replays)."""
import os
import zlib

import numpy as np
import pytest

# The stand-in semaphore-export layer first in every Vulkan instance's chain (tests/CMakeLists.txt
# names its folder): CUDA arrays on lavapipe are then ordered by shared timeline semaphores, as on
# NVIDIA's driver (tests/vulkan/stand_in_layer.hpp does the same for the C++ tests).
if os.environ.get("FASTBLUR_STAND_IN_LAYER_DIR") and os.path.isdir(os.environ["FASTBLUR_STAND_IN_LAYER_DIR"]):
    for name, value in (("VK_ADD_LAYER_PATH", os.environ["FASTBLUR_STAND_IN_LAYER_DIR"]),
                        ("VK_INSTANCE_LAYERS", "VK_LAYER_FASTBLUR_stand_in_semaphore_export")):
        os.environ[name] = value + (":" + os.environ[name] if os.environ.get(name) else "")

_SEED = int(os.environ.get("FASTBLUR_TEST_SEED", np.random.SeedSequence().entropy % (1 << 63)))
print(f"[ seed ] FASTBLUR_TEST_SEED={_SEED}")


def pytest_report_header(config):
    import fastblur
    where = os.environ.get("FASTBLUR_EXPECT_PACKAGE_IN")  # tests/package/wheel_test.sh: the installed wheel
    if where and not os.path.realpath(fastblur.__file__).startswith(os.path.realpath(where)):
        raise pytest.UsageError(f"fastblur was imported from {fastblur.__file__}, not from {where}")
    return f"FASTBLUR_TEST_SEED={_SEED}; fastblur from {os.path.dirname(fastblur.__file__)}"


@pytest.fixture
def rng(request):
    return np.random.default_rng([_SEED, zlib.crc32(request.node.nodeid.encode())])
