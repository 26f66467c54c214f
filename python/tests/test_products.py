"""@ and clrt.gemm against numpy, with transposes as flags, 1-D operands, and refusals."""
import numpy as np
import pytest

import clrt
from conftest import DTYPES, SIZES, assert_close, rand

MKN = [(1, 1, 1), (7, 1, 17), (17, 7, 1), (1, 65, 7), (65, 127, 17), (127, 17, 65), (127, 127, 127)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,k,n", MKN)
def test_matmul_and_transposes(ctx, rng, dtype, m, k, n):
    x, y = rand(rng, (m, k), dtype), rand(rng, (k, n), dtype)
    ref = x.astype(np.float64) @ y.astype(np.float64)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    assert_close((a @ b).get(), ref, dtype, k)
    at = clrt.to_device(np.ascontiguousarray(x.T), ctx=ctx).T  # memory k x m, seen m x k
    bt = clrt.to_device(np.ascontiguousarray(y.T), ctx=ctx).T
    assert_close((at @ b).get(), ref, dtype, k)
    assert_close((a @ bt).get(), ref, dtype, k)
    assert_close((at @ bt).get(), ref, dtype, k)
    assert_close((b.T @ a.T).get(), ref.T, dtype, k)
    assert_close(clrt.gemm(at.T, b, trans_a=True).get(), ref, dtype, k)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gemm_alpha_beta(ctx, rng, dtype):
    m, k, n = 17, 65, 7
    x, y, z = rand(rng, (k, m), dtype), rand(rng, (n, k), dtype), rand(rng, (m, n), dtype)
    a, b, c = (clrt.to_device(v, ctx=ctx) for v in (x, y, z))
    out = clrt.gemm(a, b, alpha=0.5, beta=-2.0, c=c, trans_a=True, trans_b=True)
    assert out is c
    ref = 0.5 * x.astype(np.float64).T @ y.astype(np.float64).T - 2.0 * z
    assert_close(c.get(), ref, dtype, k)
    c.set(np.full((m, n), np.nan, dtype))  # beta = 0: c's old values are ignored
    clrt.gemm(a, b, c=c, trans_a=True, trans_b=True)
    assert_close(c.get(), x.astype(np.float64).T @ y.T, dtype, k)


@pytest.mark.parametrize("n", SIZES)
def test_vectors(ctx, rng, n):
    mat, v, w = rand(rng, (n, 17), np.float64), rand(rng, (n,), np.float64), rand(rng, (17,), np.float64)
    A, V, W = (clrt.to_device(x, ctx=ctx) for x in (mat, v, w))
    for got, ref in ((V @ A, v @ mat), (A @ W, mat @ w), (V @ V, v @ v), (A.T @ V, mat.T @ v)):
        assert got.shape == ref.shape
        assert_close(got.get(), ref, np.float64, n)
    assert_close((A @ W + 1.0).get(), mat @ w + 1.0, np.float64, n)


def test_product_of_views(ctx, rng):
    x = rand(rng, (127, 127), np.float32)
    a = clrt.to_device(x, ctx=ctx)
    got = a[3:20, 5:70] @ a[10:75, 0:7]
    assert_close(got.get(), x[3:20, 5:70].astype(np.float64) @ x[10:75, 0:7], np.float32, 65)


BATCHED = [((3, 7, 17), (3, 17, 5)),         # stacked
           ((2, 1, 7, 17), (4, 17, 5)),     # batch dimensions broadcast both ways
           ((3, 7, 17), (17, 5)),           # b one matrix for the whole batch
           ((17,), (2, 3, 17, 5)),          # a vector against a batch
           ((2, 3, 7, 17), (17,)),          # a batch against a vector
           ((1, 65, 127), (5, 127, 1)),     # odd sizes, a one-column product
           ((2, 3, 1, 4), (1, 3, 4, 1))]    # one-element products


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sa,sb", BATCHED)
def test_matmul_batched(ctx, rng, dtype, sa, sb):
    """@ on batches as numpy broadcasts them: one clrt_gemm_strided_batched launch, on
    contiguous, broadcast and transposed operands alike."""
    x, y = rand(rng, sa, dtype), rand(rng, sb, dtype)
    ref = np.matmul(x.astype(np.float64), y.astype(np.float64))
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    got = a @ b
    assert got.shape == ref.shape
    k = sa[-1]
    assert_close(got.get(), ref, dtype, k)
    if len(sa) >= 2 and len(sb) >= 2:  # the same products from transposed storage
        at = clrt.to_device(np.ascontiguousarray(np.swapaxes(x, -1, -2)), ctx=ctx).transpose(-1, -2)
        bt = clrt.to_device(np.ascontiguousarray(np.swapaxes(y, -1, -2)), ctx=ctx).transpose(-1, -2)
        assert_close((at @ bt).get(), ref, dtype, k)
        assert_close(clrt.matmul(at, b).get(), ref, dtype, k)


def test_matmul_batched_views(ctx, rng):
    """Batches that are views: every other matrix of a stack, and a window of each."""
    x, y = rand(rng, (6, 9, 20), np.float32), rand(rng, (3, 20, 11), np.float32)
    a, b = clrt.to_device(x, ctx=ctx), clrt.to_device(y, ctx=ctx)
    got = a[::2, 1:8, 3:19] @ b[:, 3:19, 2:9]
    ref = x[::2, 1:8, 3:19].astype(np.float64) @ y[:, 3:19, 2:9]
    assert_close(got.get(), ref, np.float32, 16)


def test_refusals(ctx, rng):
    a = clrt.to_device(rand(rng, (7, 17), np.float32), ctx=ctx)
    with pytest.raises(clrt.Error, match="inner dimensions") as e:
        a @ a
    assert e.value.name == "CLRT_ESHAPE"
    with pytest.raises(clrt.Error, match="float32"):
        a @ clrt.to_device(np.ones((17, 2)), ctx=ctx)
    with pytest.raises(clrt.Error, match="scalars"):
        a @ clrt.to_device(np.float32(1), ctx=ctx)
    with pytest.raises(clrt.Error, match="beta"):
        clrt.gemm(a, a.T, beta=1.0)
    with pytest.raises(clrt.Error, match="c has shape"):
        clrt.gemm(a, a.T, c=clrt.empty((7, 8), ctx=ctx))
    with pytest.raises(clrt.Error, match="numpy array"):
        a @ np.ones((17, 2), np.float32)
    with pytest.raises(clrt.Error) as e:  # the library's own check: c overlaps a
        clrt.gemm(a[0:7, 0:7], a[0:7, 0:7], c=a[0:7, 0:7])
    assert e.value.name == "CLRT_EINVAL" and "clrt_gemm" in e.value.message
    i = clrt.to_device(np.ones((3, 3), np.int32), ctx=ctx)
    with pytest.raises(clrt.Error) as e:
        i @ i
    assert e.value.name == "CLRT_EUNSUPPORTED"
