"""The former clrt.Array API, folded into clrt.Tensor: the same type under its old name,
and the old functions as thin forms of the tensor ones (docs/python.md lists both).

    clrt.to_device(x, ctx=None)          clrt.tensor(x, dtype=x's) / clrt.from_numpy(x)
    clrt.empty((r, c), np.float64, ctx)  clrt.empty(r, c, dtype=clrt.float64, device=ctx)
    a.get()                              a.numpy()
    a.copy()                             a.clone()
    clrt.gemm(a, b, alpha, beta, c, trans_a, trans_b): BLAS's form, as before

Each keeps its old behaviour where the tensor's is the same; where tensors do more
(N dimensions, int64, promotion between dtypes), the old names do too.
"""
import numpy as np

from . import _create, _dtype, _errors, _ops
from ._tensor import Tensor, from_host, resolve_ctx

Array = Tensor


def to_device(x, ctx=None):
    """Copy a numpy array (or anything np.asarray takes) to the device, its dtype kept
    (float32, float64, int32, int64, bool; others: TypeError, convert first)."""
    if isinstance(x, Tensor):
        raise _errors.type_error("clrt.to_device: already a clrt tensor (use .clone() or .to())")
    x = np.asarray(x)
    return from_host(x, _dtype.get(x.dtype, "clrt.to_device"), resolve_ctx(ctx),
                     "clrt.to_device")


def _sizes(size, dtype, ctx, who):
    """(size, dtype, ctx) from PyTorch's empty(*size, dtype=) or the former
    empty(shape, dtype, ctx) (a tuple shape, then positional dtype and context)."""
    if 2 <= len(size) <= 3 and isinstance(size[0], (tuple, list)) and dtype is None:
        return (size[0],), size[1], size[2] if len(size) == 3 else ctx
    if len(size) == 2 and dtype is None and not isinstance(size[1], (int, np.integer)) \
            and not isinstance(size[1], (tuple, list, float)):
        return (size[0],), size[1], ctx  # empty(4, np.float64): a count and a dtype
    return size, dtype, ctx


def empty(*size, dtype=None, device=None, requires_grad=False, ctx=None):
    size, dtype, ctx = _sizes(size, dtype, ctx, "clrt.empty")
    return _create.empty(*size, dtype=dtype, device=device, requires_grad=requires_grad, ctx=ctx)


def zeros(*size, dtype=None, device=None, requires_grad=False, ctx=None):
    size, dtype, ctx = _sizes(size, dtype, ctx, "clrt.zeros")
    return _create.zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad, ctx=ctx)


def ones(*size, dtype=None, device=None, requires_grad=False, ctx=None):
    size, dtype, ctx = _sizes(size, dtype, ctx, "clrt.ones")
    return _create.ones(*size, dtype=dtype, device=device, requires_grad=requires_grad, ctx=ctx)


def gemm(a, b, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False):
    """c = alpha * op(a) @ op(b) + beta * c, op(x) = x or x.T; returns c (new when None).
    1-D operands count as 1 x n rows; a.T is accepted as well as trans_a=True."""
    return _ops.gemm(a, b, alpha, beta, c, trans_a, trans_b)
