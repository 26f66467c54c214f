"""The Python benchmark against PyOpenCL and numpy runs to its end (python/bench/
bench_vs_pyopencl.py --quick): it reaches into the binding (its one C call per
clrt.add, the tensors' device handles) to time the binding's own cost, so a change of
the binding's inside must keep it working. Nothing is timed here: the figures are the
script's, taken on a quiet machine (docs/python.md)."""
import os
import pathlib
import subprocess
import sys

import pytest

BENCH = pathlib.Path(__file__).resolve().parents[2] / "python" / "bench" / "bench_vs_pyopencl.py"


def test_bench_vs_pyopencl_quick_runs():
    pytest.importorskip("pyopencl")  # Debian's python3-pyopencl (tools/setup-debian.sh)
    r = subprocess.run([sys.executable, str(BENCH), "--quick"], capture_output=True, text=True,
                       timeout=600, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    for line in ("tiny add: the binding's cost per call over the C API, us",
                 "matmul 1000x1000 float64: clrt vs numpy", "add 1000: clrt a+b vs pyopencl a+b"):
        assert line in r.stdout, r.stdout
