"""Every kernel of the binding (clrt/_strided.py: strided unary and binary work,
comparisons, integer arithmetic, casts, random numbers, ranges) and the functional
layers, run once on small sizes: run by ctest on rusticl and under Oclgrind (with its
race, uninitialised-value and API checks; python/CMakeLists.txt), where the pytest suite,
which needs float64 and minutes, does not go.

    python3 binding_kernels.py f32|f64        (the device from OCL_ICD_VENDORS)
"""
import sys

import numpy as np

import clrt
from clrt import _functional as F


def main(which):
    dt = {"f32": clrt.float32, "f64": clrt.float64}[which]
    npdt = np.float32 if dt is clrt.float32 else np.float64
    tol = 1e-5 if dt is clrt.float32 else 1e-12
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5)).astype(npdt)
    a = clrt.tensor(x)
    np.testing.assert_array_equal(a.permute(2, 0, 1).contiguous().numpy(), x.transpose(2, 0, 1))
    np.testing.assert_allclose((a[:, ::2] * 2 + a[:, 1:2]).numpy(), x[:, ::2] * 2 + x[:, 1:2],
                               rtol=tol)
    for op in ("exp", "tanh", "sigmoid", "sin", "cos", "floor", "sign", "square", "abs"):
        got = getattr(clrt, op)(a.permute(1, 0, 2)).numpy()
        ref = (lambda v: 1 / (1 + np.exp(-v))) if op == "sigmoid" else getattr(np, op)
        np.testing.assert_allclose(got, ref(x.transpose(1, 0, 2)), rtol=tol * 10, atol=tol)
    cmp = ((a > 0) & (a < 1)) | (a == a[0])
    ref_cmp = ((x > 0) & (x < 1)) | (x == x[0])
    np.testing.assert_array_equal(cmp.numpy(), ref_cmp)
    np.testing.assert_array_equal(cmp.sum(1).numpy(), ref_cmp.sum(1))
    i = np.array([[1, -7, 3, 0]], np.int32)
    t = clrt.tensor(i)
    for got, ref in ((t // 2, i // 2), (t % 3, i % 3), (t * t, i * i), (t.clamp(-2, 2), i.clip(-2, 2)),
                     (-t, -i), (abs(t), abs(i)), (~t, ~i), (clrt.maximum(t, 0), np.maximum(i, 0)),
                     (clrt.minimum(t, 0), np.minimum(i, 0)), (t.relu(), np.maximum(i, 0))):
        np.testing.assert_array_equal(got.numpy(), ref)
    np.testing.assert_array_equal(a.long().to(dt).numpy(), x.astype(np.int64).astype(npdt))
    clrt.manual_seed(1)
    u, n = clrt.rand(1000, dtype=dt).numpy(), clrt.randn(1000, dtype=dt).numpy()
    assert 0 <= u.min() and u.max() < 1 and abs(n.mean()) < 0.2
    np.testing.assert_allclose(clrt.arange(0.0, 2.0, 0.25, dtype=dt).numpy(), np.arange(0, 2, 0.25))
    assert set(np.unique(F.dropout(clrt.ones(33, dtype=dt), 0.3).numpy())) <= {0, npdt(1 / 0.7)}
    x4 = clrt.tensor(rng.standard_normal((2, 2, 6, 6)).astype(npdt), requires_grad=True)
    w = clrt.tensor(rng.standard_normal((3, 2, 3, 3)).astype(npdt), requires_grad=True)
    y = F.max_pool2d(F.relu(F.conv2d(x4, w, padding=1)), 2)
    loss = F.cross_entropy(y.flatten(1)[:, :5], clrt.tensor([1, 4])) + \
        F.log_softmax(y.flatten(1), 1).mean()
    loss.backward()
    assert x4.grad.shape == x4.shape and w.grad.shape == w.shape
    m0 = rng.standard_normal((4, 5)).astype(npdt)
    m = clrt.tensor(m0)
    clrt.subtract(1.0, m[:, :], out=m)
    clrt.add(m[1:4], m[0:3], out=m[0:3])
    ref = 1 - m0
    ref[0:3] = ref[1:4] + ref[0:3]
    np.testing.assert_allclose(m.numpy(), ref, rtol=tol)
    g = clrt.tensor(x, requires_grad=True)  # gather, index_add (its gradient), where
    picked = g[[2, 0, 2]] + clrt.where(g[[0, 1, 1]] > 0, g[[1, 1, 0]], 0.5)
    picked.sum().backward()
    ref = x[[2, 0, 2]] + np.where(x[[0, 1, 1]] > 0, x[[1, 1, 0]], 0.5)
    np.testing.assert_allclose(picked.detach().numpy(), ref, rtol=tol)
    assert g.grad.shape == g.shape
    print(f"binding_kernels: every kernel ran and matched numpy ({which}, "
          f"{clrt.default_context().device.name})")


if __name__ == "__main__":
    main(sys.argv[1])
