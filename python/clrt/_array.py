"""Array: a 0-, 1- or 2-D numpy-like array on a clrt device.

An Array is a _Buffer (a rows x cols clrt_buffer, or a view of one) seen either
as it is or transposed (`_trans`): a.T shares a's memory and only flips that
flag, so a.T in a product costs nothing (clrt_gemm takes the transpose flags).
A 1-D array of n elements is logically 1 x n; its buffer is 1 x n, or n x 1
seen transposed (what a reduction along rows gives). Operations that need the
memory as it is logically laid out (elementwise, argmax) transpose first.
"""
import numbers
import operator

import numpy as np

from . import _buffer, _context, _errors
from ._lib import check, lib

OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MIN, OP_MAX = 1, 2, 3, 4, 5, 6
UNARY = {"neg": 1, "abs": 2, "exp": 3, "log": 4, "sqrt": 5, "relu": 6, "tanh": 7, "sigmoid": 8}
REDUCE_SUM, REDUCE_MAX, REDUCE_MIN = 1, 2, 3
ALL, EACH_ROW, EACH_COL = 0, 1, 2
_SCALAR_CACHE = 256
_clrt_binary = lib.clrt_binary


def _refuse(status, msg):
    return _errors.refuse(status, msg)


def _shape2d(shape):
    """The logical rows x cols of a numpy shape of 0, 1 or 2 dimensions."""
    if len(shape) == 2:
        return shape
    return (1, shape[0]) if len(shape) == 1 else (1, 1)


def _normalize_shape(shape, who):
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    try:
        shape = tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise _refuse(_errors.EINVAL, f"{who}: shape must be an int or a tuple of ints, "
                                      f"not {shape!r}") from None
    if len(shape) > 2:
        raise _refuse(_errors.ESHAPE, f"{who}: shape {shape} has {len(shape)} dimensions; clrt "
                                      "arrays have 0, 1 or 2")
    if any(n <= 0 for n in shape):
        raise _refuse(_errors.EINVAL, f"{who}: shape {shape} has a zero or negative dimension; "
                                      "clrt arrays are never empty")
    return shape


def _dtype(dtype, who):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise _refuse(_errors.EINVAL, f"{who}: {dtype!r} is not a dtype") from None
    if dt.newbyteorder("=") in _buffer.DTYPES:
        return dt.newbyteorder("=")
    if dt not in _buffer.DTYPES:
        raise _refuse(_errors.EINVAL, f"{who}: dtype {dt} is not one clrt holds (float32, "
                                      f"float64, int32); convert first, e.g. x.astype(np.float32)")
    return dt


