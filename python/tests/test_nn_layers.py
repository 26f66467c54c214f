"""The layers and losses against PyTorch from the same weights: forward, the input's
gradient and every parameter's, in float32 and float64; and the article's network:
forward, every gradient and a few SGD steps. The losses against numpy as well, so that
they are checked where PyTorch is not installed."""
import numpy as np
import pytest

import clrt
import clrt.nn as nn
import clrt.nn.functional as F
import clrt.optim as optim
from nn_common import article_net_code, close, needs_torch, torch

DTYPES = [np.float32, np.float64]
CL = {np.float32: clrt.float32, np.float64: clrt.float64}


def pair(make_clrt, make_torch, dtype):
    """The same layer in clrt and PyTorch, clrt's given PyTorch's weights."""
    ref = make_torch()
    ref = ref.double() if dtype == np.float64 else ref
    layer = make_clrt()
    layer = layer.double() if dtype == np.float64 else layer
    layer.load_state_dict(ref.state_dict())
    return layer, ref


def run_both(layer, ref, x, dtype, rng):
    """Forward, then backward of a random upstream gradient; every result compared."""
    xc = clrt.from_numpy(x).requires_grad_(True)
    xt = torch.from_numpy(x).requires_grad_(True)
    y, yt = layer(xc), ref(xt)
    close(y, yt, dtype)
    g = rng.standard_normal(tuple(yt.shape)).astype(dtype)
    y.backward(clrt.from_numpy(g))
    yt.backward(torch.from_numpy(g))
    close(xc.grad, xt.grad, dtype)
    for (name, p), (_, pt) in zip(layer.named_parameters(), ref.named_parameters()):
        assert p.grad is not None, name
        close(p.grad, pt.grad, dtype)


LAYERS = {
    "linear": (lambda nn_: nn_.Linear(17, 5), (7, 17)),
    "linear_nobias": (lambda nn_: nn_.Linear(17, 5, bias=False), (7, 17)),
    "linear_3d": (lambda nn_: nn_.Linear(9, 4), (2, 3, 9)),
    "conv": (lambda nn_: nn_.Conv2d(3, 4, 3), (2, 3, 7, 9)),
    "conv_pad_stride": (lambda nn_: nn_.Conv2d(3, 4, 3, stride=2, padding=1), (2, 3, 7, 9)),
    "conv_nobias": (lambda nn_: nn_.Conv2d(2, 3, (2, 2), bias=False), (3, 2, 5, 5)),
    "pool": (lambda nn_: nn_.MaxPool2d(2), (2, 3, 7, 9)),
    "pool_stride": (lambda nn_: nn_.MaxPool2d(3, stride=2), (2, 3, 7, 9)),
    "relu": (lambda nn_: nn_.ReLU(), (4, 6)),
    # in place on the Linear's output (on a leaf that requires grad PyTorch refuses it)
    "relu_inplace": (lambda nn_: nn_.Sequential(nn_.Linear(6, 5), nn_.ReLU(inplace=True)), (4, 6)),
    "sigmoid": (lambda nn_: nn_.Sigmoid(), (4, 6)),
    "tanh": (lambda nn_: nn_.Tanh(), (4, 6)),
    "identity": (lambda nn_: nn_.Identity(3, unused=True), (4, 6)),
    "flatten": (lambda nn_: nn_.Flatten(), (2, 3, 4, 5)),
    "softmax": (lambda nn_: nn_.Softmax(dim=1), (4, 6)),
    "log_softmax": (lambda nn_: nn_.LogSoftmax(dim=1), (4, 6)),
    "sequential": (lambda nn_: nn_.Sequential(nn_.Conv2d(1, 2, 3), nn_.ReLU(), nn_.MaxPool2d(2),
                                              nn_.Flatten(), nn_.Linear(2 * 3 * 3, 3)),
                   (5, 1, 8, 8)),
}


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_against_pytorch(name, dtype, rng):
    make, shape = LAYERS[name]
    layer, ref = pair(lambda: make(nn), lambda: make(torch.nn), dtype)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    run_both(layer, ref, x, dtype, rng)


def test_relu_inplace_writes_its_input(rng):
    a = rng.uniform(-1, 1, (5, 7)).astype(np.float32)
    x = clrt.from_numpy(a)
    out = nn.ReLU()(x)
    np.testing.assert_array_equal(x.numpy(), a)  # the default leaves its input alone
    assert nn.ReLU(inplace=True)(x) is x
    np.testing.assert_array_equal(x.numpy(), np.maximum(a, 0))
    np.testing.assert_array_equal(out.numpy(), np.maximum(a, 0))


