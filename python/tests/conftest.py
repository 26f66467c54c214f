"""Fixtures of the Python suite, and the leak check at the end of the session.

Run by ctest (python/CMakeLists.txt) on POCL with CLRT_LIBRARY pointing at the
build's libclrt.so: after every test module has run and every context is
closed, the library's count of live objects (clrt_live_objects) must be zero."""
import gc
import os

import numpy as np
import pytest

import clrt
from clrt import _lib

# The C suites' odd sizes (tests/common/test_util.h): 1, 7, 17, 65, 127, and non-square shapes.
SIZES = [1, 7, 17, 65, 127]
SHAPES = [(1, 1), (7, 1), (1, 7), (7, 17), (17, 7), (65, 127), (127, 65)]
DTYPES = [np.float32, np.float64]


def assert_close(got, ref, dtype, k=1):
    """got (computed in dtype) against ref (numpy in float64), for operands of magnitude
    about 1: the bound grows with k, the length of the sums behind each result."""
    bound = 4 * np.finfo(dtype).eps * max(k, 1)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(got.astype(np.float64), ref, rtol=bound, atol=bound)


def rand(rng, shape, dtype, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(dtype)


def pytest_collection_modifyitems(config, items):
    if clrt.devices():
        # float64 is part of most cases (the article's np.random.rand arrays): a device
        # without it (Mesa's llvmpipe) cannot run the suite, and says so here rather than
        # in a hundred CLRT_EUNSUPPORTED failures.
        with clrt.Context() as c:
            if not c.device.has_fp64:
                raise pytest.UsageError(f"the Python suite needs a device with float64; "
                                        f"{c.device.name} has none (select another with "
                                        "CLRT_DEVICE)")
        return
    if os.environ.get("CLRT_TEST_REQUIRE_DEVICE") == "1":
        raise pytest.UsageError("CLRT_TEST_REQUIRE_DEVICE=1 and no OpenCL device found")
    for item in items:
        item.add_marker(pytest.mark.skip(reason="no OpenCL device"))


@pytest.fixture(scope="session")
def ctx():
    c = clrt.Context()
    yield c
    c.close()


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def pytest_sessionfinish(session, exitstatus):
    from clrt import _context
    _context._close_all()
    gc.collect()
    live = _lib.lib.clrt_live_objects()
    print(f"\nclrt live objects at exit: {live}")
    if live != 0:
        session.exitstatus = 1
        print("FAILED: the binding leaked clrt handles")


@pytest.fixture(scope="session")
def torch():
    """PyTorch, the reference for tensors and autograd. CI installs it (Debian's python3-torch,
    tools/setup-debian.sh) and ctest sets CLRT_TEST_REQUIRE_TORCH=1 where configuring found
    it, so that there a missing PyTorch fails the suite instead of skipping comparisons."""
    try:
        import torch as t
    except ImportError:
        if os.environ.get("CLRT_TEST_REQUIRE_TORCH") == "1":
            pytest.fail("CLRT_TEST_REQUIRE_TORCH=1 and PyTorch does not import")
        pytest.skip("PyTorch is not installed (apt-get install python3-torch)")
    t.manual_seed(0)
    return t
