"""reshape, mean and astype against numpy: every dtype, the suite's odd shapes, on plain,
transposed and view operands; a reshape is a view where the memory allows (writes go
through) and a copy otherwise (writes do not); every refusal."""
import numpy as np
import pytest

import clrt
from conftest import DTYPES, SHAPES, SIZES, assert_close, rand

ALL_DTYPES = [np.float32, np.float64, np.int32]


def values(rng, shape, dtype):
    """Values with fractions and both signs, exact in every dtype once converted."""
    return (rng.integers(-2000, 2000, shape) / 8).astype(dtype)


def layouts(ctx, x):
    """(name, array) pairs holding x: as it is, the transpose of its transpose, a strided
    window of a wider parent, and rows of a parent as wide (one run of memory)."""
    r, c = x.shape
    yield "plain", clrt.to_device(x, ctx=ctx)
    yield "transposed", clrt.to_device(np.ascontiguousarray(x.T), ctx=ctx).T
    padded = np.zeros((r + 2, c + 3), x.dtype)
    padded[1:r + 1, 2:c + 2] = x
    yield "window", clrt.to_device(padded, ctx=ctx)[1:r + 1, 2:c + 2]
    tall = np.zeros((r + 3, c), x.dtype)
    tall[2:r + 2] = x
    yield "rows", clrt.to_device(tall, ctx=ctx)[2:r + 2]