def xent_numpy(z, t):
    z = z.astype(np.float64)
    m = z.max(axis=1, keepdims=True)
    logp = z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))
    rows = -logp[np.arange(len(t)), t]
    p = np.exp(logp)
    p[np.arange(len(t)), t] -= 1
    return rows, p  # each row's loss, and the gradient of their sum


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_loss(reduction, dtype, rng):
    n, c = 17, 10
    z = rng.uniform(-3, 3, (n, c)).astype(dtype)
    t = rng.integers(0, c, n).astype(np.int64)
    zc = clrt.from_numpy(z).requires_grad_(True)
    loss = nn.CrossEntropyLoss(reduction=reduction)(zc, clrt.from_numpy(t))
    rows, grad = xent_numpy(z, t)
    want = {"mean": rows.mean(), "sum": rows.sum(), "none": rows}[reduction]
    close(loss, want, dtype, rtol=1e-6 if dtype == np.float32 else None)
    g = rng.standard_normal(np.shape(want)).astype(dtype)
    loss.backward(clrt.from_numpy(np.asarray(g, dtype)))
    scale = {"mean": g / n, "sum": g, "none": g[:, None] if g.ndim else g}[reduction]
    close(zc.grad, grad * scale, dtype)
    if torch is not None:
        zt = torch.from_numpy(z).requires_grad_(True)
        lt = torch.nn.CrossEntropyLoss(reduction=reduction)(zt, torch.from_numpy(t))
        close(loss, lt, dtype)
        lt.backward(torch.from_numpy(np.asarray(g, dtype)))
        close(zc.grad, zt.grad, dtype)


def test_cross_entropy_refuses_a_target_out_of_range(rng):
    z = clrt.from_numpy(rng.uniform(-1, 1, (5, 10)).astype(np.float32))
    t = np.array([1, 2, 10, 3, 4], np.int64)
    with pytest.raises(IndexError, match="10"):
        nn.CrossEntropyLoss()(z, clrt.from_numpy(t)).item()
    with pytest.raises(IndexError, match="-1"):
        nn.CrossEntropyLoss()(z, clrt.from_numpy(np.array([1, 2, -1, 3, 4]))).item()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(reduction, dtype, rng):
    a, b = (rng.uniform(-1, 1, (6, 7)).astype(dtype) for _ in range(2))
    ac = clrt.from_numpy(a).requires_grad_(True)
    loss = nn.MSELoss(reduction=reduction)(ac, clrt.from_numpy(b))
    d = a.astype(np.float64) - b
    want = {"mean": (d * d).mean(), "sum": (d * d).sum(), "none": d * d}[reduction]
    close(loss, want, dtype)
    (loss.sum() if reduction == "none" else loss).backward()
    close(ac.grad, 2 * d / (d.size if reduction == "mean" else 1), dtype)


def article_pair(dtype):
    ns_c, ns_t = {"nn": nn, "F": F}, {"nn": torch.nn, "F": torch.nn.functional}
    exec(article_net_code(), ns_c)
    exec(article_net_code(), ns_t)
    torch.manual_seed(0)
    return pair(ns_c["Net"], ns_t["Net"], dtype)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [4, 64])
def test_article_network_against_pytorch(batch, dtype, rng):
    """Forward, every gradient and three SGD steps (momentum 0.9), from PyTorch's weights."""
    net, ref = article_pair(dtype)
    crit, crit_t = nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss()
    opt = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    opt_t = torch.optim.SGD(ref.parameters(), lr=0.01, momentum=0.9)
    loose = dict(rtol=5e-4, atol=5e-5) if dtype == np.float32 else {}
    for step in range(3):
        x = rng.uniform(0, 1, (batch, 1, 28, 28)).astype(dtype)
        t = rng.integers(0, 10, batch)
        opt.zero_grad()
        opt_t.zero_grad()
        out, out_t = net(clrt.from_numpy(x)), ref(torch.from_numpy(x))
        close(out, out_t, dtype, **loose)
        loss, loss_t = crit(out, clrt.from_numpy(t)), crit_t(out_t, torch.from_numpy(t))
        close(loss, loss_t, dtype, **loose)
        loss.backward()
        loss_t.backward()
        for (name, p), pt in zip(net.named_parameters(), ref.parameters()):
            close(p.grad, pt.grad, dtype, **loose)
        opt.step()
        opt_t.step()
        for p, pt in zip(net.parameters(), ref.parameters()):
            close(p, pt, dtype, **loose)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
@pytest.mark.parametrize("max_norm", [0.5, 1e3])
def test_clip_grad_norm(norm_type, max_norm, rng):
    grads = [rng.uniform(-1, 1, s) for s in ((7, 17), (5,), (2, 3, 4))]
    params = [nn.Parameter(clrt.zeros(g.shape, dtype=clrt.float64)) for g in grads]
    for p, g in zip(params, grads):
        p.grad = clrt.from_numpy(g)
    total = nn.utils.clip_grad_norm_(params, max_norm, norm_type)
    flat = np.concatenate([g.ravel() for g in grads])
    want = np.abs(flat).max() if np.isinf(norm_type) else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    close(total, want, np.float64)
    scale = min(1.0, max_norm / (want + 1e-6))
    for p, g in zip(params, grads):
        close(p.grad, g * scale, np.float64)
    if torch is not None:
        tparams = [torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.float64)) for g in grads]
        for p, g in zip(tparams, grads):
            p.grad = torch.from_numpy(g.copy())
        close(total, torch.nn.utils.clip_grad_norm_(tparams, max_norm, norm_type), np.float64)
        for p, pt in zip(params, tparams):
            close(p.grad, pt.grad, np.float64)
    nn.utils.clip_grad_value_(params, 0.1)
    for p, g in zip(params, grads):
        close(p.grad, np.clip(g * scale, -0.1, 0.1), np.float64)
    params[0].grad = clrt.from_numpy(np.full((7, 17), np.inf))
    with pytest.raises(RuntimeError, match="is non-finite, so it cannot be clipped"):
        nn.utils.clip_grad_norm_(params, 1.0, error_if_nonfinite=True)
