"""The autograd engine as PyTorch's: requires_grad, accumulation into .grad, retain_graph
and the freed-graph error, saved tensors changed in place, no_grad / enable_grad /
set_grad_enabled, detach, in-place operations recorded (and refused on leaves), backward
with a gradient, retain_grad and hooks; each compared with PyTorch where it computes."""
import numpy as np
import pytest

import clrt


def test_accumulates_and_shares_nothing(rng):
    x = rng.standard_normal((3, 4))
    a = clrt.tensor(x, requires_grad=True)
    b = clrt.tensor(x, requires_grad=True)
    assert a.is_leaf and a.requires_grad and a.grad is None
    y = a + b  # add's backward hands one gradient to both leaves
    assert y.grad_fn is not None and not y.is_leaf and y.requires_grad
    y.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.ones((3, 4)))
    a.grad += 5  # a's .grad is its own memory, not b's
    np.testing.assert_array_equal(b.grad.numpy(), np.ones((3, 4)))
    (a * 2).sum().backward()  # accumulated
    np.testing.assert_array_equal(a.grad.numpy(), np.full((3, 4), 8.0))
    g = clrt.ones(3, 4, dtype=clrt.float64)
    c = clrt.tensor(x, requires_grad=True)
    (c * 1).backward(g)  # the given gradient does not become .grad's memory
    c.grad += 1
    np.testing.assert_array_equal(g.numpy(), np.ones((3, 4)))


def test_backward_errors():
    a = clrt.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="implicitly created only for scalar outputs"):
        (a * 2).backward()
    with pytest.raises(RuntimeError, match="does not require grad"):
        clrt.tensor([1.0]).sum().backward()
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (a * 2).backward(clrt.ones(3))
    with pytest.raises(RuntimeError, match="floating point"):
        clrt.tensor([1, 2]).requires_grad_()
    y = (a * a).sum()
    y.backward(retain_graph=True)
    y.backward()  # the graph was kept once
    np.testing.assert_array_equal(a.grad.numpy(), [4.0, 8.0])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_saved_tensor_changed_in_place():
    a = clrt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 1  # not a leaf
    c = b * b  # saves b
    b += 1  # version 1: what c's backward needs is gone
    with pytest.raises(RuntimeError, match="modified by an inplace operation.*version 1; "
                                           "expected version 0"):
        c.sum().backward()
    e = a.exp()  # saves its result
    e.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        e.sum().backward()


def test_in_place_is_recorded(torch, rng):
    x = rng.standard_normal((3, 4))
    results = []
    for m in (clrt, torch):
        a = m.tensor(x, requires_grad=True)
        b = a * 2
        b += a  # in place on a non-leaf: recorded
        b.mul_(3)
        b[1] = 0.5 * a[0]  # an assignment into a slice, recorded as PyTorch's CopySlices
        w = b[:, 1:3].relu()
        (w * w).sum().backward()
        results.append((b.detach().numpy(), a.grad.numpy()))
    for got, ref in zip(*results):
        np.testing.assert_allclose(got, ref, rtol=1e-12)


def test_in_place_on_a_leaf_is_refused():
    a = clrt.ones(3, requires_grad=True)
    for op in (lambda: a.add_(1), lambda: a.__iadd__(1), lambda: a.zero_(),
               lambda: a.__setitem__(0, 2.0), lambda: a.copy_(clrt.ones(3))):
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            op()
    with clrt.no_grad():  # what an optimizer does
        a.add_(1)
        a[0] = 5.0
    np.testing.assert_array_equal(a.detach().numpy(), [5, 2, 2])
    assert a.is_leaf and a.grad_fn is None


def test_grad_modes():
    a = clrt.ones(2, requires_grad=True)
    with clrt.no_grad():
        assert not clrt.is_grad_enabled()
        b = a * 2
        with clrt.enable_grad():
            c = a * 2
    assert clrt.is_grad_enabled()
    assert not b.requires_grad and b.grad_fn is None and c.requires_grad

    @clrt.no_grad()
    def f(x):
        return x * 3
    assert not f(a).requires_grad
    with clrt.set_grad_enabled(False):
        assert not (a * 1).requires_grad
    assert (a * 1).requires_grad
    d = a.detach()
    assert not d.requires_grad and d.is_leaf
    d += 1  # shares memory (and version) with a
    np.testing.assert_array_equal(a.detach().numpy(), [2, 2])
    with pytest.raises(RuntimeError, match="requires grad"):
        a.numpy()


def test_retain_grad_and_hooks():
    a = clrt.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = a * a
    b.retain_grad()
    seen = []
    b.register_hook(lambda g: seen.append(g.numpy()) or g * 2)
    a.register_hook(lambda g: g + 1)
    (b * 3).sum().backward()
    # retain_grad's gradient is the one hooks return (PyTorch 2's rule: it runs last)
    np.testing.assert_array_equal(b.grad.numpy(), [6, 6, 6])
    np.testing.assert_array_equal(seen[0], [3, 3, 3])
    np.testing.assert_array_equal(a.grad.numpy(), 2 * 3 * 2 * np.array([1, -2, 3]) + 1)


def test_autograd_grad_and_diamond(torch, rng):
    x = rng.standard_normal(5)
    out = []
    for m in (clrt, torch):
        a = m.tensor(x, requires_grad=True)
        h = m.tanh(a)
        y = (h * h + h.exp() * a).sum()  # h reached by two paths
        (g,) = m.autograd.grad(y, a)
        out.append(g.numpy())
        assert a.grad is None
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12)


def test_no_graph_cycles_keep_memory(ctx):
    """A graph is freed with its loss (no reference cycles through saved outputs): the
    device memory of a step's activations goes back to the pool at once."""
    import gc
    w = clrt.randn(64, 64, requires_grad=True, device=ctx)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            y = (w @ w).tanh().exp().sigmoid()
            y.sum().backward()
            del y
        pooled = ctx._pool_bytes
        for _ in range(20):
            y = (w @ w).tanh().exp().sigmoid()
            y.sum().backward()
            del y
        assert ctx._pool_bytes == pooled  # reused, not growing until a collection
    finally:
        gc.enable()


def test_layers_dropped_without_backward_free_at_once(ctx):
    """conv2d, max_pool2d and linear outputs whose graph is dropped without a backward
    pass (a validation loss computed with grad on) give their memory back at once: their
    backward functions hold no reference to the output (a cycle that waits for gc)."""
    import gc
    from clrt import _functional as F
    x = clrt.randn(4, 1, 12, 12, device=ctx)
    w = clrt.randn(3, 1, 5, 5, device=ctx, requires_grad=True)
    lw = clrt.randn(5, 48, device=ctx, requires_grad=True)
    layers = {"conv2d": (lambda: F.conv2d(x, w), 4 * 3 * 8 * 8),
              "max_pool2d": (lambda: F.max_pool2d(w, 2), 3 * 2 * 2),
              "linear": (lambda: F.linear(x.view(12, 48), lw), 12 * 5)}
    gc.collect()
    gc.disable()
    try:
        for name, (make, count) in layers.items():
            y = make()
            assert y.grad_fn is not None
            before = ctx._pool_bytes
            del y
            assert ctx._pool_bytes - before >= count * 4, name  # float32 elements
    finally:
        gc.enable()
