"""Slicing: a[r0:r1, c0:c1] is a view (no copy), of views and of transposes."""
import gc

import numpy as np
import pytest

import clrt
from conftest import assert_close, rand


def test_views_share_memory(ctx, rng):
    x = rand(rng, (17, 65), np.float32)
    a = clrt.to_device(x, ctx=ctx)
    v = a[3:10, 7:40]
    assert v.shape == (7, 33) and v.is_view
    np.testing.assert_array_equal(v.get(), x[3:10, 7:40])
    v[:, :] = 5.0  # writes through to a
    x[3:10, 7:40] = 5.0
    np.testing.assert_array_equal(a.get(), x)
    vv = v[1:3, -4:]  # a view of a view, negative indices
    np.testing.assert_array_equal(vv.get(), x[4:6, 36:40])
    vv.set(np.arange(8, dtype=np.float32).reshape(2, 4))
    x[4:6, 36:40] = np.arange(8).reshape(2, 4)
    np.testing.assert_array_equal(a.get(), x)


def test_index_forms(ctx, rng):
    x = rand(rng, (17, 7), np.float64)
    a = clrt.to_device(x, ctx=ctx)
    for key in [np.s_[2], np.s_[-1], np.s_[:, 3], np.s_[4, 5], np.s_[2:5], np.s_[:, -3:],
                np.s_[1:2, 1:2], np.s_[::1, 2:]]:
        got = a[key]
        assert got.shape == x[key].shape, key
        np.testing.assert_array_equal(got.get(), x[key])
        np.testing.assert_array_equal((got * 2.0).get(), x[key] * 2)  # usable in operations
        np.testing.assert_array_equal(got.copy().get(), x[key])
        np.testing.assert_array_equal(a.T[key[::-1] if isinstance(key, tuple) else key].get(),
                                      x.T[key[::-1] if isinstance(key, tuple) else key])
    v = clrt.to_device(x[0], ctx=ctx)
    np.testing.assert_array_equal(v[2:5].get(), x[0, 2:5])
    s = a.sum(axis=1)  # 1-D, held as a 17 x 1 column
    ref = x.sum(axis=1)
    for key in (np.s_[3:9], np.s_[-1], np.s_[4:5]):
        np.testing.assert_allclose((s[key] + 1.0).get(), ref[key] + 1.0, rtol=1e-12)


def test_views_in_operations(ctx, rng):
    x = rand(rng, (65, 127), np.float32)
    a = clrt.to_device(x, ctx=ctx)
    top, bottom = a[0:32, 1:100], a[33:65, 0:99]
    assert_close((top + bottom * 2.0).get(), x[0:32, 1:100] + x[33:65, 0:99].astype(np.float64) * 2, np.float32)
    assert_close(top.sum(axis=0).get(), x[0:32, 1:100].astype(np.float64).sum(axis=0), np.float32, 32)
    assert_close(a[:, 5].sum().get(), x[:, 5].astype(np.float64).sum(), np.float32, 65)


def test_view_outlives_parent(ctx, rng):
    x = rand(rng, (7, 7), np.float32)
    a = clrt.to_device(x, ctx=ctx)
    v = a[1:3, 1:3]
    del a
    gc.collect()
    np.testing.assert_array_equal(v.get(), x[1:3, 1:3])  # the view kept the memory alive
    w = v[0:1, :]
    v.close()  # frees the memory for every tensor sharing it, as before for a and a.T
    with pytest.raises(clrt.Error, match="after it was closed"):
        w.get()


def test_view_keeps_memory_from_the_pool(ctx, rng):
    """The parent gone, its memory stays the view's: the next array of the parent's shape
    (which the pool would serve from freed memory) gets other memory."""
    x = rand(rng, (7, 9), np.float32)
    a = clrt.to_device(x, ctx=ctx)
    v, r = a[0:2, :], a.reshape(9, 7)
    del a
    gc.collect()
    b = clrt.zeros((7, 9), np.float32, ctx=ctx)
    np.testing.assert_array_equal(v.get(), x[0:2, :])
    np.testing.assert_array_equal(r.get(), x.reshape(9, 7))
    del v, r
    gc.collect()
    b2 = clrt.zeros((7, 9), np.float32, ctx=ctx)  # now the pool may serve it
    np.testing.assert_array_equal(b.get() + b2.get(), np.zeros((7, 9)))


def test_refusals(ctx):
    x = np.arange(63, dtype=np.float32).reshape(7, 9)
    a = clrt.to_device(x, ctx=ctx)
    np.testing.assert_array_equal(a[::2, 1::3].get(), x[::2, 1::3])  # steps: strided views
    with pytest.raises(ValueError, match="step must be greater than zero"):
        a[::-1, :]  # PyTorch refuses negative steps
    with pytest.raises(IndexError, match="empty"):
        a[3:3, :]
    with pytest.raises(IndexError):
        a[7]
    with pytest.raises(IndexError):
        a[1, 2, 3]
    np.testing.assert_array_equal(a[[1, -2, 1]].get(), x[[1, -2, 1]])  # gathered: a copy
    with pytest.raises(IndexError, match="advanced indexing"):
        a[[1, 2], 1:3]  # one index list with full slices only
    with pytest.raises(IndexError, match="out of bounds"):
        a[[0, 7]]
