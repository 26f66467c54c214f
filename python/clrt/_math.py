"""The differentiable operations: each runs its device operation (_ops) and, when an
input requires grad, records how to take its gradient (_autograd.record). The backward
functions run with grad mode off, so they are written with the same operations.

Saved tensors are aliases (_save): another Tensor object over the same memory and version
counter, without grad_fn, so that an output saved by its own node makes no reference
cycle (its memory goes back to the pool as soon as the graph is dropped) and an in-place
change of it is still seen.
"""
import builtins

import numpy as np

from . import _dtype, _errors, _ops, _strided as S
from ._autograd import is_grad_enabled, no_grad, record
from ._tensor import Tensor, _dim, contiguous_strides, view_of


def _save(t):
    return view_of(t, t._shape, t._stride, t._offset) if isinstance(t, Tensor) else t


def _wants(x):
    return isinstance(x, Tensor) and x._rg


def sum_to(g, shape):
    """g summed over the dimensions broadcasting added to shape (a gradient's shape back)."""
    shape = tuple(shape)
    if g._shape == shape:
        return g
    lead = g.ndim - len(shape)
    dims = list(range(lead)) + [lead + i for i, n in enumerate(shape)
                                if n == 1 and g._shape[lead + i] != 1]
    r = _ops.reduce(_ops.REDUCE_SUM, g, tuple(dims), keepdim=True) if dims else g
    if lead:
        r = view_of(r, shape, contiguous_strides(shape), r._offset) if r.is_contiguous() else \
            _ops.contiguous(r).reshape(shape)
    return r


def _grad_for(g, x):
    """g as the gradient of input x (its shape and dtype), or None when x needs none."""
    if not _wants(x):
        return None
    return _shaped(g, x)


def _shaped(g, x):
    """g summed to x's shape and in x's dtype (x: an input or its saved alias)."""
    g = sum_to(g, x._shape)
    return _ops.cast(g, x.dtype) if g.dtype is not x.dtype else g


def _no_out_grad(out, *xs):
    if out is not None and is_grad_enabled() and builtins.any(_wants(x) for x in xs):
        raise _errors.runtime_error("functions with out=... arguments don't support automatic "
                                    "differentiation, but one of the arguments requires grad.")


# ---- elementwise, two operands

def add(a, b, alpha=1, out=None):
    _no_out_grad(out, a, b)
    if alpha != 1:
        b = mul(b, alpha)
    r = _ops.binary(S.B_ADD, a, b, out, "clrt.add")
    return record("AddBackward0", r, (a, b), lambda g: (_grad_for(g, a), _grad_for(g, b)))


def sub(a, b, alpha=1, out=None):
    _no_out_grad(out, a, b)
    if alpha != 1:
        b = mul(b, alpha)
    r = _ops.binary(S.B_SUB, a, b, out, "clrt.sub")
    return record("SubBackward0", r, (a, b), lambda g: (_grad_for(g, a), _grad_for(-g, b)))


def mul(a, b, out=None):
    _no_out_grad(out, a, b)
    r = _ops.binary(S.B_MUL, a, b, out, "clrt.mul")
    # each input's gradient needs the other: saved only where that gradient is wanted
    sa = _save(a) if _wants(b) else None
    sb = _save(b) if _wants(a) else None
    return record("MulBackward0", r, (a, b),
                  lambda g: (_grad_for(g * sb, a) if _wants(a) else None,
                             _grad_for(g * sa, b) if _wants(b) else None),
                  [x for x in (sa, sb) if isinstance(x, Tensor)])


def div(a, b, rounding_mode=None, out=None):
    _no_out_grad(out, a, b)
    if rounding_mode is not None:
        if rounding_mode == "floor":
            return _ops.binary(S.B_FLOORDIV, a, b, out, "clrt.div")
        if rounding_mode == "trunc":
            return trunc(_ops.binary(S.B_DIV, a, b, None, "clrt.div"))
        raise _errors.value_error(f"div expected rounding_mode to be one of None, 'trunc', or "
                                  f"'floor' but found '{rounding_mode}'")
    r = _ops.binary(S.B_DIV, a, b, out, "clrt.div")
    sa = _save(a) if _wants(b) else None
    sb = _save(b)
    return record("DivBackward0", r, (a, b),
                  lambda g: (_grad_for(g / sb, a) if _wants(a) else None,
                             _grad_for(-g * sa / (sb * sb), b) if _wants(b) else None),
                  [x for x in (sa, sb) if isinstance(x, Tensor)])


