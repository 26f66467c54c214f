"""to_device / empty / get / shape / dtype, host layouts, dtype and shape refusals."""
import numpy as np
import pytest

import clrt
from conftest import SHAPES, SIZES

ALL_DTYPES = [np.float32, np.float64, np.int32]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES + [(n,) for n in SIZES] + [()])
def test_round_trip(ctx, rng, dtype, shape):
    x = (rng.standard_normal(shape) * 1000).astype(dtype)
    a = clrt.to_device(x, ctx=ctx)
    assert a.shape == shape and a.dtype == np.dtype(dtype) and a.ndim == len(shape)
    assert a.size == x.size and a.context is ctx
    y = a.get()
    assert y.shape == shape and y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(np.asarray(a), x)  # __array__: get()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_empty_and_set(ctx, dtype):
    a = clrt.empty((7, 17), dtype, ctx=ctx)
    assert a.shape == (7, 17) and a.dtype == np.dtype(dtype)
    x = np.arange(7 * 17, dtype=dtype).reshape(7, 17)
    a.set(x)
    np.testing.assert_array_equal(a.get(), x)
    z = clrt.zeros(5, dtype, ctx=ctx)
    np.testing.assert_array_equal(z.get(), np.zeros(5, dtype))
    assert clrt.empty(4).dtype == np.float32  # default dtype, default context


def test_big_empty_on_default_context():
    a = clrt.empty((1000, 1000), np.float32)
    assert a.shape == (1000, 1000) and a.context is clrt.default_context()


def test_non_contiguous_input_is_copied(ctx, rng):
    x = rng.standard_normal((17, 65))
    strided = x[::2, 1::3]
    assert not strided.flags.c_contiguous
    np.testing.assert_array_equal(clrt.to_device(strided, ctx=ctx).get(), strided)
    fortran = np.asfortranarray(x)
    a = clrt.to_device(fortran, ctx=ctx)  # goes as the transpose of its memory, no copy
    np.testing.assert_array_equal(a.get(), x)
    np.testing.assert_array_equal((a + 0.0).get(), x)
    np.testing.assert_array_equal(clrt.to_device(x.T, ctx=ctx).get(), x.T)
    swapped = x.astype(">f8")  # non-native byte order
    np.testing.assert_array_equal(clrt.to_device(swapped, ctx=ctx).get(), x)


def test_python_lists(ctx):
    a = clrt.to_device([[1.0, 2.0], [3.0, 4.0]], ctx=ctx)
    assert a.dtype == np.float64 and a.get().tolist() == [[1, 2], [3, 4]]
    assert clrt.to_device(np.float32(2.5), ctx=ctx).item() == 2.5


@pytest.mark.parametrize("bad", [np.float16, np.uint8, np.complex64, np.int16])
def test_unsupported_dtypes(ctx, bad):
    with pytest.raises(clrt.Error) as e:
        clrt.to_device(np.zeros(3, bad), ctx=ctx)
    assert e.value.name == "CLRT_EINVAL" and "astype" in e.value.message
    assert isinstance(e.value, TypeError)  # as PyTorch raises for a dtype it lacks
    with pytest.raises(TypeError):
        clrt.empty(3, bad, ctx=ctx)


@pytest.mark.parametrize("dtype", [np.int64, bool])
def test_int64_and_bool_round_trip(ctx, rng, dtype):
    """int64 (PyTorch's labels) and bool are held as int32 on the device: values in the int32
    range round-trip exactly, others are refused by name, never wrapped."""
    x = rng.integers(-2 ** 31, 2 ** 31, (7, 17)).astype(dtype)
    a = clrt.to_device(x, ctx=ctx)
    assert a.dtype == np.dtype(dtype) and a.get().dtype == np.dtype(dtype)
    np.testing.assert_array_equal(a.get(), x)
    if dtype is np.int64:
        for bad in (2 ** 31, -2 ** 31 - 1):
            with pytest.raises(ValueError, match=str(bad)):
                clrt.to_device(np.array([1, bad], np.int64), ctx=ctx)


def test_bad_shapes(ctx):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)  # N dimensions are tensors now
    np.testing.assert_array_equal(clrt.to_device(x, ctx=ctx).get(), x)
    for shape in [(0,), (3, 0), 0]:
        with pytest.raises(clrt.Error, match="never empty") as e:
            clrt.empty(shape, ctx=ctx)
        assert e.value.name == "CLRT_EINVAL"
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        clrt.empty((-1, 2), ctx=ctx)
    with pytest.raises(TypeError):
        clrt.empty("abc", ctx=ctx)
    a = clrt.empty((2, 3), ctx=ctx)
    with pytest.raises(clrt.Error, match="shape"):
        a.set(np.zeros((3, 2), np.float32))


def test_too_large_is_the_library_error(ctx):
    n = int(ctx.device.max_alloc // 4 + 1)
    with pytest.raises(clrt.Error) as e:
        clrt.empty((1, n), np.float32, ctx=ctx)
    assert e.value.name == "CLRT_ENOMEM" and "clrt_buffer_create" in e.value.message


def test_copy_and_item(ctx):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = clrt.to_device(x, ctx=ctx)
    b = a.copy()
    a.set(np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(b.get(), x)
    np.testing.assert_array_equal(a.T.copy().get(), np.zeros((3, 2)))
    assert float(clrt.to_device(np.float64(3.5), ctx=ctx)) == 3.5
    col_sums = b.sum(axis=1)  # a row of 2 held as a 2 x 1 buffer
    np.testing.assert_array_equal(col_sums.copy().get(), x.sum(axis=1))
    np.testing.assert_array_equal(b[:, 1].copy().get(), x[:, 1])
    with pytest.raises(clrt.Error):
        b.item()
