"""clrt.devices(), clrt.Context(selector), the default context and $CLRT_DEVICE, clrt.Error."""
import os
import subprocess
import sys

import numpy as np
import pytest

import clrt


def test_devices_lists_pocl():
    devs = clrt.devices()
    assert devs and [d.index for d in devs] == list(range(len(devs)))
    pocl = [d for d in devs if "Portable" in d.platform]
    assert pocl, devs
    d = pocl[0]
    assert d.type == "cpu" and d.compute_units >= 1 and d.max_alloc > 0 and d.has_fp64
    assert not d.is_emulator


def test_context_by_selectors():
    for sel in (None, "", "0", "cpu", "pocl", "0:0"):
        with clrt.Context(sel) as c:
            assert "Portable" in c.device.platform
            assert not c.closed
        assert c.closed


def test_unknown_selector_raises_library_error():
    with pytest.raises(clrt.Error) as e:
        clrt.Context("no-such-device-xyz")
    err = e.value
    assert isinstance(err, RuntimeError)
    assert err.name == "CLRT_ENODEVICE" and err.status == -3
    assert "no-such-device-xyz" in err.message and "pthread" in err.message  # lists devices
    assert str(err).startswith("CLRT_ENODEVICE: ")


def test_gpu_selector_on_a_cpu_only_machine():
    if any(d.type == "gpu" for d in clrt.devices()):
        pytest.skip("a GPU is present")
    with pytest.raises(clrt.Error) as e:
        clrt.Context("gpu")
    assert e.value.name == "CLRT_ENODEVICE"


def test_selector_type_is_checked():
    with pytest.raises(clrt.Error) as e:
        clrt.Context(3)
    assert e.value.name == "CLRT_EINVAL"


def _run(code, **env):
    full = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          timeout=300)


def test_default_context_honours_clrt_device():
    code = ("import clrt, numpy as np; a = clrt.to_device(np.ones(3, np.float32)); "
            "print(clrt.default_context().device.platform); print(a.context is clrt.default_context())")
    r = _run(code, CLRT_DEVICE="pocl")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["Portable Computing Language", "True"]
    r = _run(code, CLRT_DEVICE="no-such-device-xyz")
    assert r.returncode != 0
    assert "clrt.Error: CLRT_ENODEVICE" in r.stderr and "no-such-device-xyz" in r.stderr


def test_default_context_is_made_again_after_close():
    a = clrt.to_device(np.ones(2, np.float32))
    first = clrt.default_context()
    first.close()
    with pytest.raises(clrt.Error, match="context was closed"):
        a.get()
    b = clrt.to_device(np.ones(2, np.float32))
    assert clrt.default_context() is not first and b.get().tolist() == [1, 1]
