"""The article's network, functionally (conv2d, max_pool2d, relu, view, linear,
cross_entropy), forward and every gradient against PyTorch from the same weights, in
float32 and float64; and its gradients against finite differences in float64."""
import numpy as np
import pytest

import clrt
from clrt import _functional as F


def weights(rng, dtype):
    shapes = [(20, 1, 5, 5), (20,), (50, 20, 5, 5), (50,), (500, 800), (500,), (10, 500), (10,)]
    scale = [0.2, 0.1, 0.05, 0.1, 0.03, 0.1, 0.05, 0.1]
    return [(rng.standard_normal(s) * k).astype(dtype) for s, k in zip(shapes, scale)]


def forward(F_, ps, x):
    h = F_.max_pool2d(F_.relu(F_.conv2d(x, ps[0], ps[1])), 2, 2)
    h = F_.max_pool2d(F_.relu(F_.conv2d(h, ps[2], ps[3])), 2, 2)
    h = h.view(-1, 50 * 4 * 4)
    h = F_.relu(F_.linear(h, ps[4], ps[5]))
    return F_.linear(h, ps[6], ps[7])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("batch", [1, 5])
def test_forward_and_gradients_match_pytorch(torch, rng, dtype, batch):
    ws = weights(rng, dtype)
    x = rng.standard_normal((batch, 1, 28, 28)).astype(dtype)
    y = rng.integers(0, 10, batch)
    got_ps = [clrt.from_numpy(w).requires_grad_() for w in ws]
    out = forward(F, got_ps, clrt.from_numpy(x))
    loss = F.cross_entropy(out, clrt.from_numpy(y))
    loss.backward()
    ref_ps = [torch.from_numpy(w).requires_grad_() for w in ws]
    ref_out = forward(torch.nn.functional, ref_ps, torch.from_numpy(x))
    ref_loss = torch.nn.functional.cross_entropy(ref_out, torch.from_numpy(y))
    ref_loss.backward()
    tol = 2e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out.detach().numpy(), ref_out.detach().numpy(), rtol=tol * 10,
                               atol=tol * 10)
    assert abs(loss.item() - ref_loss.item()) <= tol * 10 * max(1, abs(ref_loss.item()))
    for g, r in zip(got_ps, ref_ps):
        ref = r.grad.numpy()
        np.testing.assert_allclose(g.grad.numpy(), ref, rtol=tol * 50,
                                   atol=tol * 50 * np.abs(ref).max())


def test_gradients_match_finite_differences(rng):
    """Every parameter's gradient (three elements of each) against central differences of
    the loss in float64: runs without PyTorch too (the numpy 2 suite has none)."""
    ws = weights(rng, np.float64)
    x = clrt.from_numpy(rng.standard_normal((2, 1, 28, 28)))
    y = clrt.from_numpy(rng.integers(0, 10, 2))

    def loss_of(host):
        with clrt.no_grad():
            return F.cross_entropy(forward(F, [clrt.from_numpy(w) for w in host], x), y).item()
    ps = [clrt.from_numpy(w).requires_grad_() for w in ws]
    F.cross_entropy(forward(F, ps, x), y).backward()
    eps = 1e-6
    for i, p in enumerate(ps):
        grad = p.grad.numpy()
        assert np.abs(grad).max() > 0, i  # every layer gets a gradient
        for flat in rng.choice(ws[i].size, 3, replace=False):
            at = np.unravel_index(flat, ws[i].shape)
            up, down = [w.copy() for w in ws], [w.copy() for w in ws]
            up[i][at] += eps
            down[i][at] -= eps
            numeric = (loss_of(up) - loss_of(down)) / (2 * eps)
            assert abs(grad[at] - numeric) <= 1e-6 + 1e-5 * abs(numeric), (i, at)