def pow(a, b, out=None):  # noqa: A001
    _no_out_grad(out, a, b)
    if isinstance(a, Tensor) and not isinstance(b, Tensor):
        _ops.check_scalar(b, "clrt.pow")
        if not a.dtype.is_floating_point and isinstance(b, float):
            a = _ops.cast(a, _dtype.float32, "clrt.pow")
        if b == 2 and out is None:
            r = _ops.unary(S.U_SQUARE, a, who="clrt.pow")
        else:
            r = _ops.unary(S.U_POWS, a, b, out=out, who="clrt.pow") if a.dtype.is_floating_point \
                else _ops.binary(S.B_POW, a, b, out, "clrt.pow")
        sa = _save(a)
        return record("PowBackward0", r, (a,),
                      lambda g: (_grad_for(g * b * pow(sa, b - 1), a),), [sa])
    r = _ops.binary(S.B_POW, a, b, out, "clrt.pow")
    sa, sb, sr = _save(a), _save(b), _save(r)

    def log_base():
        return log(sa) if isinstance(sa, Tensor) else float(np.log(sa))
    return record("PowBackward1", r, (a, b),
                  lambda g: (_grad_for(g * sb * pow(sa, sb - 1), a) if _wants(a) else None,
                             _grad_for(g * sr * log_base(), b) if _wants(b) else None),
                  [x for x in (sa, sb, sr) if isinstance(x, Tensor)])


def _minmax(op, name, a, b, out):
    _no_out_grad(out, a, b)
    r = _ops.binary(op, a, b, out, f"clrt.{name}")
    sa, sb = _save(a), _save(b)

    def back(g):
        # PyTorch: the gradient goes to the larger (smaller); ties share it half and half
        win = _ops.compare(S.C_GT if op == S.B_MAX else S.C_LT, sa, sb)
        tie = _ops.compare(S.C_EQ, sa, sb)
        wa = _ops.cast(win, g.dtype) + _ops.cast(tie, g.dtype) * 0.5
        return (_grad_for(g * wa, a) if _wants(a) else None,
                _grad_for(g * (1.0 - wa), b) if _wants(b) else None)
    return record("MaximumBackward0" if op == S.B_MAX else "MinimumBackward0", r, (a, b), back,
                  [x for x in (sa, sb) if isinstance(x, Tensor)])


def maximum(a, b, out=None):
    return _minmax(S.B_MAX, "maximum", a, b, out)


def minimum(a, b, out=None):
    return _minmax(S.B_MIN, "minimum", a, b, out)


def remainder(a, b, out=None):
    r = _ops.binary(S.B_REM, a, b, out, "clrt.remainder")
    return record("RemainderBackward0", r, (a, b), lambda g: (_grad_for(g, a), None))


def floor_divide(a, b, out=None):
    return _ops.binary(S.B_FLOORDIV, a, b, out, "clrt.floor_divide")


def atan2(a, b, out=None):
    r = _ops.binary(S.B_ATAN2, a, b, out, "clrt.atan2")
    sa, sb = _save(a), _save(b)
    return record("Atan2Backward0", r, (a, b),
                  lambda g: (_grad_for(g * sb / (sa * sa + sb * sb), a) if _wants(a) else None,
                             _grad_for(-g * sa / (sa * sa + sb * sb), b) if _wants(b) else None),
                  [sa, sb])