def targets(shape):
    """Shapes of the same count: flat, a row, a column, -1 forms, the other factorings."""
    n = int(np.prod(shape))
    out = [(n,), (1, n), (n, 1), -1, (-1, 1), (1, -1), n]
    out += [(d, n // d) for d in range(2, n) if n % d == 0][:4]
    return out + ([()] if n == 1 else [])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_reshape_matches_numpy(ctx, rng, dtype, shape):
    x = values(rng, shape, dtype)
    for name, a in layouts(ctx, x):
        for t in targets(shape):
            want = x.reshape(t)
            got = a.reshape(t)
            assert got.shape == want.shape and got.dtype == want.dtype, (name, t)
            np.testing.assert_array_equal(got.get(), want, err_msg=f"{name} {t}")
            if dtype != np.int32 and got.ndim > 0:  # usable in operations, reductions
                np.testing.assert_array_equal((got * 2.0).get(), want * 2)
                assert_close(got.sum(axis=0).get(), want.astype(np.float64).sum(axis=0),
                             dtype, want.shape[0])
        np.testing.assert_array_equal(a.reshape(*shape).get(), x)  # the numpy forms
        np.testing.assert_array_equal(a.reshape(list(shape)).get(), x)


@pytest.mark.parametrize("n", SIZES)
def test_reshape_vectors(ctx, rng, n):
    x = values(rng, (n,), np.float64)
    a = clrt.to_device(x, ctx=ctx)
    m = values(rng, (n, 5), np.float64)
    col = clrt.to_device(m, ctx=ctx)[:, 3]  # 1-D, a strided column of its parent
    s = clrt.to_device(m, ctx=ctx).sum(axis=1)  # 1-D, held as an n x 1 buffer
    for v, ref in ((a, x), (col, m[:, 3]), (s, m.sum(axis=1))):
        for t in [(n, 1), (1, n), (n,), -1] + ([()] if n == 1 else []):
            np.testing.assert_allclose(v.reshape(t).get(), ref.reshape(t), rtol=1e-15)


def test_reshape_is_a_view_where_memory_allows(ctx, rng):
    x = values(rng, (7, 17), np.float32)
    for name, a in layouts(ctx, x):
        r = a.reshape(17, 7)
        view = name in ("plain", "rows")
        r[2:4, 1:5] = -1.0  # a window of the new shape, written
        want = x.copy()
        if view:
            want.reshape(17, 7)[2:4, 1:5] = -1.0
        np.testing.assert_array_equal(a.get(), want, err_msg=name)
        expected = x.reshape(17, 7).copy()
        expected[2:4, 1:5] = -1.0
        np.testing.assert_array_equal(r.get(), expected, err_msg=name)
    # the same shape, or a 1-D one as its row: the very array's memory, transposes too
    a = clrt.to_device(x, ctx=ctx)
    a.T.reshape(17, 7)[0, 0] = 9.0
    a.reshape(1, 119).reshape(-1)[118] = 8.0
    x[0, 0], x[6, 16] = 9.0, 8.0
    np.testing.assert_array_equal(a.get(), x)


def test_reshape_outlives_and_closes(ctx, rng):
    x = values(rng, (7, 17), np.float64)
    a = clrt.to_device(x, ctx=ctx)
    r = a.reshape(-1, 7)
    del a
    np.testing.assert_array_equal(r.get(), x.reshape(-1, 7))  # it kept the memory alive
    r.close()  # frees the memory of every tensor sharing it
    with pytest.raises(clrt.Error, match="after it was closed"):
        r.reshape(17, 7).get()


def test_reshape_refusals(ctx):
    a = clrt.to_device(np.ones((6, 4), np.float32), ctx=ctx)
    np.testing.assert_array_equal(a.reshape(2, 3, 4).get(), np.ones((2, 3, 4)))  # N-D
    cases = [((5, 5), "CLRT_ESHAPE", "invalid for input of size 24", RuntimeError),
             ((7, -1), "CLRT_ESHAPE", "invalid for input of size 24", RuntimeError),
             ((-1, -1), "CLRT_EINVAL", "only one dimension can be inferred", RuntimeError),
             ((0, 24), "CLRT_EINVAL", "never empty", RuntimeError),
             ((-2, -12), "CLRT_EINVAL", "negative dimension", RuntimeError),
             ((2.0, 12), "CLRT_EINVAL", "must be ints", TypeError),
             ("24", "CLRT_EINVAL", "must be ints", TypeError),
             ((), "CLRT_ESHAPE", "invalid for input of size 24", RuntimeError)]
    for shape, name, phrase, kind in cases:
        with pytest.raises(kind, match=phrase) as e:
            a.reshape(shape)
        assert isinstance(e.value, clrt.Error) and e.value.name == name, shape


def test_shape_assignment_reshapes_in_place(ctx, rng):
    """numpy's `a.shape = ...` (the former Array's shape was a plain attribute): the same
    memory in the new shape; a count that differs, or a layout that is not one run in
    order, is refused (CLRT_ESHAPE) and leaves the shape as it was."""
    x = rng.standard_normal((6, 4))
    a = clrt.to_device(x, ctx=ctx)
    st = a._st
    a.shape = (3, 8)
    assert a.shape == (3, 8) and a._st is st and a.stride() == (8, 1)
    np.testing.assert_array_equal(a.get(), x.reshape(3, 8))
    a[2, 7] = -1.0  # the new strides address the same elements
    assert a.get().ravel()[-1] == -1.0
    for bad, b in (((5, 5), a), ((4, 6), a.T)):
        old = b.shape
        with pytest.raises(RuntimeError, match="cannot set shape") as e:
            b.shape = bad
        assert e.value.name == "CLRT_ESHAPE" and b.shape == old


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_mean_matches_numpy(ctx, rng, dtype, shape):
    x = rand(rng, shape, dtype)
    xd = x.astype(np.float64)
    for name, a in layouts(ctx, x):
        for axis in (None, 0, 1, -1, -2):
            k = x.size if axis is None else shape[axis]
            for keep in (False, True):
                got = a.mean(axis=axis, keepdims=keep)
                want = xd.mean(axis=axis, keepdims=keep)
                assert got.shape == want.shape and got.dtype == np.dtype(dtype), (name, axis)
                assert_close(got.get(), want, dtype, k)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_mean_vectors(ctx, rng, dtype, n):
    x = rand(rng, (n,), dtype)
    a = clrt.to_device(x, ctx=ctx)
    for axis in (None, 0, -1):
        got = a.mean(axis=axis)
        assert got.shape == ()
        assert_close(got.get(), x.astype(np.float64).mean(), dtype, n)
    assert a.mean(keepdims=True).shape == (1,)
    zero_d = clrt.to_device(x[0], ctx=ctx).mean()  # a 0-d array's mean: itself
    assert zero_d.shape == () and zero_d.item() == x[0]


def test_mean_refusals(ctx):
    a = clrt.to_device(np.ones((3, 4), np.float32), ctx=ctx)
    for bad in (2, -3, "x"):
        with pytest.raises((IndexError, TypeError), match="axis"):
            a.mean(axis=bad)
    with pytest.raises(clrt.Error, match="astype") as e:
        clrt.to_device(np.ones(5, np.int32), ctx=ctx).mean()
    assert e.value.name == "CLRT_EUNSUPPORTED"


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_astype_matches_numpy(ctx, rng, src, dst):
    for shape in [(7, 17), (1, 1), (127,), ()]:
        x = values(rng, shape, src)
        a = clrt.to_device(x, ctx=ctx)
        got = a.astype(dst)
        want = x.astype(dst)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
        assert got.context is ctx and not got.is_view
    x = values(rng, (7, 17), src)
    for name, a in layouts(ctx, x):
        np.testing.assert_array_equal(a.astype(dst).get(), x.astype(dst), err_msg=name)


def test_astype_truncates_and_copies(ctx):
    x = np.array([[-2.75, -0.5, 0.5, 2.999], [1e9, -1e9, 7.0, -7.0]])
    a = clrt.to_device(x, ctx=ctx)
    np.testing.assert_array_equal(a.astype(np.int32).get(), x.astype(np.int32))  # toward zero
    np.testing.assert_array_equal(a.astype("float32").get(), x.astype(np.float32))  # rounded
    same = a.astype(np.float64)  # a copy: its own memory
    same[0, 0] = 1.0
    assert a.get()[0, 0] == -2.75
    assert a.astype(np.float64, copy=False) is a


def test_astype_refusals(ctx):
    a = clrt.to_device(np.ones(3), ctx=ctx)
    for bad in (np.float16, np.uint8, "x"):
        with pytest.raises(TypeError) as e:
            a.astype(bad)
        assert e.value.name == "CLRT_EINVAL"
    assert a.astype(np.int64).dtype == np.int64 and a.astype(bool).get().tolist() == [True] * 3
