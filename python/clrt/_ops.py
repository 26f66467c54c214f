"""The device operations on tensors, without autograd: elementwise (with broadcasting,
promotion and out=), conversions, copies, reductions, argmax and products.

Each picks the library's own call where the operands are matrices it takes (tuned
kernels: clrt_binary, clrt_unary, clrt_reduce, clrt_gemm, ...) and the binding's
strided kernels (_strided.py) for any other layout. Nothing here reads values back to
the host. _math.py records the autograd graph around these.
"""
import numbers

import numpy as np

from . import _dtype, _errors, _strided as S
from ._lib import check, lib
from ._tensor import (Tensor, contiguous_strides, copy_range, empty_tensor, matrix, matrix_form,
                      shape2d, view_of)

_C_BINARY = {S.B_ADD, S.B_SUB, S.B_MUL, S.B_DIV, S.B_MIN, S.B_MAX}  # clrt_binary's codes
_C_UNARY = set(range(1, 9))  # clrt_unary's codes: NEG..SIGMOID
_SCALAR_CACHE = 256
REDUCE_SUM, REDUCE_MAX, REDUCE_MIN = 1, 2, 3
ALL, EACH_ROW, EACH_COL = 0, 1, 2
_BIN_NAMES = {S.B_ADD: "add", S.B_SUB: "sub", S.B_MUL: "mul", S.B_DIV: "div", S.B_MIN: "minimum",
              S.B_MAX: "maximum", S.B_POW: "pow", S.B_REM: "remainder",
              S.B_FLOORDIV: "floor_divide", S.B_AND: "bitwise_and", S.B_OR: "bitwise_or",
              S.B_XOR: "bitwise_xor", S.B_ATAN2: "atan2", S.B_SECOND: "copy"}


def is_scalar(x):
    return isinstance(x, (numbers.Real, np.number, np.bool_)) and not isinstance(x, np.ndarray)


def check_scalar(x, who):
    if isinstance(x, (complex, np.complexfloating)):
        raise _errors.type_error(f"{who}: complex scalar {x!r}: clrt tensors are real "
                                 "(float32, float64, int32, int64, bool)")
    if not is_scalar(x):
        if isinstance(x, np.ndarray):
            raise _errors.type_error(f"{who}: a numpy array and a clrt tensor; move it to the "
                                     "device first with clrt.from_numpy (or clrt.to_device)")
        raise _errors.type_error(f"{who}: unsupported operand type {type(x).__name__}")


def same_context(who, *ts):
    ctx = ts[0]._st.ctx
    for t in ts[1:]:
        if t._st.ctx is not ctx:
            raise _errors.runtime_error(
                f"{who}: Expected all tensors to be on the same device, but found tensors on "
                f"different contexts ({ctx!r} and {t._st.ctx!r}); move one with "
                ".to(other.device)")
    return ctx


def new(like_ctx, shape, dtype, who):
    return empty_tensor(like_ctx, tuple(shape), dtype, who)


def _geo(t, shape=None):
    """(storage, shape, strides, offset) of t, its strides broadcast to shape (0 where t
    has size 1 or lacks the dimension)."""
    if shape is None or tuple(shape) == t._shape:
        return (t._st, t._shape, t._stride, t._offset)
    pad = len(shape) - t.ndim
    st = tuple(0 if (i < pad or t._shape[i - pad] == 1 and shape[i] != 1) else t._stride[i - pad]
               for i in range(len(shape)))
    return (t._st, tuple(shape), st, t._offset)


def broadcast_shapes(sa, sb, who):
    if sa == sb:  # the common case, checked first: binary ops run it on every call
        return tuple(sa)
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + tuple(sa), (1,) * (n - len(sb)) + tuple(sb)
    for i in range(n - 1, -1, -1):  # PyTorch names the last dimension that differs
        x, y = pa[i], pb[i]
        if x != y and x != 1 and y != 1:
            raise _errors.shape_error(
                f"{who}: The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {i} (shapes {tuple(sa)} and {tuple(sb)} do not "
                "broadcast)")
    return tuple(max(x, y) for x, y in zip(pa, pb))


def span(t):
    """The range of storage elements t can touch, [lo, hi]."""
    lo = hi = t._offset
    for n, s in zip(t._shape, t._stride):
        if s > 0:
            hi += (n - 1) * s
        else:
            lo += (n - 1) * s
    return lo, hi