# ---- elementwise, one operand: (op code, backward from (g, x, y)) where y is the result
_UNARY = {
    "neg": (S.U_NEG, lambda g, x, y: -g),
    "abs": (S.U_ABS, lambda g, x, y: g * sign(x)),
    "exp": (S.U_EXP, lambda g, x, y: g * y),
    "log": (S.U_LOG, lambda g, x, y: g / x),
    "sqrt": (S.U_SQRT, lambda g, x, y: g / (y * 2.0)),
    "rsqrt": (S.U_RSQRT, lambda g, x, y: g * y * y * y * -0.5),
    "tanh": (S.U_TANH, lambda g, x, y: g * (1.0 - y * y)),
    "sigmoid": (S.U_SIGMOID, lambda g, x, y: g * y * (1.0 - y)),
    "relu": (S.U_RELU, lambda g, x, y: _relu_grad(g, y)),
    "reciprocal": (S.U_RECIP, lambda g, x, y: -g * y * y),
    "square": (S.U_SQUARE, lambda g, x, y: g * x * 2.0),
    "log1p": (S.U_LOG1P, lambda g, x, y: g / (x + 1.0)),
    "expm1": (S.U_EXPM1, lambda g, x, y: g * (y + 1.0)),
    "sin": (S.U_SIN, lambda g, x, y: g * cos(x)),
    "cos": (S.U_COS, lambda g, x, y: -g * sin(x)),
    "sign": (S.U_SIGN, None),
    "floor": (S.U_FLOOR, None),
    "ceil": (S.U_CEIL, None),
    "round": (S.U_ROUND, None),
    "trunc": (S.U_TRUNC, None),
}
_NEEDS_X = {"abs", "log", "square", "log1p", "sin", "cos"}


def _relu_grad(g, y):
    """dx = g where the result is positive, else 0 (clrt_nn_relu_backward where it can)."""
    from . import _functional
    return _functional.relu_backward(g, y)


def _unary(name, x, out=None):
    op, back = _UNARY[name]
    if not isinstance(x, Tensor):
        raise _errors.type_error(f"clrt.{name}(): argument 'input' must be Tensor, not "
                                 f"{type(x).__name__}")
    _no_out_grad(out, x)
    if name in ("floor", "ceil", "round", "trunc", "sign") and not x.dtype.is_floating_point:
        r = _ops.clone(x) if name != "sign" else _ops.unary(op, x, out=out, who=f"clrt.{name}")
        return r if out is None else _ops.copy_into(out, r)
    r = _ops.unary(op, x, out=out, who=f"clrt.{name}")
    if back is None:
        if _wants(x) and is_grad_enabled():
            return record(f"{name.capitalize()}Backward0", r, (x,),
                          lambda g: (_ops.unary(S.U_FILL, g, 0.0),))
        return r
    sx = _save(x) if name in _NEEDS_X else None
    sy = _save(r) if sx is None else None
    return record(f"{name.capitalize()}Backward0", r, (x,),
                  lambda g: (_grad_for(back(g, sx, sy), x),),
                  [sx if sx is not None else sy])


def _unary_fn(name):
    def f(x, out=None):
        return _unary(name, x, out)
    f.__name__ = name
    f.__doc__ = f"Elementwise {name} (PyTorch's torch.{name}); out= writes into a tensor."
    return f


neg = _unary_fn("neg")
negative = neg
abs = _unary_fn("abs")  # noqa: A001
exp = _unary_fn("exp")
log = _unary_fn("log")
sqrt = _unary_fn("sqrt")
rsqrt = _unary_fn("rsqrt")
tanh = _unary_fn("tanh")
sigmoid = _unary_fn("sigmoid")
relu = _unary_fn("relu")
reciprocal = _unary_fn("reciprocal")
square = _unary_fn("square")
log1p = _unary_fn("log1p")
expm1 = _unary_fn("expm1")
sin = _unary_fn("sin")
cos = _unary_fn("cos")
sign = _unary_fn("sign")
floor = _unary_fn("floor")
ceil = _unary_fn("ceil")
round = _unary_fn("round")  # noqa: A001
trunc = _unary_fn("trunc")


def clamp(x, min=None, max=None, out=None):  # noqa: A002
    if min is None and max is None:
        raise _errors.runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None")
    _no_out_grad(out, x)
    lo = -np.inf if min is None else min
    hi = np.inf if max is None else max
    if not x.dtype.is_floating_point:
        lo = -2 ** 31 if min is None else lo
        hi = 2 ** 31 - 1 if max is None else hi
    r = _ops.unary(S.U_CLAMP, x, lo, hi, out=out, who="clrt.clamp")
    sx = _save(x)

    def back(g):
        inside = _ops.cast(_ops.compare(S.C_GE, sx, lo), g.dtype) * \
            _ops.cast(_ops.compare(S.C_LE, sx, hi), g.dtype)
        return (_grad_for(g * inside, x),)
    return record("ClampBackward1", r, (x,), back, [sx])


