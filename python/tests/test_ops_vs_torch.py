"""Every tensor operation and functional layer against PyTorch (the same names: each case
is one function run on clrt and on torch), in float32 and float64: the forward values,
and the gradient of every input from the same upstream gradient. And against finite
differences in float64 (the gradients through clrt's own forward), so that a backward
formula and its forward cannot agree on a mistake."""
import numpy as np
import pytest

import clrt
from clrt import _functional as CF


def _F(m):
    return CF if m is clrt else m.nn.functional


# name -> (function of (module, F, *inputs), input shapes, positive inputs only)
CASES = {
    "add_broadcast": (lambda m, F, a, b: a + b, [(3, 4), (4,)], False),
    "sub_scalar": (lambda m, F, a: 2.5 - a, [(2, 3, 4)], False),
    "mul_broadcast": (lambda m, F, a, b: a * b, [(2, 1, 4), (3, 1)], False),
    "div": (lambda m, F, a, b: a / b, [(3, 4), (3, 4)], True),
    "pow_scalar": (lambda m, F, a: a ** 3, [(3, 4)], False),
    "pow_tensor": (lambda m, F, a, b: a ** b, [(3, 4), (3, 4)], True),
    "rpow": (lambda m, F, a: 2.0 ** a, [(5,)], False),
    "maximum": (lambda m, F, a, b: m.maximum(a, b), [(3, 4), (4,)], False),
    "minimum": (lambda m, F, a, b: m.minimum(a, b), [(3, 4), (3, 4)], False),
    "neg_abs": (lambda m, F, a: (-a).abs(), [(7,)], False),
    "exp": (lambda m, F, a: m.exp(a), [(3, 5)], False),
    "log": (lambda m, F, a: m.log(a), [(3, 5)], True),
    "sqrt": (lambda m, F, a: m.sqrt(a), [(3, 5)], True),
    "tanh_sigmoid": (lambda m, F, a: m.tanh(a) + m.sigmoid(a), [(4, 3)], False),
    "relu": (lambda m, F, a: m.relu(a) + F.relu(a * 2), [(4, 3)], False),
    "reciprocal_square": (lambda m, F, a: a.reciprocal() + a.square(), [(6,)], True),
    "sin_cos": (lambda m, F, a: m.sin(a) * m.cos(a), [(6,)], False),
    "clamp": (lambda m, F, a: a.clamp(-0.5, 0.5), [(5, 4)], False),
    "sum_dims": (lambda m, F, a: a.sum(1) + a.sum((0, 2), keepdim=True).sum(), [(2, 3, 4)], False),
    "mean": (lambda m, F, a: a.mean(-1, keepdim=True) * a.mean(), [(3, 4)], False),
    "max_all": (lambda m, F, a: a.max() + a.min(), [(3, 4)], False),
    "max_dim": (lambda m, F, a: a.max(1)[0] + a.min(0, keepdim=True).values.sum(), [(3, 4)], False),
    "amax": (lambda m, F, a: m.amax(a, 1), [(3, 4)], False),
    "std_var": (lambda m, F, a: a.std(1) + a.var(0, unbiased=False).sum(), [(4, 5)], False),
    "softmax": (lambda m, F, a: F.softmax(a, 1), [(3, 5)], False),
    "log_softmax": (lambda m, F, a: F.log_softmax(a, -1), [(2, 3, 5)], False),
    "matmul_2d": (lambda m, F, a, b: a @ b, [(3, 4), (4, 5)], False),
    "matmul_1d": (lambda m, F, a, b: (a @ b) * (b @ a.t()).sum(), [(3, 4), (4,)], False),
    "matmul_batched": (lambda m, F, a, b: m.matmul(a, b), [(2, 3, 4), (4, 2)], False),
    "transposed_mm": (lambda m, F, a, b: a.t() @ b.t(), [(4, 3), (5, 4)], False),
    "views": (lambda m, F, a: a.view(4, 6).t().reshape(2, 12).unsqueeze(0).squeeze(0)
              .permute(1, 0).flatten(), [(2, 3, 4)], False),
    "expand": (lambda m, F, a: a.expand(3, 4, 5) * 2, [(4, 1)], False),
    "index": (lambda m, F, a: a[1:, ::2] * a[0, 1] + a[1:, None, -1], [(3, 5)], False),
    "cat_stack": (lambda m, F, a, b: m.cat([a, b], 1).sum(0) + m.stack([a, a], 2).sum(),
                  [(2, 3), (2, 4)], False),
    "index_select": (lambda m, F, a: a.index_select(1, m.tensor([3, 0, 3, 2])), [(2, 4, 3)], False),
    "advanced_index": (lambda m, F, a: a[[2, 0, 2, -1]] + a[:, [1, 1, 0, 2]].t(), [(4, 4)], False),
    "mask_index": (lambda m, F, a: a[a.detach() > 0] * 2, [(3, 5)], False),
    "where": (lambda m, F, a, b: m.where(a > b, a * 2, b), [(3, 4), (4,)], False),
    "masked_fill": (lambda m, F, a: a.masked_fill(a.detach() < 0, 0.5) * a, [(3, 4)], False),
    "conv2d": (lambda m, F, x, w, b: F.conv2d(x, w, b), [(2, 2, 7, 6), (3, 2, 3, 2), (3,)], False),
    "conv2d_stride_pad": (lambda m, F, x, w: F.conv2d(x, w, None, stride=2, padding=1),
                          [(1, 3, 7, 7), (2, 3, 3, 3)], False),
    "max_pool2d": (lambda m, F, x: F.max_pool2d(x, 2), [(2, 3, 6, 4)], False),
    "max_pool2d_overlap": (lambda m, F, x: F.max_pool2d(x, 3, stride=1), [(1, 2, 5, 5)], False),
    "linear": (lambda m, F, x, w, b: F.linear(x, w, b), [(4, 6), (3, 6), (3,)], False),
    "linear_3d": (lambda m, F, x, w: F.linear(x, w), [(2, 4, 6), (3, 6)], False),
    "mse_loss": (lambda m, F, a, b: F.mse_loss(a, b) + F.mse_loss(a, b, reduction="sum"),
                 [(3, 4), (3, 4)], False),
}
TARGETS = np.array([2, 0, 4, 4, 1])
LOSSES = {
    "cross_entropy_mean": lambda m, F, x, t: F.cross_entropy(x, t),
    "cross_entropy_sum": lambda m, F, x, t: F.cross_entropy(x, t, reduction="sum"),
    "cross_entropy_none": lambda m, F, x, t: F.cross_entropy(x, t, reduction="none"),
    "nll_loss": lambda m, F, x, t: F.nll_loss(F.log_softmax(x, 1), t),
}


