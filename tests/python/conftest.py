"""Shared fixtures: a seeded generator per test (seed printed; FASTBLUR_TEST_SEED replays)."""
import os
import zlib

import numpy as np
import pytest

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
