"""clrt.nn against numpy: linear, relu, softmax cross-entropy, SGD, initialisation, layers
and a short training run; convolution and pooling once the library has them."""
import numpy as np
import pytest

import clrt
from clrt import _lib, nn
from conftest import DTYPES, assert_close, rand

HAS_CONV = _lib.has("clrt_nn_conv2d_forward")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,i,o", [(1, 1, 1), (7, 17, 5), (65, 127, 10)])
def test_linear_relu(ctx, rng, dtype, n, i, o):
    x, w, b, dy = (rand(rng, s, dtype) for s in ((n, i), (o, i), (1, o), (n, o)))
    X, W, B, DY = (clrt.to_device(v, ctx=ctx) for v in (x, w, b, dy))
    xd, wd, dyd = x.astype(np.float64), w.astype(np.float64), dy.astype(np.float64)
    y = nn.linear(X, W, B)
    assert_close(y.get(), xd @ wd.T + b, dtype, i)
    dx, dw, db = nn.linear_backward(DY, X, W)
    assert_close(dx.get(), dyd @ wd, dtype, o)
    assert_close(dw.get(), dyd.T @ xd, dtype, n)
    assert_close(db.get(), dyd.sum(axis=0, keepdims=True), dtype, n)
    assert_close(nn.relu(X).get(), np.maximum(xd, 0), dtype)
    dr = nn.relu_backward(clrt.to_device(rand(rng, (n, i), dtype), ctx=ctx), X)
    assert dr.shape == (n, i)