def _inputs(rng, shapes, positive, dtype):
    xs = [rng.uniform(0.5, 2.0, s) if positive else rng.standard_normal(s) for s in shapes]
    return [x.astype(dtype) for x in xs]


def _run(m, f, xs, upstream=None, extra=()):
    ts = [m.tensor(x, requires_grad=True) for x in xs]
    out = f(m, _F(m), *ts, *[m.tensor(e) for e in extra])
    if upstream is None:
        upstream = np.random.default_rng(7).standard_normal(tuple(out.shape))
    out.backward(m.tensor(upstream.astype(xs[0].dtype)))
    return out.detach().numpy(), [t.grad.numpy() for t in ts], upstream


def _tol(dtype):
    return (2e-5, 2e-6) if dtype == np.float32 else (1e-11, 1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(CASES))
def test_op_matches_pytorch(torch, rng, name, dtype):
    f, shapes, positive = CASES[name]
    xs = _inputs(rng, shapes, positive, dtype)
    got, got_g, up = _run(clrt, f, xs)
    ref, ref_g, _ = _run(torch, f, xs, up)
    rtol, atol = _tol(dtype)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=rtol * 10, atol=atol * 10)
    for g, r in zip(got_g, ref_g):
        np.testing.assert_allclose(g, r, rtol=rtol * 50, atol=atol * 50 * max(1, np.abs(r).max()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_matches_pytorch(torch, rng, name, dtype):
    x = rng.standard_normal((5, 6)).astype(dtype)
    got, got_g, up = _run(clrt, LOSSES[name], [x], extra=[TARGETS])
    ref, ref_g, _ = _run(torch, LOSSES[name], [x], up, extra=[TARGETS])
    rtol, atol = _tol(dtype)
    np.testing.assert_allclose(got, ref, rtol=rtol * 10, atol=atol * 10)
    np.testing.assert_allclose(got_g[0], ref_g[0], rtol=rtol * 50, atol=atol * 50)


def _numeric(f, xs, upstream, extra, eps=1e-6):
    """Central differences of sum(f(xs) * upstream), through clrt's forward in float64."""
    grads = []
    with clrt.no_grad():
        def value(args):
            out = f(clrt, CF, *[clrt.tensor(a) for a in args], *[clrt.tensor(e) for e in extra])
            return float((out * clrt.tensor(upstream)).sum().item())
        for i, x in enumerate(xs):
            g = np.zeros_like(x)
            for idx in np.ndindex(x.shape):
                hi = [a.copy() for a in xs]
                lo = [a.copy() for a in xs]
                hi[i][idx] += eps
                lo[i][idx] -= eps
                g[idx] = (value(hi) - value(lo)) / (2 * eps)
            grads.append(g)
    return grads


FD_CASES = sorted(set(CASES) - {"conv2d", "linear_3d", "cat_stack", "mask_index"}) + \
    ["conv2d_small"]
CASES["conv2d_small"] = (lambda m, F, x, w, b: F.conv2d(x, w, b, padding=1),
                         [(1, 2, 4, 3), (2, 2, 2, 2), (2,)], False)


@pytest.mark.parametrize("name", FD_CASES + sorted(LOSSES))
def test_gradient_matches_finite_differences(rng, name):
    if name in LOSSES:
        f, xs, extra = LOSSES[name], [rng.standard_normal((5, 6))], [TARGETS]
    else:
        f, shapes, positive = CASES[name]
        xs, extra = _inputs(rng, shapes, positive, np.float64), []
        if name.startswith("max") or name in ("relu", "clamp", "neg_abs", "maximum", "minimum",
                                              "where", "masked_fill"):
            # away from the kinks, where a difference straddles two slopes
            xs = [x + np.sign(x) * 0.01 for x in xs]
    _, got, up = _run(clrt, f, xs, extra=extra)
    num = _numeric(f, xs, up, extra)
    for g, n in zip(got, num):
        np.testing.assert_allclose(g, n, rtol=1e-6, atol=1e-7 * max(1, np.abs(n).max()))


@pytest.mark.parametrize("stride", [2, 1])
def test_max_pool_ties_go_where_pytorch_sends_them(torch, stride):
    """Windows of equal values (and overlapping windows): the gradient goes to the first
    largest in row-major order, as PyTorch's; NaN wins its window, as PyTorch's."""
    x = np.zeros((1, 2, 6, 6), np.float32)
    x[0, 0, 2:4, 2:4] = 1.0  # a tie of four in one window, of several when they overlap
    x[0, 1] = np.arange(36).reshape(6, 6) % 3  # ties in every window
    up = np.random.default_rng(3).standard_normal((1, 2) + ((3, 3) if stride == 2 else (5, 5)))
    got, (g,), _ = _run(clrt, lambda m, F, a: F.max_pool2d(a, 2, stride), [x], up)
    ref, (r,), _ = _run(torch, lambda m, F, a: F.max_pool2d(a, 2, stride), [x], up)
    np.testing.assert_array_equal(got, ref)
    np.testing.assert_allclose(g, r, rtol=1e-6, atol=1e-6)
    y = x.copy()
    y[0, 0, 0, 1] = np.nan
    got, _, _ = _run(clrt, lambda m, F, a: F.max_pool2d(a, 2, stride), [y], up)
    ref, _, _ = _run(torch, lambda m, F, a: F.max_pool2d(a, 2, stride), [y], up)
    np.testing.assert_array_equal(got, ref)
