"""clrt.devices(), clrt.Context(selector), the default context and $CLRT_DEVICE, clrt.Error."""
import os
import subprocess
import sys

import numpy as np
import pytest

import clrt


# The suite runs on whatever the loader offers: POCL alone under ctest (python/CMakeLists.txt),
# a GPU on the GPU check. Expectations come from clrt.devices(), not from a driver's name.


def test_devices_list():
    devs = clrt.devices()
    assert devs and [d.index for d in devs] == list(range(len(devs)))
    for d in devs:
        assert d.type in ("cpu", "gpu", "accelerator", "other") and d.name and d.platform
        assert d.compute_units >= 1 and d.max_alloc > 0 and d.max_work_group >= 1
    if os.environ.get("OCL_ICD_VENDORS", "").endswith("/pocl"):  # POCL alone: what it is
        d, = devs
        assert "Portable" in d.platform and d.type == "cpu" and d.has_fp64 and not d.is_emulator


def test_context_by_selectors():
    d = clrt.devices()[0]
    first_word = d.name.split()[0].split("-")[0]
    checks = {"0": lambda dev: dev == d,
              f"{d.platform_index}:{d.device_index}": lambda dev: dev == d,
              d.type: lambda dev: dev.type == d.type,
              first_word: lambda dev: first_word.lower() in
              (dev.name + dev.platform + dev.vendor).lower()}
    for sel, ok in checks.items():
        with clrt.Context(sel) as c:
            assert not c.closed and ok(c.device), (sel, c.device)
        assert c.closed
    with clrt.Context(None) as c, clrt.Context("") as c2:
        assert c.device == c2.device and c.device in clrt.devices()


def test_unknown_selector_raises_library_error():
    with pytest.raises(clrt.Error) as e:
        clrt.Context("no-such-device-xyz")
    err = e.value
    assert isinstance(err, RuntimeError)
    assert err.name == "CLRT_ENODEVICE" and err.status == -3
    assert "no-such-device-xyz" in err.message
    assert all(d.name in err.message for d in clrt.devices())  # the message lists the devices
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
            "print(clrt.default_context().device.index); print(a.context is clrt.default_context())")
    for d in clrt.devices():
        r = _run(code, CLRT_DEVICE=str(d.index))
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == [str(d.index), "True"]
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
