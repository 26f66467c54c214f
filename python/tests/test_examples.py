"""Each example in examples/python runs to completion (its own asserts check numpy)."""
import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run(name, *args, timeout=600):
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, timeout=timeout, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_devices():
    out = run("devices.py")
    assert "default context: pthread" in out and "Portable Computing Language" in out


def test_arrays():
    assert "match numpy" in run("arrays.py")


def test_matmul():
    out = run("matmul.py", "1000")
    assert "1000x1000 float64 product" in out and "relative" in out


def test_user_kernel():
    assert "matches numpy" in run("user_kernel.py")