def overlaps(a, b):
    """Whether a and b share any memory (by element ranges of one storage)."""
    if a._st is not b._st:
        return False
    la, ha = span(a)
    lb, hb = span(b)
    return la <= hb and lb <= ha


def same_layout(a, b, shape):
    """Whether a seen as shape and b seen as shape walk the same elements in order."""
    ga, gb = _geo(a, shape), _geo(b, shape)
    return a._st is b._st and ga[2:] == gb[2:]


# ---- scalars as 1-element tensors (kept per context: x * 0.5 in a loop makes one)

def scalar_tensor(ctx, dtype, value, who):
    key = (dtype.name, float(value).hex() if dtype.is_floating_point else int(value))
    t = ctx._scalars.get(key)
    if t is None or t._st.ptr is None:
        if len(ctx._scalars) >= _SCALAR_CACHE:
            ctx._scalars.clear()
        t = empty_tensor(ctx, (), dtype, who)
        fill(t, value, who)
        ctx._scalars[key] = t
    return t


def coerce_scalar(value, dtype, who):
    """value as a Python number of dtype's kind (int64/int32/bool within their range)."""
    if dtype.is_floating_point:
        return float(value)
    v = int(value)
    if v != value:
        raise _errors.type_error(f"{who}: scalar {value!r} is not exactly an {dtype.name}")
    if not -2 ** 31 <= v < 2 ** 31:
        raise _errors.value_error(f"{who}: value {v} is outside the int32 range clrt holds "
                                  f"{dtype.name} in on the device")
    return v


# ---- writes

def fill(t, value, who="Tensor.fill_"):
    """Every element of t = value (t any layout)."""
    value = coerce_scalar(value, t.dtype, who)
    if t.is_contiguous():
        r, c = shape2d(t._shape)
        check(lib.clrt_fill(t._queue(who), matrix(t, r, c, who).handle(who), float(value)))
    else:
        S.launch_ew(t._st.ctx, "ew_unary", t.dtype.code, S.U_FILL, _geo(t), _geo(t), None,
                    value, 0, who)
    return t


def copy_into(dst, src, who="Tensor.copy_"):
    """dst[...] = src, src broadcast to dst's shape and converted to its dtype."""
    if not isinstance(src, Tensor):
        if is_scalar(src):
            return fill(dst, src, who)
        raise _errors.type_error(f"{who}: cannot copy a {type(src).__name__} into a tensor")
    same_context(who, dst, src)
    if broadcast_shapes(dst._shape, src._shape, who) != dst._shape:
        raise _errors.shape_error(f"{who}: a tensor of shape {src._shape} does not broadcast "
                                  f"to the destination's shape {dst._shape}")
    if src.dtype is not dst.dtype and src.dtype.code != dst.dtype.code or \
            (dst.dtype is _dtype.bool_ and src.dtype is not _dtype.bool_):
        src = cast(src, dst.dtype)
    if overlaps(dst, src) and not same_layout(dst, src, dst._shape):
        src = contiguous(src, force=True)
    if src._shape == dst._shape and src.is_contiguous() and dst.is_contiguous():
        r, c = shape2d(dst._shape)
        if not (dst._st is src._st and dst._offset == src._offset):
            check(lib.clrt_copy(dst._queue(who), matrix(dst, r, c, who).handle(who),
                                matrix(src, r, c, who).handle(who)))
        return dst
    S.launch_ew(dst._st.ctx, "ew_unary", dst.dtype.code, S.U_COPY, _geo(dst),
                _geo(src, dst._shape), None, 0, 0, who)
    return dst


def contiguous(t, force=False):
    """t if its elements are in order (and force is False), else a dense copy."""
    if t.is_contiguous() and not force:
        return t
    out = new(t._st.ctx, t._shape, t.dtype, "Tensor.contiguous")
    copy_range(out, t)
    S.launch_ew(t._st.ctx, "ew_unary", t.dtype.code, S.U_COPY, _geo(out), _geo(t), None, 0, 0,
                "Tensor.contiguous")
    return out


def clone(t):
    out = new(t._st.ctx, t._shape, t.dtype, "Tensor.clone")
    copy_into(out, t, "Tensor.clone")
    copy_range(out, t)
    return out