class Array:
    """A numpy-like array on a clrt device. Make one with clrt.to_device or clrt.empty."""

    __array_ufunc__ = None  # numpy defers to us: ndarray + Array raises our clear error

    __slots__ = ("_b", "_trans", "shape", "dtype")

    def __init__(self, buf, shape, trans=False):
        self._b, self.shape, self._trans, self.dtype = buf, shape, trans, buf.dtype

    # -- facts
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def context(self):
        return self._b.ctx

    @property
    def T(self):
        """The transpose, sharing this array's memory (no copy): a flag that products use."""
        if self.ndim < 2:
            return self
        return Array(self._b, (self.shape[1], self.shape[0]), not self._trans)

    @property
    def is_view(self):
        return self._b.is_view

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d clrt array")
        return self.shape[0]

    def __repr__(self):
        state = "closed" if self._b.ptr is None else f"on {self._b.ctx.device.name}"
        return f"<clrt.Array shape={self.shape} dtype={self.dtype} {state}>"

    def close(self):
        """Free the device memory now (also frees it for a.T and other arrays sharing it)."""
        self._b._release()

    # -- host transfers
    def _q(self, who):
        return self._b.ctx._handles(who)[1]

    def get(self):
        """A numpy array holding the values (waits for the work that writes them)."""
        b = self._b
        h, q = b.handle("Array.get"), self._q("Array.get")
        host = np.empty((b.rows, b.cols), self.dtype)
        check(lib.clrt_buffer_read(q, h, host.ctypes.data, b.rows * b.cols))
        if self._trans:
            host = np.ascontiguousarray(host.T)
        return host.reshape(self.shape)

    def __array__(self, dtype=None):
        """np.asarray(a): the values on the host, as get() gives them."""
        host = self.get()
        return host if dtype is None else host.astype(dtype)

    def set(self, x):
        """Write numpy data of this array's shape into it (views: only the window)."""
        x = np.asarray(x)
        if x.shape != self.shape:
            raise _refuse(_errors.ESHAPE, f"Array.set: data of shape {x.shape} into an array of "
                                          f"shape {self.shape}")
        x = x.reshape(_shape2d(self.shape))
        if self._trans:
            x = x.T
        x = np.ascontiguousarray(x, dtype=self.dtype)
        h, q = self._b.handle("Array.set"), self._q("Array.set")
        check(lib.clrt_buffer_write(q, h, x.ctypes.data, x.size))

    def item(self):
        if self.size != 1:
            raise _refuse(_errors.ESHAPE, f"Array.item: array of shape {self.shape} has "
                                          f"{self.size} elements, not 1")
        return self.get().reshape(()).item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def copy(self):
        """A new array with the same values, dense and laid out as it is seen."""
        if self._trans:
            return _dense(self, "Array.copy")
        out = _new_like(self, self.shape, "Array.copy")
        check(lib.clrt_copy(self._q("Array.copy"), out._b.handle("Array.copy"),
                            self._b.handle("Array.copy")))
        return out

    # -- views
    def __getitem__(self, key):
        return _index(self, key)

    def __setitem__(self, key, value):
        target = _index(self, key)
        if isinstance(value, Array):
            _same_context("Array.__setitem__", target, value)
            src = _dense(value, "Array.__setitem__") if value._trans else value
            if target._trans or _shape2d(src.shape) != _shape2d(target.shape):
                target.set(value.get())  # rare: shapes or layouts that copy cannot pair
                return
            check(lib.clrt_copy(self._q("Array.__setitem__"),
                                target._b.handle("Array.__setitem__"),
                                src._b.handle("Array.__setitem__")))
        elif _is_scalar(value):
            check(lib.clrt_fill(self._q("Array.__setitem__"),
                                target._b.handle("Array.__setitem__"), float(value)))
        else:
            target.set(np.broadcast_to(np.asarray(value, self.dtype), target.shape))

    # -- arithmetic (numpy broadcasting, scalars on either side)
    def __add__(self, o):
        return binary(OP_ADD, self, o, "+")

    def __radd__(self, o):
        return binary(OP_ADD, o, self, "+")

    def __sub__(self, o):
        return binary(OP_SUB, self, o, "-")

    def __rsub__(self, o):
        return binary(OP_SUB, o, self, "-")

    def __mul__(self, o):
        return binary(OP_MUL, self, o, "*")

    def __rmul__(self, o):
        return binary(OP_MUL, o, self, "*")

    def __truediv__(self, o):
        return binary(OP_DIV, self, o, "/")

    def __rtruediv__(self, o):
        return binary(OP_DIV, o, self, "/")

    def __neg__(self):
        return unary("neg", self)

    def __abs__(self):
        return unary("abs", self)

    def __matmul__(self, o):
        return matmul(self, o)

    def __rmatmul__(self, o):
        return matmul(o, self)

    # -- reductions
    def sum(self, axis=None, keepdims=False):
        return reduce(REDUCE_SUM, self, axis, keepdims, "Array.sum")

    def max(self, axis=None, keepdims=False):
        return reduce(REDUCE_MAX, self, axis, keepdims, "Array.max")

    def min(self, axis=None, keepdims=False):
        return reduce(REDUCE_MIN, self, axis, keepdims, "Array.min")

    def mean(self, axis=None, keepdims=False):
        return mean(self, axis, keepdims)

    def argmax(self, axis=None):
        return argmax(self, axis)

    # -- shape and dtype
    def reshape(self, *shape):
        """The same elements in another shape of the same count (numpy's C order; one -1
        is inferred): a view sharing this array's memory where its elements are one run
        of it in that order (a whole array, rows of one, a 1-D view), else a new array
        (a strided window, a transpose of a matrix), as numpy copies then too."""
        return reshape(self, shape[0] if len(shape) == 1 else shape)

    def astype(self, dtype, copy=True):
        """A new array of dtype (float32, float64 or int32) holding these values converted
        as numpy converts them; the same dtype gives a copy, or this array with copy=False."""
        return astype(self, dtype, copy)