def isnan(x):
    return _ops.unary(S.U_ISNAN, x, who="clrt.isnan")


def logical_not(x):
    return _ops.compare(S.C_EQ, x, 0, "clrt.logical_not")


# ---- reductions

def _reduced_grad(g, shape, dims, keepdim):
    """g of a reduction's output shape, seen (broadcast) as the input's shape."""
    if not keepdim:
        for d in sorted(dims):
            g = _layout.unsqueeze(g, d)
    return _layout.expand(g, shape)


def _dims_kw(dim, axis, keepdim, keepdims):
    """PyTorch's dim/keepdim, numpy's axis/keepdims."""
    if axis is not None:
        if dim is not None:
            raise _errors.type_error("give dim or axis, not both")
        dim = axis
    if isinstance(dim, (bool, np.bool_)):
        raise _errors.type_error(f"dim/axis must be an int or a tuple of ints, not bool {dim!r}")
    return dim, bool(keepdim or keepdims)


def sum(x, dim=None, keepdim=False, dtype=None, axis=None, keepdims=False):  # noqa: A001
    dim, keepdim = _dims_kw(dim, axis, keepdim, keepdims)
    if dtype is not None:
        x = x.to(_dtype.get(dtype, "clrt.sum"))
    dims = _ops.dims_arg(dim, x.ndim, "clrt.sum")
    r = _ops.reduce(_ops.REDUCE_SUM, x, dims, keepdim, "clrt.sum")
    shape = x._shape
    return record("SumBackward1", r, (x,), lambda g: (_reduced_grad(g, shape, dims, keepdim),))


def mean(x, dim=None, keepdim=False, dtype=None, axis=None, keepdims=False):
    dim, keepdim = _dims_kw(dim, axis, keepdim, keepdims)
    if dtype is not None:
        x = x.to(_dtype.get(dtype, "clrt.mean"))
    if not x.dtype.is_floating_point:
        raise _errors.runtime_error(
            f"mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {x.dtype.name.capitalize()} (convert first, e.g. "
            "x.float().mean() or x.astype(np.float64).mean())", _errors.EUNSUPPORTED)
    dims = _ops.dims_arg(dim, x.ndim, "clrt.mean")
    n = 1
    for d in dims:
        n *= x._shape[d]
    s = _ops.reduce(_ops.REDUCE_SUM, x, dims, keepdim, "clrt.mean")
    r = _ops.binary(S.B_DIV, s, float(n), out=s, who="clrt.mean")
    shape = x._shape
    return record("MeanBackward1", r, (x,),
                  lambda g: (_reduced_grad(g / float(n), shape, dims, keepdim),))


def _extreme(x, op, name, dim, keepdim, axis=None, keepdims=False):
    dim, keepdim = _dims_kw(dim, axis, keepdim, keepdims)
    who = f"clrt.{name}"
    if dim is None or isinstance(dim, (tuple, list)):
        dims = _ops.dims_arg(dim, x.ndim, who)
        r = _ops.reduce(op, x, dims, keepdim, who)
        sx, sr = _save(x), _save(r)
        shape = x._shape

        def back(g):
            # PyTorch (amax/amin and the full max): the gradient shared evenly among ties
            hit = _ops.cast(_ops.compare(S.C_EQ, sx, _reduced_grad(sr, shape, dims, keepdim)),
                            g.dtype)
            count = _ops.reduce(_ops.REDUCE_SUM, hit, dims, True)
            return (_reduced_grad(g, shape, dims, keepdim) * hit / count,)
        return record(f"{name.capitalize()}Backward1", r, (x,), back, [sx, sr])
    # with one dim: (values, indices), PyTorch's named tuple
    d = _dim(dim, x.ndim, who)
    idx = _ops.argmax(x, d, keepdim, negate=(op == _ops.REDUCE_MIN), who=who)
    vals = _ops.reduce(op, x, (d,), keepdim, who)
    shape = x._shape
    si = _save(idx)

    def back(g):
        ar = arange_like_dim(shape, d, si)
        k = si if keepdim else _layout.unsqueeze(si, d)
        hit = _ops.cast(_ops.compare(S.C_EQ, ar, k), g.dtype)
        return (_reduced_grad(g, shape, (d,), keepdim) * hit,)
    record(f"{name.capitalize()}Backward0", vals, (x,), back, [si])
    return MinMax(vals, idx)