def cast(t, dtype, who="Tensor.to"):
    """A new tensor of dtype holding t's values converted (float to int truncates toward
    zero, as C and numpy; to bool: nonzero)."""
    if dtype is t.dtype:
        return clone(t)
    out = new(t._st.ctx, t._shape, dtype, who)
    if t.dtype.code == dtype.code and dtype is not _dtype.bool_:
        # int32, int64 and bool share the device's int32: a copy
        S.launch_ew(t._st.ctx, "ew_unary", 3, S.U_COPY, _geo(out), _geo(t), None, 0, 0, who)
        copy_range(out, t)
        return out
    S.launch_cast(t._st.ctx, t.dtype.code, dtype.code, dtype is _dtype.bool_, _geo(out),
                  _geo(t), who)
    return out


# ---- elementwise

def _operands(a, b, who):
    """(a, b, dtype of the operation): scalars become 1-element tensors of the tensor's
    dtype (PyTorch's promotion: a scalar does not widen a tensor of its category)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        same_context(who, a, b)
        dt = _dtype.result_type(a.dtype, b.dtype)
        if a.dtype is not dt:
            a = cast(a, dt, who)
        if b.dtype is not dt:
            b = cast(b, dt, who)
        return a, b, dt
    t, s = (a, b) if isinstance(a, Tensor) else (b, a)
    if not isinstance(t, Tensor):
        raise _errors.type_error(f"{who}: needs a tensor")
    check_scalar(s, who)
    dt = _dtype.scalar_type(t.dtype, s)
    if t.dtype is not dt:
        t = cast(t, dt, who)
    st = scalar_tensor(t._st.ctx, dt, coerce_scalar(s, dt, who), who)
    return (t, st, dt) if isinstance(a, Tensor) else (st, t, dt)


def check_out(out, shape, dtype, who):
    if not isinstance(out, Tensor):
        raise _errors.type_error(f"{who}: out must be a clrt.Tensor, not "
                                 f"{type(out).__name__}")
    if out._shape != tuple(shape):
        raise _errors.shape_error(f"{who}: out has shape {out._shape}, the result "
                                  f"{tuple(shape)}")
    if out.dtype is not dtype:
        raise _errors.runtime_error(f"{who}: out is {out.dtype.name}, the result "
                                    f"{dtype.name}")


def _c_matrix(t, shape, rc=None):
    """t's matrix for clrt_binary/clrt_unary when t is contiguous and of shape (rc: the
    matrix shape2d(shape) gives, when the caller has it)."""
    if t._shape != tuple(shape) or not t.is_contiguous():
        return None
    r, c = rc or shape2d(shape)
    return matrix(t, r, c, "clrt")


def binary(op, a, b, out=None, who=None):
    """a op b with broadcasting; out= writes into an existing tensor (any layout)."""
    who = who or f"clrt.{_BIN_NAMES.get(op, 'binary')}"
    if op in (S.B_FLOORDIV, S.B_REM) and is_scalar(b) and b == 0 and isinstance(a, Tensor) \
            and not a.dtype.is_floating_point and not isinstance(b, float):
        raise ZeroDivisionError(f"{who}: integer division by zero")  # as PyTorch
    a, b, dt = _operands(a, b, who)
    if op == S.B_DIV and not dt.is_floating_point:  # PyTorch: / of integers is a float
        dt = _dtype.float32
        a, b = cast(a, dt, who), cast(b, dt, who)
    if op in (S.B_AND, S.B_OR, S.B_XOR) and dt.is_floating_point:
        raise _errors.runtime_error(f"{who}: not implemented for {dt.name} (integers and "
                                    "bools only)")
    shape = broadcast_shapes(a._shape, b._shape, who)
    ctx = a._st.ctx
    if out is not None:
        check_out(out, shape, dt, who)
        same_context(who, out, a)
        for x in (a, b):
            if overlaps(out, x) and not same_layout(out, x, shape):
                tmp = binary(op, a, b, None, who)  # an operand that out partly overlaps
                copy_into(out, tmp, who)
                return out
    res = out if out is not None else new(ctx, shape, dt, who)
    if dt.is_floating_point and op in _C_BINARY:
        rc = shape2d(shape)
        mc, ma = _c_matrix(res, shape, rc), _c_matrix(a, shape, rc)
        if mc is not None and ma is not None:
            mb = _c_matrix(b, shape, rc)
            if mb is None and b.numel() == 1 and b.is_contiguous():
                mb = matrix(b, 1, 1, who)
            if mb is not None:
                check(lib.clrt_binary(ctx._q, op, mc.handle(who), ma.handle(who),
                                      mb.handle(who)))
                return res
    S.launch_ew(ctx, "ew_binary", dt.code, op, _geo(res), _geo(a, shape), _geo(b, shape),
                who=who)
    return res


def compare(op, a, b, who="clrt.compare"):
    """a op b elementwise as a bool tensor (==, !=, <, <=, >, >=)."""
    a, b, dt = _operands(a, b, who)
    shape = broadcast_shapes(a._shape, b._shape, who)
    res = new(a._st.ctx, shape, _dtype.bool_, who)
    S.launch_ew(a._st.ctx, "ew_compare", dt.code, op, _geo(res), _geo(a, shape), _geo(b, shape),
                who=who)
    return res


def unary(op, a, p=0.0, q=0.0, out=None, who=None):
    """f(a) elementwise (_strided.U_*), p and q the op's parameters."""
    who = who or "clrt.unary"
    if not isinstance(a, Tensor):
        raise _errors.type_error(f"{who}: expected a clrt.Tensor, got {type(a).__name__}")
    dt = a.dtype
    if op in S.FLOAT_ONLY_UNARY and not dt.is_floating_point:
        dt = _dtype.float32  # PyTorch: exp, sqrt, ... of integers are floats
        a = cast(a, dt, who)
    if op == S.U_ISNAN:
        dt = a.dtype
    if out is not None:
        check_out(out, a._shape, out.dtype if op == S.U_ISNAN else dt, who)
        same_context(who, out, a)
        if overlaps(out, a) and not same_layout(out, a, a._shape):
            return copy_into(out, unary(op, a, p, q, None, who), who)
    res = out if out is not None else new(a._st.ctx, a._shape, dt, who)
    if dt.is_floating_point and op in _C_UNARY:
        mc, ma = _c_matrix(res, a._shape), _c_matrix(a, a._shape)
        if mc is not None and ma is not None:
            check(lib.clrt_unary(a._st.ctx._q, op, mc.handle(who), ma.handle(who)))
            return res
    if dt.is_floating_point:
        p, q = float(p), float(q)
    else:
        p, q = coerce_scalar(p, dt, who), coerce_scalar(q, dt, who)
    S.launch_ew(a._st.ctx, "ew_unary", dt.code, op, _geo(res), _geo(a), None, p, q, who)
    if op == S.U_ISNAN:
        return cast(res, _dtype.bool_, who)
    return res