# ---- making arrays

def empty(shape, dtype=np.float32, ctx=None):
    """An uninitialised array of shape (0, 1 or 2 dimensions) and dtype on ctx (default context)."""
    shape = _normalize_shape(shape, "clrt.empty")
    dt = _dtype(dtype, "clrt.empty")
    ctx = _context.resolve(ctx)
    r, c = _shape2d(shape)
    return Array(_buffer.new(ctx, r, c, dt, "clrt.empty"), shape)


def zeros(shape, dtype=np.float32, ctx=None):
    a = empty(shape, dtype, ctx)
    check(lib.clrt_fill(a._q("clrt.zeros"), a._b.ptr, 0.0))
    return a


def to_device(x, ctx=None):
    """Copy a numpy array (or anything np.asarray takes) to the device.

    float32, float64 and int32 only (others: clrt.Error, convert first). Non-contiguous
    input is copied to a contiguous one first; a Fortran-ordered 2-D array (such as
    x.T of a C array) goes without that copy, as the transpose of its memory."""
    if isinstance(x, Array):
        raise _refuse(_errors.EINVAL, "clrt.to_device: already a clrt array (use .copy())")
    x = np.asarray(x)
    _normalize_shape(x.shape, "clrt.to_device")
    dt = _dtype(x.dtype, "clrt.to_device")
    ctx = _context.resolve(ctx)
    trans = x.ndim == 2 and not x.flags.c_contiguous and x.flags.f_contiguous
    host = x.T if trans else x
    host = np.ascontiguousarray(host, dtype=dt)
    r, c = _shape2d(host.shape)
    buf = _buffer.new(ctx, r, c, dt, "clrt.to_device")
    check(lib.clrt_buffer_write(ctx._q, buf.ptr, host.ctypes.data, r * c))
    return Array(buf, x.shape, trans)


def _new_like(a, shape, who, dtype=None):
    r, c = _shape2d(shape)
    return Array(_buffer.new(a._b.ctx, r, c, dtype or a.dtype, who), shape)


def _dense(a, who):
    """a laid out in memory as it is seen: a itself, or its transpose made real."""
    if not a._trans:
        return a
    r, c = _shape2d(a.shape)
    out = Array(_buffer.new(a._b.ctx, r, c, a.dtype, who), a.shape)
    check(lib.clrt_transpose(a._q(who), out._b.ptr, a._b.handle(who)))
    return out


def _same_context(who, *arrays):
    ctx = arrays[0]._b.ctx
    for a in arrays[1:]:
        if a._b.ctx is not ctx:
            raise _refuse(_errors.EINVAL, f"{who}: the arrays belong to different contexts "
                                          f"({ctx!r} and {a._b.ctx!r}); copy through the host "
                                          "with clrt.to_device(a.get(), ctx=...)")
    return ctx


def _is_scalar(x):
    return isinstance(x, (numbers.Real, np.number, np.bool_)) and not isinstance(x, np.ndarray)


def _operand_error(who, x):
    if isinstance(x, np.ndarray):
        return _refuse(_errors.EINVAL, f"clrt: operator {who} between a clrt array and a numpy "
                                       "array; move it to the device first with clrt.to_device")
    return _refuse(_errors.EINVAL, f"clrt: operator {who} does not take {type(x).__name__}")


# ---- shape and dtype