def arange_like_dim(shape, d, like):
    """0..shape[d]-1 along dimension d, broadcastable against shape."""
    from ._create import arange
    a = arange(shape[d], dtype=_dtype.int64, device=like.device)
    ks = [1] * len(shape)
    ks[d] = shape[d]
    return a.reshape(ks)


class MinMax(tuple):
    """(values, indices) of max/min along a dim (PyTorch's torch.return_types.max)."""

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]


def max(x, dim=None, keepdim=False, axis=None, keepdims=False):  # noqa: A001
    """PyTorch's max: the largest value; with dim, (values, indices); with numpy's axis=,
    the values alone (numpy's max)."""
    if isinstance(dim, Tensor):
        return maximum(x, dim)
    if axis is not None or keepdims:
        return amax(x, () if axis is None else axis, keepdim or keepdims)
    return _extreme(x, _ops.REDUCE_MAX, "max", dim, keepdim, axis, keepdims)


def min(x, dim=None, keepdim=False, axis=None, keepdims=False):  # noqa: A001
    """PyTorch's min (with dim: (values, indices)); with numpy's axis=, the values alone."""
    if isinstance(dim, Tensor):
        return minimum(x, dim)
    if axis is not None or keepdims:
        return amin(x, () if axis is None else axis, keepdim or keepdims)
    return _extreme(x, _ops.REDUCE_MIN, "min", dim, keepdim, axis, keepdims)


def amax(x, dim=(), keepdim=False):
    return _extreme(x, _ops.REDUCE_MAX, "amax", None if dim == () else
                    (dim if isinstance(dim, (tuple, list)) else (dim,)), keepdim)


def amin(x, dim=(), keepdim=False):
    return _extreme(x, _ops.REDUCE_MIN, "amin", None if dim == () else
                    (dim if isinstance(dim, (tuple, list)) else (dim,)), keepdim)


def argmax(x, dim=None, keepdim=False, axis=None):
    dim, keepdim = _dims_kw(dim, axis, keepdim, False)
    return _ops.argmax(x, None if dim is None else _dim(dim, x.ndim, "clrt.argmax"), keepdim,
                       who="clrt.argmax")


def argmin(x, dim=None, keepdim=False, axis=None):
    dim, keepdim = _dims_kw(dim, axis, keepdim, False)
    return _ops.argmax(x, None if dim is None else _dim(dim, x.ndim, "clrt.argmin"), keepdim,
                       negate=True, who="clrt.argmin")


def var(x, dim=None, unbiased=None, keepdim=False, correction=None, axis=None,
        keepdims=False, ddof=None):
    """PyTorch's var (unbiased by default: correction 1); numpy's ddof accepted."""
    dim, keepdim = _dims_kw(dim, axis, keepdim, keepdims)
    if correction is None:
        correction = ddof if ddof is not None else (1 if unbiased is None or unbiased else 0)
    dims = _ops.dims_arg(dim, x.ndim, "clrt.var")
    n = 1
    for d in dims:
        n *= x._shape[d]
    dev = x - mean(x, dims, keepdim=True)
    return sum(dev * dev, dims, keepdim) / float(n - correction if n > correction else 0)


def std(x, dim=None, unbiased=None, keepdim=False, correction=None, axis=None,
        keepdims=False, ddof=None):
    return sqrt(var(x, dim, unbiased, keepdim, correction, axis, keepdims, ddof))


def all(x, dim=None, keepdim=False):  # noqa: A001
    z = _ops.compare(S.C_EQ, x, 0, "clrt.all")
    s = _ops.reduce(_ops.REDUCE_SUM, z, dim, keepdim, "clrt.all")
    return _ops.compare(S.C_EQ, s, 0, "clrt.all")