# ---- reductions

def _reduce_dtype(t):
    """Integers and bools are reduced as float64 (exact below 2**53), then converted."""
    if t.dtype.is_floating_point:
        return t
    ctx = t._st.ctx
    return cast(t, _dtype.float64 if ctx.device.has_fp64 else _dtype.float32, "clrt.reduce")


def dims_arg(dim, ndim, who):
    """dim (None, an int, or a tuple of them; numpy's axis) as a sorted tuple of dims."""
    if dim is None:
        return tuple(range(ndim))
    from ._tensor import _dim
    if isinstance(dim, (tuple, list)):
        ds = tuple(sorted({_dim(d, ndim, who) for d in dim}))
        return ds if ndim else ()
    return (_dim(dim, ndim, who),) if ndim else ()


def _moved(t, dims):
    """t with the dims in `dims` moved last, contiguous: (tensor, kept count, reduced count)."""
    keep = [d for d in range(t.ndim) if d not in dims]
    order = keep + list(dims)
    if order != list(range(t.ndim)):
        t = view_of(t, tuple(t._shape[d] for d in order), tuple(t._stride[d] for d in order),
                    t._offset)
    t = contiguous(t)
    kept = 1
    for i in range(len(keep)):
        kept *= t._shape[i]
    return t, kept, t.numel() // kept


def _out_shape(shape, dims, keepdim):
    if keepdim:
        return tuple(1 if d in dims else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in dims)


def reduce(op, t, dim=None, keepdim=False, who="clrt.sum"):
    """sum / max / min of t over dim (None: all), PyTorch's shapes."""
    dims = dims_arg(dim, t.ndim, who)
    src = _reduce_dtype(t)
    shape = _out_shape(t._shape, dims, keepdim)
    ctx = t._st.ctx
    moved, kept, red = _moved(src, dims)
    res = new(ctx, shape if shape else (), src.dtype, who)
    if kept == 1:
        check(lib.clrt_reduce(ctx._q, op, ALL, matrix(res, 1, 1, who).handle(who),
                              matrix(moved, 1, red, who).handle(who)))
    elif red == 1:
        copy_into(res, view_of(moved, res._shape, contiguous_strides(res._shape),
                               moved._offset), who)
    else:
        check(lib.clrt_reduce(ctx._q, op, EACH_ROW, matrix(res, kept, 1, who).handle(who),
                              matrix(moved, kept, red, who).handle(who)))
    if t.dtype is not src.dtype:
        to = _dtype.int64 if op == REDUCE_SUM else t.dtype
        res = cast(res, to, who)
    return res


