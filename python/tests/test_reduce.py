"""sum / max / min along axes (keepdims too) and argmax, against numpy, on plain,
transposed and view operands."""
import numpy as np
import pytest

import clrt
from conftest import DTYPES, SHAPES, SIZES, assert_close, rand


def layouts(ctx, x):
    """x on the device as it is, as the transpose of its transpose, and as a view."""
    yield clrt.to_device(x, ctx=ctx)
    yield clrt.to_device(np.ascontiguousarray(x.T), ctx=ctx).T
    r, c = x.shape
    padded = np.zeros((r + 2, c + 3), x.dtype)
    padded[1:r + 1, 2:c + 2] = x
    yield clrt.to_device(padded, ctx=ctx)[1:r + 1, 2:c + 2]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_sum_max_min(ctx, rng, dtype, shape):
    x = rand(rng, shape, dtype)
    xd = x.astype(np.float64)
    for a in layouts(ctx, x):
        for axis in (None, 0, 1, -1):
            k = x.size if axis is None else shape[axis]
            for keep in (False, True):
                got = a.sum(axis=axis, keepdims=keep)
                assert got.shape == xd.sum(axis=axis, keepdims=keep).shape
                assert_close(got.get(), xd.sum(axis=axis, keepdims=keep), dtype, k)
                assert_close(a.max(axis=axis, keepdims=keep).get(),
                             xd.max(axis=axis, keepdims=keep), dtype)
            assert_close(a.min(axis=axis).get(), xd.min(axis=axis), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_vectors(ctx, rng, dtype, n):
    x = rand(rng, (n,), dtype)
    a = clrt.to_device(x, ctx=ctx)
    assert a.sum().shape == () and a.sum(axis=0).shape == ()
    assert_close(a.sum().get(), x.astype(np.float64).sum(), dtype, n)
    assert_close(a.max(axis=0).get(), x.astype(np.float64).max(), dtype)
    assert a.argmax().get() == np.argmax(x) and a.argmax().shape == ()


@pytest.mark.parametrize("shape", SHAPES)
def test_argmax(ctx, rng, shape):
    x = rand(rng, shape, np.float32)
    x[rng.integers(0, shape[0]), :] = 1.0  # ties: the first wins, as in numpy
    for a in layouts(ctx, x):
        for axis in (0, 1, -1):
            got = a.argmax(axis=axis)
            assert got.dtype == np.int64  # PyTorch's index dtype
            np.testing.assert_array_equal(got.get(), np.argmax(x, axis=axis))
    y = x.copy()
    y[0, -1] = np.nan  # a NaN wins (numpy's rule)
    np.testing.assert_array_equal(clrt.to_device(y, ctx=ctx).argmax(axis=1).get(),
                                  np.argmax(y, axis=1))


def test_reductions_compose(ctx, rng):
    """The article-style softmax denominator: x - x.max(axis=1, keepdims=True), exp, sum."""
    x = rand(rng, (65, 17), np.float64)
    a = clrt.to_device(x, ctx=ctx)
    e = clrt.exp(a - a.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    ref = np.exp(x - x.max(axis=1, keepdims=True))
    assert_close(p.get(), ref / ref.sum(axis=1, keepdims=True), np.float64, 17)


def test_refusals(ctx):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = clrt.to_device(x, ctx=ctx)
    assert a.argmax().item() == 11 and a.argmax().shape == ()  # flat, as numpy and PyTorch
    for bad in (2, -3):
        with pytest.raises(IndexError, match="axis"):
            a.sum(axis=bad)
    for bad in ("x", 0.5, True):
        with pytest.raises(TypeError, match="axis"):
            a.sum(axis=bad)
    i = clrt.to_device(np.arange(12, dtype=np.int32).reshape(3, 4), ctx=ctx)
    assert i.sum().dtype == np.int64 and i.sum().item() == 66  # PyTorch: int64 sums
    np.testing.assert_array_equal(i.sum(axis=0).get(), np.arange(12).reshape(3, 4).sum(0))
