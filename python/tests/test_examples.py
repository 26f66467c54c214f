"""Each example in examples/python runs to completion (its own asserts check numpy)."""
import os
import pathlib
import re
import subprocess
import sys


EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def run(name, *args, timeout=600):
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, timeout=timeout, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_devices():
    out = run("devices.py")
    import clrt
    assert f"default context: {clrt.default_context().device.name}" in out
    assert all(d.platform in out for d in clrt.devices())


def test_arrays():
    assert "match numpy" in run("arrays.py")


def test_matmul():
    out = run("matmul.py", "1000")
    assert "1000x1000 float64 product" in out and "relative" in out


def test_user_kernel():
    assert "matches numpy" in run("user_kernel.py")


def _accuracy(out):
    line = [l for l in out.splitlines() if l.startswith("test accuracy:")][-1]
    return float(line.split()[2].rstrip("%"))


def test_train_mlp():
    out = run("train_mlp.py", "--epochs", "2")
    assert "[2,    60] loss:" in out and "Finished Training" in out
    assert _accuracy(out) > 80  # the synthetic set; chance is 10%


def test_train_cnn():
    from clrt import _lib
    if not _lib.has("clrt_nn_conv2d_forward"):
        r = subprocess.run([sys.executable, str(EXAMPLES / "train_cnn.py")], capture_output=True,
                           text=True, timeout=600, env=dict(os.environ))
        assert r.returncode == 2 and "no convolution yet" in r.stderr
        return
    out = run("train_cnn.py", "--epochs", "1", "--limit", "1000", "--batch", "16",
              "--lr", "0.01", "--print-every", "20")
    assert "[1,    20] loss:" in out and "Finished Training" in out
    assert _accuracy(out) > 50


def _cold_snippet(tmp_path, code, **env):
    """code run by a new interpreter on empty caches of its own, with the notice's
    first threshold at 0 (and env's variables); its completed process, exit 0."""
    env = dict(os.environ, CLRT_CACHE_DIR=str(tmp_path / "clrt"), POCL_CACHE_DIR=str(tmp_path / "pocl"),
               CLRT_TOOLS_COMPILE_S="0", **env)
    r = subprocess.run([sys.executable, "-c", "import numpy as np, clrt\n" + code], capture_output=True,
                       text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    return r


def test_compile_notice_and_log(tmp_path):
    """On empty caches, with the thresholds at 0: one notice at the first compile, then a
    line per later compile; with CLRT_LOG on (in any case), every build's line, once."""
    r = _cold_snippet(tmp_path, "a = clrt.to_device(np.ones((33, 17), np.float32))\n"
                                "b = clrt.to_device(np.ones((17, 9), np.float32))\n"
                                "assert ((a @ b).get() == 17).all() and ((a + a).get() == 2).all() "
                                "and float(a.sum()) == 561\n",
                      CLRT_TOOLS_STILL_S="0", CLRT_LOG="True")
    lines = r.stderr.splitlines()
    built = [l for l in lines if l.startswith("clrt: built ")]
    compiled = [l for l in built if l.endswith("(built from source)")]
    assert len(built) >= 3 and len(set(built)) == len(built), r.stderr
    assert sum(l.startswith("clrt: compiling kernels for") for l in lines) == 1, r.stderr
    notice = next(l for l in lines if l.startswith("clrt: compiling kernels for"))
    assert re.search(r"\): \S+( \S+)? took \d+\.\d\d s$", notice), r.stderr
    more = [l for l in lines if l.startswith("clrt: compiled ")]
    assert len(more) == len(compiled) - 1, r.stderr
    for n, l in enumerate(more, start=2):
        assert re.fullmatch(r"clrt: compiled 1 more program in \d+\.\d s \(\S+( \S+)?\); %d so far" % n, l), r.stderr


def test_compile_notice_says_not_cached(tmp_path):
    """POCL's cache off (POCL_KERNEL_CACHE=0): the notice says the builds are kept nowhere and
    why, as the library's build event reports it; on another driver, the plain notice."""
    r = _cold_snippet(tmp_path, "a = clrt.to_device(np.ones((5, 3), np.float32))\n"
                                "assert ((a + a).get() == 2).all()\n"
                                "print(clrt.default_context().device.platform)\n",
                      POCL_KERNEL_CACHE="0")
    notices = [l for l in r.stderr.splitlines() if l.startswith("clrt: compiling kernels for")]
    assert len(notices) == 1, r.stderr
    if "Portable Computing Language" in r.stdout:
        assert "(not cached: POCL's cache is off, every run compiles): " in notices[0], r.stderr