def argmax(t, dim=None, keepdim=False, negate=False, who="clrt.argmax"):
    """The index of the largest value along dim (None: of the flattened tensor), the
    first on ties, a NaN winning (numpy's and PyTorch's rule), as int64. negate: argmin."""
    src = _reduce_dtype(t)
    if negate:
        src = unary(S.U_NEG, src, who=who)
    ctx = t._st.ctx
    if dim is None:
        flat = contiguous(src)
        res = new(ctx, (1,) * t.ndim if keepdim else (), _dtype.int64, who)
        check(lib.clrt_argmax_rows(ctx._q, matrix(res, 1, 1, who).handle(who),
                                   matrix(flat, 1, flat.numel(), who).handle(who)))
        return res
    dims = dims_arg(dim, t.ndim, who)
    shape = _out_shape(t._shape, dims, keepdim)
    moved, kept, red = _moved(src, dims)
    res = new(ctx, shape if shape else (), _dtype.int64, who)
    check(lib.clrt_argmax_rows(ctx._q, matrix(res, kept, 1, who).handle(who),
                               matrix(moved, kept, red, who).handle(who)))
    return res


# ---- products

def _gemm2d(a, b, out, who):
    """out (m x n, contiguous) = a (m x k) @ b (k x n), 2-D tensors."""
    fa, fb = matrix_form(a, who), matrix_form(b, who)
    if fa is None:
        a = contiguous(a)
        fa = matrix_form(a, who)
    if fb is None:
        b = contiguous(b)
        fb = matrix_form(b, who)
    m, n = out._shape
    check(lib.clrt_gemm(out._queue(who), int(fa[1]), int(fb[1]), 1.0, fa[0].handle(who),
                        fb[0].handle(who), 0.0, matrix(out, m, n, who).handle(who)))
    return out