@pytest.mark.parametrize("dtype", DTYPES)
def test_softmax_cross_entropy(ctx, rng, dtype):
    n, c = 17, 10
    logits = rand(rng, (n, c), dtype, -3, 3)
    labels = rng.integers(0, c, n).astype(np.int32)
    ld = logits.astype(np.float64)
    p = np.exp(ld - ld.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ref_loss = -np.log(p[np.arange(n), labels]).mean()
    onehot = np.eye(c)[labels]
    for lab in (clrt.to_device(labels, ctx=ctx), clrt.to_device(labels[:, None], ctx=ctx)):
        loss, d = nn.softmax_cross_entropy(clrt.to_device(logits, ctx=ctx), lab)
        assert loss.shape == ()
        assert_close(loss.get(), ref_loss, dtype, c)
        assert_close(d.get(), (p - onehot) / n, dtype, c)
    bad = labels.copy()
    bad[3] = c
    # a label outside 0..C-1: the loss and that row's gradient are NaN, the others right
    loss, d = nn.softmax_cross_entropy(clrt.to_device(logits, ctx=ctx), clrt.to_device(bad, ctx=ctx))
    assert np.isnan(loss.item())
    g = d.get()
    assert np.isnan(g[3]).all()
    rows = np.arange(n) != 3
    assert_close(g[rows], ((p - onehot) / n)[rows], dtype, c)
    with pytest.raises(clrt.Error, match="int32"):
        nn.softmax_cross_entropy(clrt.to_device(logits, ctx=ctx), clrt.to_device(labels * 1.0, ctx=ctx))


def test_sgd_and_init(ctx, rng):
    p, g = rand(rng, (7, 17), np.float64), rand(rng, (7, 17), np.float64)
    P, G, V = clrt.to_device(p, ctx=ctx), clrt.to_device(g, ctx=ctx), clrt.zeros((7, 17), np.float64, ctx=ctx)
    v = np.zeros_like(p)
    for _ in range(3):  # PyTorch's rule
        gg = g + 0.01 * p
        v = 0.9 * v + gg
        p = p - 0.1 * v
        nn.sgd_step(P, G, V, 0.1, 0.9, 0.01)
    assert_close(P.get(), p, np.float64, 8)
    W, B = clrt.empty((10, 25), ctx=ctx), clrt.empty((1, 10), ctx=ctx)
    nn.init_kaiming_uniform(W, B, seed=7)
    w = W.get()
    assert np.abs(w).max() <= 1 / 5 and w.std() > 0.05
    W2 = clrt.empty((10, 25), ctx=ctx)
    nn.init_kaiming_uniform(W2, None, seed=7)
    np.testing.assert_array_equal(W2.get(), w)  # deterministic from the seed


def test_mlp_training_lowers_the_loss(ctx):
    """Two Gaussian blobs per class, 4 classes: the article's loop, on an MLP."""
    rng = np.random.default_rng(0)
    centers = rng.normal(0, 3, (4, 20))
    y = rng.integers(0, 4, 512).astype(np.int32)
    x = (centers[y] + rng.normal(0, 1, (512, 20))).astype(np.float32)
    net = nn.Sequential(nn.Linear(20, 32, ctx=ctx, seed=1), nn.ReLU(), nn.Linear(32, 4, ctx=ctx, seed=2))
    criterion = nn.CrossEntropyLoss()
    opt = nn.SGD(net.parameters(), lr=0.05, momentum=0.9)
    losses = []
    for epoch in range(3):
        for i in range(0, 512, 32):
            loss = criterion(net(clrt.to_device(x[i:i + 32], ctx=ctx)), clrt.to_device(y[i:i + 32], ctx=ctx))
            net.backward(criterion.backward())
            opt.step()
            losses.append(loss.item())
    assert losses[0] > 1.0 and np.mean(losses[-4:]) < 0.2 * losses[0]  # ln 4 = 1.39 at first
    pred = net(clrt.to_device(x, ctx=ctx)).argmax(axis=1).get()
    assert (pred == y).mean() > 0.9


@pytest.mark.skipif(not HAS_CONV, reason="this libclrt has no convolution yet (the CNN issue)")
@pytest.mark.parametrize("dtype", DTYPES)
def test_conv_pool_against_numpy(ctx, rng, dtype):
    n, c, h, w, k, ks, pad = 2, 3, 7, 9, 4, 3, 1
    x, wt, b = rand(rng, (n, c * h * w), dtype), rand(rng, (k, c * ks * ks), dtype), rand(rng, (1, k), dtype)
    X, Wt = clrt.to_device(x, ctx=ctx), clrt.to_device(wt, ctx=ctx)
    y = nn.conv2d(X, Wt, clrt.to_device(b, ctx=ctx), (c, h, w), k, ks, padding=pad)
    assert nn.conv2d_output(c, h, w, k, ks, 1, pad) == (h, w)
    xi = np.pad(x.astype(np.float64).reshape(n, c, h, w), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    wi = wt.astype(np.float64).reshape(k, c, ks, ks)
    ref = np.zeros((n, k, h, w))
    for i in range(h):
        for j in range(w):
            ref[:, :, i, j] = np.einsum("ncij,kcij->nk", xi[:, :, i:i + ks, j:j + ks], wi)
    ref += b.reshape(1, k, 1, 1)
    bound_k = c * ks * ks
    assert_close(y.get(), ref.reshape(n, -1), dtype, bound_k)

    # backward: dx, dw, db from the same loops, transposed
    dy = rand(rng, (n, k * h * w), dtype)
    dyi = dy.astype(np.float64).reshape(n, k, h, w)
    dxi, dwi = np.zeros_like(xi), np.zeros_like(wi)
    for i in range(h):
        for j in range(w):
            dxi[:, :, i:i + ks, j:j + ks] += np.einsum("nk,kcij->ncij", dyi[:, :, i, j], wi)
            dwi += np.einsum("nk,ncij->kcij", dyi[:, :, i, j], xi[:, :, i:i + ks, j:j + ks])
    dx, dw, db = nn.conv2d_backward(clrt.to_device(dy, ctx=ctx), X, Wt, (c, h, w), k, ks, padding=pad)
    assert_close(dx.get(), dxi[:, :, pad:-pad, pad:-pad].reshape(n, -1), dtype, k * ks * ks)
    assert_close(dw.get(), dwi.reshape(k, -1), dtype, n * h * w)
    assert_close(db.get(), dyi.sum(axis=(0, 2, 3)).reshape(1, k), dtype, n * h * w)

    # max-pooling 2x2 (floor: the last row and column of 7 x 9 are left out) and its gradient
    yv = y.get().astype(np.float64).reshape(n, k, h, w)
    win = yv[:, :, :6, :8].reshape(n, k, 3, 2, 4, 2).transpose(0, 1, 2, 4, 3, 5).reshape(n, k, 3, 4, 4)
    p, am = nn.maxpool2d(y, (k, h, w), 2)
    assert nn.pool2d_output(k, h, w, 2) == (3, 4)
    assert_close(p.get(), win.max(axis=-1).reshape(n, -1), dtype)
    pos = win.argmax(axis=-1)  # 0..3 within each window -> row * w + col in the plane
    rr = np.arange(3)[:, None] * 2 + pos // 2
    cc = np.arange(4)[None, :] * 2 + pos % 2
    np.testing.assert_array_equal(am.get().reshape(n, k, 3, 4), rr * w + cc)
    dp = rand(rng, (n, k * 12), dtype)
    ref_dx = np.zeros((n, k, h * w))
    np.put_along_axis(ref_dx, (rr * w + cc).reshape(n, k, 12), dp.astype(np.float64).reshape(n, k, 12), -1)
    assert_close(nn.maxpool2d_backward(clrt.to_device(dp, ctx=ctx), am, (k, h, w), 2).get(),
                 ref_dx.reshape(n, -1), dtype)


def test_conv_missing_is_a_clear_error(ctx):
    if HAS_CONV:
        pytest.skip("this libclrt has convolution")
    with pytest.raises(clrt.Error, match="CNN") as e:
        nn.conv2d_output(1, 28, 28, 20, 5)
    assert e.value.name == "CLRT_EUNSUPPORTED"