def _target_shape(shape, size, who):
    """numpy's reshape argument (an int or a sequence of them, one of which may be -1)
    for an array of size elements, as a tuple; refusals as _normalize_shape's."""
    if isinstance(shape, (numbers.Integral, np.integer)):
        shape = (shape,)
    try:
        shape = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise _refuse(_errors.EINVAL, f"{who}: shape must be ints, not {shape!r}") from None
    if shape.count(-1) > 1:
        raise _refuse(_errors.EINVAL, f"{who}: shape {shape} has more than one -1")
    if len(shape) > 2 or any(n == 0 or n < -1 for n in shape):
        _normalize_shape(shape, who)  # its refusal: too many dimensions, or zero or negative
    known = int(np.prod([n for n in shape if n != -1], dtype=np.int64))
    if -1 in shape and size % known == 0:
        shape = tuple(size // known if n == -1 else n for n in shape)
    if int(np.prod(shape, dtype=np.int64)) != size:  # a -1 left makes the product negative
        raise _refuse(_errors.ESHAPE, f"{who}: an array of {size} elements does not fit "
                                      f"shape {shape}")
    return shape


def reshape(a, shape):
    who = "Array.reshape"
    shape = _target_shape(shape, a.size, who)
    b = a._b
    b.handle(who)
    r, c = _shape2d(shape)
    if (r, c) == _shape2d(a.shape):
        return Array(b, shape, a._trans)  # the same matrix: (n,) and (1, n), () and (1, 1)
    # Memory order is the logical order unless a is seen transposed; then only a vector
    # (a 1 x n buffer, or an n x 1 one whose rows are adjacent) is in order.
    in_order = not a._trans or b.rows == 1 or (b.cols == 1 and b.ld == 1)
    src = a if in_order and b.one_run else a.copy()  # copy(): dense, in logical order
    return Array(_buffer.reshape(src._b, r, c, who), shape)


def astype(a, dtype, copy=True):
    who = "Array.astype"
    dt = _dtype(dtype, who)
    if dt == a.dtype:
        return a.copy() if copy else a
    # The library converts no dtypes on the device: through the host, with numpy's rules
    # (float to int32 truncates toward zero; NaN and out-of-range values as numpy makes them).
    return to_device(a.get().astype(dt), ctx=a._b.ctx)


# ---- views

def _range(k, n, axis, who):
    if isinstance(k, slice):
        start, stop, step = k.indices(n)
        if step != 1:
            raise _refuse(_errors.EINVAL, f"{who}: step {step} in axis {axis}; views have step 1")
        if stop <= start:
            raise _refuse(_errors.EINVAL, f"{who}: empty range in axis {axis}; clrt arrays are "
                                          "never empty")
        return start, stop - start, True
    if isinstance(k, (numbers.Integral, np.integer)):
        i = int(k)
        if i < -n or i >= n:
            raise IndexError(f"{who}: index {i} is out of bounds for axis {axis} with size {n}")
        return i % n, 1, False
    raise _refuse(_errors.EINVAL, f"{who}: index {k!r} in axis {axis}: only ints and slices "
                                  "with step 1 (views) are supported")


def _index(a, key):
    who = "clrt.Array[...]"
    if not isinstance(key, tuple):
        key = (key,)
    if len(key) > a.ndim:
        raise IndexError(f"{who}: {len(key)} indices for an array of {a.ndim} dimensions")
    key = key + (slice(None),) * (a.ndim - len(key))
    ranges = [_range(k, n, i, who) for i, (k, n) in enumerate(zip(key, a.shape))]
    shape = tuple(n for (_, n, kept) in ranges if kept)
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        (c0, nc, _), (r0, nr) = ranges[0], (0, 1)
    else:
        (r0, nr, _), (c0, nc, _) = ranges
    if a._trans:  # logical (r, c) is buffer (c, r)
        r0, nr, c0, nc = c0, nc, r0, nr
    v = _buffer.view(a._b, r0, c0, nr, nc, who)
    if len(shape) < 2:  # a 1-D result is logically a row: a column of memory is seen transposed
        return Array(v, shape, nr > 1)
    return Array(v, shape, a._trans)


# ---- elementwise

def _scalar_buffer(ctx, dtype, value, who):
    """A 1 x 1 buffer holding value, kept per context (x * 0.5 in a loop makes one)."""
    key = (dtype, value)
    a = ctx._scalars.get(key)
    if a is None or a._b.ptr is None:
        if len(ctx._scalars) >= _SCALAR_CACHE:
            ctx._scalars.clear()
        a = empty((), dtype, ctx)
        check(lib.clrt_fill(ctx._q, a._b.ptr, value))
        ctx._scalars[key] = a
    return a


def _coerce(x, dtype, who):
    v = dtype.type(x)
    if dtype.kind == "f" or v == x:
        return float(v)
    raise _refuse(_errors.EINVAL, f"clrt: operator {who}: scalar {x!r} is not exactly an {dtype}")


def _broadcast(sa, sb):
    """numpy's broadcast shape of two shapes of at most 2 dimensions, or None."""
    if sa == sb:
        return sa
    n = max(len(sa), len(sb))
    sa, sb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    if any(x != y and x != 1 and y != 1 for x, y in zip(sa, sb)):
        return None
    return tuple(max(x, y) for x, y in zip(sa, sb))


def binary(op, a, b, who, out=None):
    """out = a op b with numpy's broadcasting over at most 2 dimensions; scalars either side."""
    if (type(a) is Array and type(b) is Array and a.shape == b.shape and not a._trans
            and not b._trans and a.dtype == b.dtype and a._b.ctx is b._b.ctx
            and (out is None or (type(out) is Array and out.shape == a.shape and not out._trans
                                 and out.dtype == a.dtype and out._b.ctx is a._b.ctx))):
        # the common case, kept short: the binding's cost per call is what is left here
        ctx = a._b.ctx
        if out is None:
            r, c = _shape2d(a.shape)
            out = Array(_buffer.new(ctx, r, c, a.dtype, who), a.shape)
        q, pc, pa, pb = ctx._q, out._b.ptr, a._b.ptr, b._b.ptr
        if q is None or pc is None or pa is None or pb is None:  # closed: say which
            q, pc, pa, pb = (ctx._handles(who)[1], out._b.handle(who), a._b.handle(who),
                             b._b.handle(who))
        status = _clrt_binary(q, op, pc, pa, pb)
        if status:
            check(status)
        return out
    arrays = [x for x in (a, b) if isinstance(x, Array)]
    for x in (a, b):
        if not isinstance(x, Array) and not _is_scalar(x):
            raise _operand_error(who, x)
    ctx = _same_context(f"clrt: operator {who}", *arrays, *([out] if out is not None else []))
    dtype = arrays[0].dtype
    if len(arrays) == 2 and a.dtype != b.dtype:
        raise _refuse(_errors.ESHAPE, f"clrt: operator {who} between {a.dtype} and {b.dtype}; "
                                      "clrt does not convert dtypes implicitly")
    sa = a.shape if isinstance(a, Array) else ()
    sb = b.shape if isinstance(b, Array) else ()
    shape = _broadcast(sa, sb)
    if shape is None:
        raise _refuse(_errors.ESHAPE, f"clrt: operator {who}: shapes {sa} and {sb} do not "
                                      "broadcast (numpy's rules)")
    full = _shape2d(shape)
    q = ctx._handles(f"clrt: operator {who}")[1]
    if out is None:
        out = Array(_buffer.new(ctx, full[0], full[1], dtype, who), shape)
    elif out.shape != shape or out.dtype != dtype or out._trans:
        raise _refuse(_errors.ESHAPE, f"clrt: operator {who}: out has shape {out.shape} and "
                                      f"dtype {out.dtype}, the result {shape} and {dtype}")
    c = out._b.handle(who)

    # operands laid out as seen; these locals keep any transposed copy alive for the calls
    da = _dense(a, who) if isinstance(a, Array) else None
    db = _dense(b, who) if isinstance(b, Array) else None
    scalars = []

    def buf(x, dx):
        if dx is not None:
            return dx._b.handle(who)
        s = _scalar_buffer(ctx, dtype, _coerce(x, dtype, who), who)
        scalars.append(s)
        return s._b.ptr

    a_full = isinstance(a, Array) and _shape2d(a.shape) == full
    b_full = isinstance(b, Array) and _shape2d(b.shape) == full
    if a_full and op == OP_MUL and not isinstance(b, Array):
        check(lib.clrt_scale(q, c, _coerce(b, dtype, who), da._b.handle(who)))
    elif a_full:
        check(lib.clrt_binary(q, op, c, buf(a, da), buf(b, db)))
    elif b_full and op in (OP_ADD, OP_MUL, OP_MIN, OP_MAX):
        check(lib.clrt_binary(q, op, c, buf(b, db), buf(a, da)))
    else:
        # a is a row, a column or a scalar: spread it over the result, then apply b.
        if isinstance(b, Array) and b._b is out._b:
            tmp = binary(op, a, b, who)
            check(lib.clrt_copy(q, c, tmp._b.ptr))
            return out
        if isinstance(a, Array):
            check(lib.clrt_fill(q, c, 0.0))
            check(lib.clrt_binary(q, OP_ADD, c, c, buf(a, da)))
        else:
            check(lib.clrt_fill(q, c, _coerce(a, dtype, who)))
        check(lib.clrt_binary(q, op, c, c, buf(b, db)))
    return out


def unary(name, a, out=None):
    who = f"clrt.{name}"
    if not isinstance(a, Array):
        raise _operand_error(who, a)
    src = _dense(a, who)
    if out is None:
        out = _new_like(a, a.shape, who)
    _same_context(who, a, out)
    check(lib.clrt_unary(a._q(who), UNARY[name], out._b.handle(who), src._b.handle(who)))
    return out


# ---- products

def _gemm_form(x, transpose, who):
    """(handle, trans flag, rows, cols) of op(x) for clrt_gemm, x as a logical matrix."""
    r, c = _shape2d(x.shape)
    t = x._trans != transpose
    if transpose:
        r, c = c, r
    return x._b.handle(who), int(t), r, c


def gemm(a, b, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False):
    """c = alpha * op(a) @ op(b) + beta * c, op(x) = x or x.T; returns c (new when None).
    1-D operands count as 1 x n rows; a.T is accepted as well as trans_a=True."""
    who = "clrt.gemm"
    for x in (a, b) + ((c,) if c is not None else ()):
        if not isinstance(x, Array):
            raise _operand_error(who, x)
    ctx = _same_context(who, a, b, *((c,) if c is not None else ()))
    if a.dtype != b.dtype:
        raise _refuse(_errors.ESHAPE, f"{who}: a is {a.dtype} and b {b.dtype}")
    ha, ta, m, k = _gemm_form(a, bool(trans_a), who)
    hb, tb, k2, n = _gemm_form(b, bool(trans_b), who)
    if k != k2:
        raise _refuse(_errors.ESHAPE, f"{who}: op(a) is {m} x {k} and op(b) {k2} x {n}: "
                                      "inner dimensions differ")
    if c is None:
        if beta != 0:
            raise _refuse(_errors.EINVAL, f"{who}: beta={beta} needs c")
        c = Array(_buffer.new(ctx, m, n, a.dtype, who), (m, n))
    elif c._trans or _shape2d(c.shape) != (m, n):
        raise _refuse(_errors.ESHAPE, f"{who}: c has shape {c.shape}"
                                      f"{' (transposed)' if c._trans else ''}, the product "
                                      f"is {m} x {n}")
    check(lib.clrt_gemm(ctx._q, ta, tb, float(alpha), ha, hb, float(beta), c._b.handle(who)))
    return c


def matmul(a, b):
    """a @ b with numpy's rules for 1-D and 2-D operands."""
    who = "clrt: operator @"
    for x in (a, b):
        if not isinstance(x, Array):
            raise _operand_error("@", x)
    if a.ndim == 0 or b.ndim == 0:
        raise _refuse(_errors.ESHAPE, f"{who}: operands must have 1 or 2 dimensions "
                                      f"(shapes {a.shape} and {b.shape}); use * for scalars")
    if a.shape[-1] != b.shape[0]:
        raise _refuse(_errors.ESHAPE, f"{who}: shapes {a.shape} and {b.shape}: inner "
                                      f"dimensions {a.shape[-1]} and {b.shape[0]} differ")
    if b.ndim == 2:  # (m, k) @ (k, n) -> (m, n); (k,) @ (k, n) -> (n,)
        c = gemm(a, b)
        if a.ndim == 1:
            c.shape = (b.shape[1],)
        return c
    # b is 1-D (k,): compute the 1 x m row (v^T a^T) = (a v)^T, or a 1 x 1 for v . w
    c = gemm(b, a, trans_b=(a.ndim == 2)) if a.ndim == 2 else gemm(a, b, trans_b=True)
    c.shape = (a.shape[0],) if a.ndim == 2 else ()
    return c


# ---- reductions

def _axis(axis, ndim, who):
    if axis is None:
        return None
    if not isinstance(axis, (numbers.Integral, np.integer)) or not -max(ndim, 1) <= axis < max(ndim, 1):
        raise _refuse(_errors.EINVAL, f"{who}: axis {axis!r} for an array of {ndim} dimensions "
                                      "(None, 0 or 1)")
    return int(axis) % max(ndim, 1)


def reduce(op, a, axis, keepdims, who):
    axis = _axis(axis, a.ndim, who)
    q = a._q(who)
    if a.ndim < 2 or axis is None:
        out = _new_like(a, (1,) * a.ndim if keepdims else (), who)
        check(lib.clrt_reduce(q, op, ALL, out._b.handle(who), a._b.handle(who)))
        return out
    rows_of_buffer = (axis == 1) != a._trans  # reduce along the buffer's rows: one per row
    r, c = a._b.rows, a._b.cols
    out = Array(_buffer.new(a._b.ctx, r if rows_of_buffer else 1, 1 if rows_of_buffer else c,
                            a.dtype, who), ())
    check(lib.clrt_reduce(q, op, EACH_ROW if rows_of_buffer else EACH_COL, out._b.ptr,
                          a._b.handle(who)))
    n = a.shape[1 - axis]
    # the logical result is a row of n; the buffer is n x 1 when it came from the rows
    if keepdims:
        out.shape = (n, 1) if axis == 1 else (1, n)
        out._trans = (axis == 1) != rows_of_buffer
    else:
        out.shape, out._trans = (n,), rows_of_buffer
    return out


def mean(a, axis=None, keepdims=False):
    """The sum over axis divided by the count summed, in the array's dtype (numpy: the
    same for float32 and float64)."""
    who = "Array.mean"
    if a.dtype == np.int32:
        raise _refuse(_errors.EUNSUPPORTED, f"{who}: int32 arrays have no arithmetic in clrt; "
                                            "convert first, e.g. a.astype(np.float64).mean()")
    s = reduce(REDUCE_SUM, a, axis, keepdims, who)
    ax = _axis(axis, a.ndim, who)
    n = a.size if ax is None or a.ndim < 2 else a.shape[ax]
    # s is a new array: divided in place, as a whole buffer (its layout does not matter)
    d = _scalar_buffer(a._b.ctx, a.dtype, float(n), who)
    check(lib.clrt_binary(a._q(who), OP_DIV, s._b.ptr, s._b.ptr, d._b.ptr))
    return s


def argmax(a, axis=None):
    """Index of the largest value (the first on ties; a NaN wins), int32, numpy's shapes;
    on a 2-D array axis must be 0 or 1."""
    who = "Array.argmax"
    axis = _axis(axis, a.ndim, who)
    if a.ndim == 2 and axis is None:
        raise _refuse(_errors.EINVAL, f"{who}: axis=None on a 2-D array (a flat index) is not "
                                      "supported; pass axis=0 or axis=1")
    if a.ndim == 2:
        # a buffer whose rows are the lines the argmax runs along
        src = _dense(a if axis == 1 else a.T, who)
        n = src._b.rows
        out = Array(_buffer.new(a._b.ctx, n, 1, np.dtype(np.int32), who), (n,), True)
        check(lib.clrt_argmax_rows(a._q(who), out._b.ptr, src._b.handle(who)))
        return out
    src = _dense(a, who) if a._trans else a  # 1-D or 0-d: one row
    out = Array(_buffer.new(a._b.ctx, 1, 1, np.dtype(np.int32), who), ())
    check(lib.clrt_argmax_rows(a._q(who), out._b.ptr, src._b.handle(who)))
    return out
