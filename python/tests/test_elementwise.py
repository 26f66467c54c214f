"""+ - * / (and minimum/maximum, unary) against numpy: same shape, row, column, scalar,
scalars on either side, transposed operands, out=, and the refusals."""
import operator

import numpy as np
import pytest

import clrt
from conftest import DTYPES, SHAPES, assert_close

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def operands(rng, shape, dtype):
    # magnitudes 0.5..2 with random signs: no division by (near) zero
    x = rng.uniform(0.5, 2.0, shape) * rng.choice([-1, 1], shape)
    return x.astype(dtype)


def check(got, ref_a, ref_b, op, dtype):
    ref = OPS[op](np.asarray(ref_a, np.float64), np.asarray(ref_b, np.float64))
    assert got.shape == ref.shape
    assert_close(got.get(), ref, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", OPS)
def test_same_row_column_scalar(ctx, rng, dtype, shape, op):
    r, c = shape
    x = operands(rng, shape, dtype)
    a = clrt.to_device(x, ctx=ctx)
    f = OPS[op]
    for y in (operands(rng, shape, dtype), operands(rng, (c,), dtype),
              operands(rng, (1, c), dtype), operands(rng, (r, 1), dtype),
              operands(rng, (), dtype), operands(rng, (1, 1), dtype)):
        b = clrt.to_device(y, ctx=ctx)
        check(f(a, b), x, y, op, dtype)  # the full operand on the left
        check(f(b, a), y, x, op, dtype)  # and on the right
    s = 1.75
    check(f(a, s), x, dtype(s), op, dtype)
    check(f(s, a), dtype(s), x, op, dtype)
    check(f(a, np.float32(-3)), x, -3.0, op, dtype)
    check(f(2, a), 2.0, x, op, dtype)


@pytest.mark.parametrize("op", OPS)
def test_outer_broadcast_and_vectors(ctx, rng, op):
    f = OPS[op]
    col, row = operands(rng, (17, 1), np.float64), operands(rng, (7,), np.float64)
    check(f(clrt.to_device(col, ctx=ctx), clrt.to_device(row, ctx=ctx)), col, row, op, np.float64)
    v, w = operands(rng, (65,), np.float32), operands(rng, (65,), np.float32)
    check(f(clrt.to_device(v, ctx=ctx), clrt.to_device(w, ctx=ctx)), v, w, op, np.float32)


@pytest.mark.parametrize("op", OPS)
def test_transposed_operands(ctx, rng, op):
    f = OPS[op]
    x, y = operands(rng, (17, 7), np.float32), operands(rng, (7, 17), np.float32)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    check(f(a.T, b), x.T, y, op, np.float32)
    check(f(b, a.T), y, x.T, op, np.float32)
    s = a.sum(axis=1)  # a row of 17 held as a 17 x 1 buffer
    check(f(b, s), y, x.astype(np.float64).sum(axis=1), op, np.float32)


def test_out_and_in_place(ctx, rng):
    x, y = operands(rng, (7, 17), np.float64), operands(rng, (7, 17), np.float64)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    c = clrt.empty((7, 17), np.float64, ctx=ctx)
    assert clrt.add(a, b, out=c) is c
    assert_close(c.get(), x + y, np.float64)
    clrt.multiply(a, b, out=a)  # in place
    assert_close(a.get(), x * y, np.float64)
    clrt.subtract(2.0, b, out=b)  # scalar - b, written over b
    assert_close(b.get(), 2.0 - y, np.float64)
    with pytest.raises(clrt.Error, match="out has shape"):
        clrt.add(a, b, out=clrt.empty((17, 7), np.float64, ctx=ctx))


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_min_max(ctx, rng, dtype):
    x, y = operands(rng, (17, 7), dtype), operands(rng, (7,), dtype)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    assert_close((-a).get(), -xd, dtype)
    assert_close(abs(a).get(), np.abs(xd), dtype)
    assert_close(clrt.relu(a).get(), np.maximum(xd, 0), dtype)
    assert_close(clrt.exp(a).get(), np.exp(xd), dtype, k=4)
    assert_close(clrt.sqrt(abs(a)).get(), np.sqrt(np.abs(xd)), dtype, k=4)
    assert_close(clrt.maximum(a, b).get(), np.maximum(xd, yd), dtype)
    assert_close(clrt.minimum(b, a).get(), np.minimum(yd, xd), dtype)


def test_refusals(ctx, rng):
    a = clrt.to_device(operands(rng, (7, 17), np.float32), ctx=ctx)
    with pytest.raises(clrt.Error, match="do not broadcast") as e:
        a + clrt.to_device(np.ones((7, 3), np.float32), ctx=ctx)
    assert e.value.name == "CLRT_ESHAPE"
    wide = a * clrt.to_device(np.full((7, 17), 2.0), ctx=ctx)  # PyTorch's promotion
    assert wide.dtype == np.float64
    np.testing.assert_array_equal(wide.get(), a.get().astype(np.float64) * 2)
    with pytest.raises(clrt.Error, match="clrt.to_device"):
        a + np.ones((7, 17), np.float32)
    with pytest.raises(clrt.Error, match="clrt.to_device"):
        np.ones((7, 17), np.float32) + a
    with pytest.raises(clrt.Error):
        a + "x"
    i = clrt.to_device(np.arange(9, dtype=np.int32).reshape(3, 3), ctx=ctx)
    assert (i + i).dtype == np.int32  # integers have arithmetic (the binding's kernels)
    np.testing.assert_array_equal((i + i).get(), 2 * np.arange(9).reshape(3, 3))
    half = i * 0.5  # PyTorch: an int tensor times a float is float32
    assert half.dtype == np.float32
    np.testing.assert_array_equal(half.get(), np.arange(9).reshape(3, 3) * 0.5)
    with pytest.raises(clrt.Error, match="can't be cast to the desired output type int32"):
        i += 0.5