def any(x, dim=None, keepdim=False):  # noqa: A001
    z = _ops.compare(S.C_NE, x, 0, "clrt.any")
    s = _ops.reduce(_ops.REDUCE_SUM, z, dim, keepdim, "clrt.any")
    return _ops.compare(S.C_NE, s, 0, "clrt.any")


# ---- softmax

def softmax(x, dim=None, dtype=None, _stacklevel=None):
    if dtype is not None:
        x = x.to(_dtype.get(dtype, "clrt.softmax"))
    d = _softmax_dim(x, dim, "softmax")
    with no_grad():
        e = exp(x - amax(x, d, keepdim=True))
        y = e / sum(e, d, keepdim=True)
    sy = _save(y)
    return record("SoftmaxBackward0", y, (x,),
                  lambda g: (_grad_for(sy * (g - sum(g * sy, d, keepdim=True)), x),), [sy])


def log_softmax(x, dim=None, dtype=None, _stacklevel=None):
    if dtype is not None:
        x = x.to(_dtype.get(dtype, "clrt.log_softmax"))
    d = _softmax_dim(x, dim, "log_softmax")
    with no_grad():
        z = x - amax(x, d, keepdim=True)
        y = z - log(sum(exp(z), d, keepdim=True))
    sy = _save(y)
    return record("LogSoftmaxBackward0", y, (x,),
                  lambda g: (_grad_for(g - exp(sy) * sum(g, d, keepdim=True), x),), [sy])


def _softmax_dim(x, dim, name):
    if dim is None:  # PyTorch's legacy rule, with its warning's advice taken
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return _dim(dim, x.ndim, f"clrt.{name}")


# ---- products

def matmul(a, b, out=None):
    _no_out_grad(out, a, b)
    r = _ops.matmul(a, b, "clrt.matmul")
    if out is not None:
        return _ops.copy_into(out, r, "clrt.matmul")
    sa, sb = _save(a), _save(b)

    def back(g):
        a2 = sa if sa.ndim > 1 else _layout.unsqueeze(sa, 0)
        b2 = sb if sb.ndim > 1 else _layout.unsqueeze(sb, -1)
        g2 = g
        if sa.ndim == 1:
            g2 = _layout.unsqueeze(g2, -2)
        if sb.ndim == 1:
            g2 = _layout.unsqueeze(g2, -1)
        ga = _shaped(matmul(g2, _layout.transpose(b2, -1, -2)), a2) if _wants(a) else None
        gb = _shaped(matmul(_layout.transpose(a2, -1, -2), g2), b2) if _wants(b) else None
        if ga is not None and sa.ndim == 1:
            ga = _layout.reshape(ga, sa._shape)
        if gb is not None and sb.ndim == 1:
            gb = _layout.reshape(gb, sb._shape)
        return ga, gb
    return record("MmBackward0", r, (a, b), back, [sa, sb])


def dot(a, b):
    if a.ndim != 1 or b.ndim != 1:
        raise _errors.runtime_error(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D "
                                    "tensors")
    return matmul(a, b)


def mm(a, b):
    if a.ndim != 2 or b.ndim != 2:
        raise _errors.runtime_error(f"clrt.mm: self must be a matrix (2-D tensors), got "
                                    f"{a.ndim}-D and {b.ndim}-D")
    return matmul(a, b)


def bmm(a, b):
    if a.ndim != 3 or b.ndim != 3:
        raise _errors.runtime_error("batch1 and batch2 must be 3D tensors")
    return matmul(a, b)


from . import _layout  # noqa: E402  (views and indexing; it uses this module's helpers)

_LAYOUT_NAMES = {"view", "reshape", "contiguous", "clone", "flatten", "ravel", "permute",
                 "transpose", "t", "squeeze", "unsqueeze", "expand", "to_dtype", "detach", "cat",
                 "stack", "getitem", "index_select", "advanced_index", "where"}


def __getattr__(name):
    """The layout operations are _layout.py's; _math.stack and the like still find them."""
    if name in _LAYOUT_NAMES:
        return getattr(_layout, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
