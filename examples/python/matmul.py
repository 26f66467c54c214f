"""The article's matrix product: 1000 x 1000 float64 (np.random.rand), on the device.

    python3 examples/python/matmul.py [N]
"""
import sys
import time

import numpy as np

import clrt

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
a_host, b_host = np.random.rand(n, n), np.random.rand(n, n)   # float64, as in the article

ctx = clrt.default_context()
if not ctx.device.has_fp64:
    print(f"{ctx.device.name} has no float64: using float32")
    a_host, b_host = a_host.astype(np.float32), b_host.astype(np.float32)
a, b = clrt.to_device(a_host), clrt.to_device(b_host)

c = a @ b                       # compiles the kernel on first use
ctx.finish()
t = time.perf_counter()
c = a @ b
ctx.finish()
dt = time.perf_counter() - t
print(f"{n}x{n} {a.dtype} product on {ctx.device.name}: {dt * 1e3:.1f} ms, "
      f"{2 * n**3 / dt / 1e9:.1f} GFLOP/s")

ref = a_host.astype(np.float64) @ b_host    # the reference in float64
err = np.abs(c.get() - ref).max() / np.abs(ref).max()
print(f"largest difference from numpy, relative: {err:.1e}")
g = clrt.gemm(a, b, alpha=2.0, trans_b=True)   # 2 a b^T, the transpose as a flag
assert np.allclose(g.get(), 2 * a_host @ b_host.T, rtol=1e-4)
assert np.allclose((a.T @ b).get(), a_host.T @ b_host, rtol=1e-4)
assert err < (1e-12 if a.dtype == np.float64 else 1e-5)