def matmul(a, b, who="clrt.matmul"):
    """a @ b with PyTorch's (numpy's) rules for 1-D, 2-D and batched operands."""
    for x in (a, b):
        if not isinstance(x, Tensor):
            check_scalar(x, who)
            raise _errors.type_error(f"{who}: both operands must be tensors")
    same_context(who, a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise _errors.runtime_error(f"{who}: both arguments to matmul need to be at least 1D, "
                                    f"but they are {a.ndim}D and {b.ndim}D (use * for scalars)")
    if a.dtype is not b.dtype:
        raise _errors.runtime_error(f"{who}: expected both operands to have the same dtype, "
                                    f"but got {a.dtype.name} and {b.dtype.name}")
    if not a.dtype.is_floating_point:
        raise _errors.runtime_error(f"{who}: not implemented for {a.dtype.name} (float32 and "
                                    "float64 only)", _errors.EUNSUPPORTED)
    ka = a._shape[-1]
    kb = b._shape[0] if b.ndim == 1 else b._shape[-2]
    if ka != kb:
        sa = "x".join(map(str, a._shape))
        sb = "x".join(map(str, b._shape))
        raise _errors.shape_error(f"{who}: mat1 and mat2 shapes cannot be multiplied "
                                  f"({sa} and {sb}): inner dimensions {ka} and {kb} differ")
    ctx = a._st.ctx
    a2 = view_of(a, (1,) + a._shape, (0,) + a._stride, a._offset) if a.ndim == 1 else a
    b2 = view_of(b, b._shape + (1,), b._stride + (0,), b._offset) if b.ndim == 1 else b
    if a2.ndim == 2 and b2.ndim == 2:
        out = new(ctx, (a2._shape[0], b2._shape[1]), a.dtype, who)
        _gemm2d(a2, b2, out, who)
    else:
        batch = broadcast_shapes(a2._shape[:-2], b2._shape[:-2], who)
        m, n = a2._shape[-2], b2._shape[-1]
        out = new(ctx, batch + (m, n), a.dtype, who)
        _gemm_batched(a2, b2, out, batch, who)
    shape = out._shape
    if a.ndim == 1:
        shape = shape[:-2] + shape[-1:]
    if b.ndim == 1:
        shape = shape[:-1]
    if shape != out._shape:
        out = view_of(out, shape, contiguous_strides(shape), 0)
    return out


def _stacked(x, batch, who):
    """(buffer, transposed, stride in rows) of x (batch dimensions broadcast to batch) as
    clrt_gemm_strided_batched takes an operand: one matrix for the whole batch (stride
    0) when x has no batch of its own, else its matrices stacked by rows, x made
    contiguous first when they are not."""
    rows, cols = x._shape[-2:]
    if all(s == 1 for s in x._shape[:-2]):
        one = view_of(x, (rows, cols), x._stride[-2:], x._offset)
        form = matrix_form(one, who)
        if form is None:
            form = matrix_form(contiguous(one), who)
        return form[0], form[1], 0
    full = batch + (rows, cols)
    if x._shape != full or not x.is_contiguous():
        x = contiguous(view_of(x, full, _geo(x, full)[2], x._offset))
    return matrix(x, x.numel() // cols, cols, who), False, rows


def _gemm_batched(a, b, out, batch, who):
    """out (batch + (m, n), contiguous) = a @ b over the broadcast batch: one
    clrt_gemm_strided_batched launch."""
    m, n = out._shape[-2:]
    count, k = out.numel() // (m * n), a._shape[-1]  # tensors are never empty
    ha, ta, sa = _stacked(a, batch, who)
    hb, tb, sb = _stacked(b, batch, who)
    check(lib.clrt_gemm_strided_batched(out._queue(who), int(ta), int(tb), m, n, k, 1.0, ha.handle(who),
                                        sa, hb.handle(who), sb, 0.0,
                                        matrix(out, count * m, n, who).handle(who), m, count))
    return out


def gemm(a, b, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False,
         who="clrt.gemm"):
    """c = alpha * op(a) @ op(b) + beta * c on 2-D (or 1-D as one row) tensors."""
    for x in (a, b) + ((c,) if c is not None else ()):
        if not isinstance(x, Tensor):
            raise _errors.type_error(f"{who}: operands must be clrt tensors, not "
                                     f"{type(x).__name__}")
    ctx = same_context(who, a, b, *((c,) if c is not None else ()))
    if a.dtype is not b.dtype:
        raise _errors.shape_error(f"{who}: a is {a.dtype.name} and b {b.dtype.name}")
    forms = []
    for x, tr in ((a, trans_a), (b, trans_b)):
        x2 = x if x.ndim == 2 else view_of(x, (1,) + x._shape[-1:], (0,) + x._stride[-1:],
                                           x._offset) if x.ndim == 1 else x
        if x2.ndim != 2:
            raise _errors.shape_error(f"{who}: operands of 1 or 2 dimensions, not {x._shape}")
        f = matrix_form(x2, who)
        if f is None:
            x2 = contiguous(x2)
            f = matrix_form(x2, who)
        r, cc = x2._shape
        forms.append((f[0], int(f[1] != bool(tr)), (cc, r) if tr else (r, cc)))
    (ha, ta, (m, k)), (hb, tb, (k2, n)) = forms
    if k != k2:
        raise _errors.shape_error(f"{who}: op(a) is {m} x {k} and op(b) {k2} x {n}: "
                                  "inner dimensions differ")
    if c is None:
        if beta != 0:
            raise _errors.value_error(f"{who}: beta={beta} needs c")
        c = new(ctx, (m, n), a.dtype, who)
    fc = matrix_form(c, who) if c.ndim <= 2 else None
    if fc is None or fc[1] or shape2d(c._shape) != (m, n):
        raise _errors.shape_error(f"{who}: c has shape {c._shape}"
                                  f"{' (transposed)' if fc and fc[1] else ''}, the product is "
                                  f"{m} x {n}")
    check(lib.clrt_gemm(ctx._q, ta, tb, float(alpha), ha.handle(who), hb.handle(who),
                        float(beta), fc[0].handle(who)))
    c._bump_version()
    return c


def random_(t, kind, p, q, who):
    """Fill the contiguous float tensor t from the generator (uniform in [p, q), normal of
    mean p and std q, or bernoulli(p))."""
    from ._random import next_counter
    if t._offset != 0 or t.numel() != t._st.rows * t._st.cols:
        return copy_into(t, random_(new(t._st.ctx, t._shape, t.dtype, who), kind, p, q, who))
    seed, counter = next_counter(2 * t.numel())
    S.launch_random(t._st.ctx, t.dtype.code, t._st, t.numel(), seed, counter, kind, p, q, who)
    return t
