"""The differentiable operations: each runs its device operation (_ops) and, when an
input requires grad, records how to take its gradient (_autograd.record). The backward
functions run with grad mode off, so they are written with the same operations.

Saved tensors are aliases (_save): another Tensor object over the same memory and version
counter, without grad_fn, so that an output saved by its own node makes no reference
cycle (its memory goes back to the pool as soon as the graph is dropped) and an in-place
change of it is still seen.
"""
import builtins
import numbers

import numpy as np

from . import _dtype, _errors, _ops, _strided as S
from ._autograd import is_grad_enabled, record
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
            g = unsqueeze(g, d)
    return expand(g, shape)


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
        k = si if keepdim else unsqueeze(si, d)
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
    with _NoRecord():
        e = exp(x - amax(x, d, keepdim=True))
        y = e / sum(e, d, keepdim=True)
    sy = _save(y)
    return record("SoftmaxBackward0", y, (x,),
                  lambda g: (_grad_for(sy * (g - sum(g * sy, d, keepdim=True)), x),), [sy])


def log_softmax(x, dim=None, dtype=None, _stacklevel=None):
    if dtype is not None:
        x = x.to(_dtype.get(dtype, "clrt.log_softmax"))
    d = _softmax_dim(x, dim, "log_softmax")
    with _NoRecord():
        z = x - amax(x, d, keepdim=True)
        y = z - log(sum(exp(z), d, keepdim=True))
    sy = _save(y)
    return record("LogSoftmaxBackward0", y, (x,),
                  lambda g: (_grad_for(g - exp(sy) * sum(g, d, keepdim=True), x),), [sy])


def _softmax_dim(x, dim, name):
    if dim is None:  # PyTorch's legacy rule, with its warning's advice taken
        dim = 0 if x.ndim in (0, 1, 3) else 1
    return _dim(dim, x.ndim, f"clrt.{name}")


class _NoRecord:
    def __enter__(self):
        from ._autograd import no_grad
        self._g = no_grad()
        self._g.__enter__()

    def __exit__(self, *exc):
        return self._g.__exit__(*exc)


# ---- products

def matmul(a, b, out=None):
    _no_out_grad(out, a, b)
    r = _ops.matmul(a, b, "clrt.matmul")
    if out is not None:
        return _ops.copy_into(out, r, "clrt.matmul")
    sa, sb = _save(a), _save(b)

    def back(g):
        a2 = sa if sa.ndim > 1 else unsqueeze(sa, 0)
        b2 = sb if sb.ndim > 1 else unsqueeze(sb, -1)
        g2 = g
        if sa.ndim == 1:
            g2 = unsqueeze(g2, -2)
        if sb.ndim == 1:
            g2 = unsqueeze(g2, -1)
        ga = _shaped(matmul(g2, transpose(b2, -1, -2)), a2) if _wants(a) else None
        gb = _shaped(matmul(transpose(a2, -1, -2), g2), b2) if _wants(b) else None
        if ga is not None and sa.ndim == 1:
            ga = reshape(ga, sa._shape)
        if gb is not None and sb.ndim == 1:
            gb = reshape(gb, sb._shape)
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


# ---- layouts (views where the memory allows)

def _view_strides(old_shape, old_stride, new_shape):
    """The strides that show old's elements in new_shape without a copy, or None (the
    chunks of old's dimensions that are one run each must split evenly)."""
    if not old_shape:
        return contiguous_strides(new_shape)
    new = [0] * len(new_shape)
    vd = len(new_shape) - 1
    base = old_stride[-1]
    tn = vn = 1
    for td in range(len(old_shape) - 1, -1, -1):
        tn *= old_shape[td]
        if td == 0 or (old_shape[td - 1] != 1 and old_stride[td - 1] != tn * base):
            while vd >= 0 and (vn < tn or new_shape[vd] == 1):
                new[vd] = vn * base
                vn *= new_shape[vd]
                vd -= 1
            if vn != tn:
                return None
            if td > 0:
                base = old_stride[td - 1]
                tn = vn = 1
    return tuple(new) if vd == -1 else None


def _target_shape(x, shape, who):
    from ._tensor import normalize_shape
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    dims = []
    for n in shape:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer)):
            if isinstance(n, Tensor):
                n = int(n)
            else:
                raise _errors.type_error(f"{who}: shape must be ints, not {type(n).__name__} "
                                         f"{n!r}")
        dims.append(int(n))
    if dims.count(-1) > 1:
        raise _errors.runtime_error(f"{who}: only one dimension can be inferred ({tuple(dims)})")
    total = x.numel()
    known = 1
    for n in dims:
        if n != -1:
            known *= n
    if -1 in dims:
        if known <= 0 or total % known:
            raise _errors.shape_error(f"{who}: shape '{list(dims)}' is invalid for input of "
                                      f"size {total}")
        dims[dims.index(-1)] = total // known
    shape = normalize_shape((tuple(dims),), who) if dims else ()
    if x.numel() != (1 if not shape else np.prod(shape, dtype=object)):
        raise _errors.shape_error(f"{who}: shape '{list(shape)}' is invalid for input of size "
                                  f"{total}")
    return shape


def _as_view(x, shape, stride, offset, name):
    r = view_of(x, shape, stride, offset)
    in_shape = x._shape
    return record(name, r, (x,), lambda g: (reshape(g, in_shape),))


def view(x, *shape):
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        raise _errors.runtime_error("clrt: view(dtype) is not supported; use .to(dtype)")
    shape = _target_shape(x, shape, "Tensor.view")
    st = _view_strides(x._shape, x._stride, shape)
    if st is None:
        raise _errors.runtime_error(
            f"view size is not compatible with input tensor's size and stride (at least one "
            f"dimension spans across two contiguous subspaces): shape {x._shape}, strides "
            f"{x._stride}, asked {shape}. Use .reshape(...) instead.")
    return _as_view(x, shape, st, x._offset, "ViewBackward0")


def reshape(x, *shape):
    shape = _target_shape(x, shape, "Tensor.reshape")
    st = _view_strides(x._shape, x._stride, shape)
    if st is not None:
        return _as_view(x, shape, st, x._offset, "ViewBackward0")
    c = contiguous(x)
    return _as_view(c, shape, contiguous_strides(shape), c._offset, "ReshapeAliasBackward0")


def contiguous(x):
    if x.is_contiguous():
        return x
    r = _ops.contiguous(x)
    return record("CloneBackward0", r, (x,), lambda g: (g,))


def clone(x):
    r = _ops.clone(x)
    return record("CloneBackward0", r, (x,), lambda g: (g,))


def flatten(x, start_dim=0, end_dim=-1):
    if x.ndim == 0:
        return reshape(x, 1)
    s, e = _dim(start_dim, x.ndim, "flatten"), _dim(end_dim, x.ndim, "flatten")
    if s > e:
        raise _errors.runtime_error("flatten() has invalid args: start_dim cannot come after "
                                    "end_dim")
    shape = x._shape[:s] + (-1,) + x._shape[e + 1:]
    return reshape(x, shape)


def ravel(x):
    return reshape(x, -1)


def permute(x, *dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    ds = [_dim(d, x.ndim, "permute") for d in dims]
    if sorted(ds) != list(range(x.ndim)):
        raise _errors.runtime_error(f"permute(sparse_coo): number of dimensions in the tensor "
                                    f"input does not match the length of the desired ordering "
                                    f"of dimensions i.e. input.dim() = {x.ndim} is not equal to "
                                    f"len(dims) = {len(dims)}" if len(ds) != x.ndim else
                                    f"permute(): repeated dim in {tuple(dims)}")
    r = view_of(x, tuple(x._shape[d] for d in ds), tuple(x._stride[d] for d in ds), x._offset)
    inv = [0] * len(ds)
    for i, d in enumerate(ds):
        inv[d] = i
    return record("PermuteBackward0", r, (x,), lambda g: (permute(g, inv),))


def transpose(x, d0, d1):
    if x.ndim < 2 and d0 in (0, -1) and d1 in (0, -1):
        return _as_view(x, x._shape, x._stride, x._offset, "TransposeBackward0")
    a, b = _dim(d0, x.ndim, "transpose"), _dim(d1, x.ndim, "transpose")
    order = list(range(x.ndim))
    order[a], order[b] = order[b], order[a]
    return permute(x, order)


def t(x):
    if x.ndim > 2:
        raise _errors.runtime_error(f"t() expects a tensor with <= 2 dimensions, but self is "
                                    f"{x.ndim}D")
    return transpose(x, 0, 1) if x.ndim == 2 else x


def squeeze(x, dim=None):
    if dim is None:
        keep = [i for i, n in enumerate(x._shape) if n != 1]
    else:
        ds = dim if isinstance(dim, (tuple, list)) else (dim,)
        ds = {_dim(d, x.ndim, "squeeze") for d in ds} if x.ndim else set()
        keep = [i for i, n in enumerate(x._shape) if not (i in ds and n == 1)]
    return _as_view(x, tuple(x._shape[i] for i in keep), tuple(x._stride[i] for i in keep),
                    x._offset, "SqueezeBackward0")


def unsqueeze(x, dim):
    d = _dim(dim, x.ndim + 1, "unsqueeze")
    st = x._stride[d] * x._shape[d] if d < x.ndim else 1
    return _as_view(x, x._shape[:d] + (1,) + x._shape[d:], x._stride[:d] + (st,) + x._stride[d:],
                    x._offset, "UnsqueezeBackward0")


def expand(x, *sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = tuple(int(s) for s in sizes)
    if len(sizes) < x.ndim:
        raise _errors.runtime_error(f"expand: the number of sizes provided ({len(sizes)}) must be "
                                    f"greater or equal to the number of dimensions in the tensor "
                                    f"({x.ndim})")
    pad = len(sizes) - x.ndim
    shape, stride = [], []
    for i, n in enumerate(sizes):
        if i < pad:
            if n < 0:
                raise _errors.runtime_error("expand: -1 not allowed in a new leading dimension")
            shape.append(n)
            stride.append(0)
            continue
        old = x._shape[i - pad]
        if n == -1 or n == old:
            shape.append(old)
            stride.append(x._stride[i - pad])
        elif old == 1:
            shape.append(n)
            stride.append(0)
        else:
            raise _errors.shape_error(
                f"The expanded size of the tensor ({n}) must match the existing size ({old}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(x._shape)}")
    if tuple(shape) == x._shape:
        return x
    r = view_of(x, tuple(shape), tuple(stride), x._offset)
    in_shape = x._shape
    return record("ExpandBackward0", r, (x,), lambda g: (sum_to(g, in_shape),))


def to_dtype(x, dt):
    if dt is x.dtype:
        return x
    r = _ops.cast(x, dt)
    if not dt.is_floating_point:
        return r
    src = x.dtype
    return record("ToCopyBackward0", r, (x,), lambda g: (_ops.cast(g, src),))


def detach(x):
    return view_of(x, x._shape, x._stride, x._offset)


# ---- joining

def cat(tensors, dim=0, out=None):
    tensors = list(tensors)
    if not tensors:
        raise _errors.runtime_error("torch.cat(): expected a non-empty list of Tensors")
    first = tensors[0]
    d = _dim(dim, first.ndim, "cat")
    dt = first.dtype
    for x in tensors[1:]:
        dt = _dtype.result_type(dt, x.dtype)
        if x.ndim != first.ndim or builtins.any(a != b for i, (a, b) in
                                       enumerate(zip(x._shape, first._shape)) if i != d):
            raise _errors.shape_error(f"Sizes of tensors must match except in dimension {d}. "
                                      f"Got shapes {first._shape} and {x._shape}")
    total = 0
    for x in tensors:
        total += x._shape[d]
    shape = first._shape[:d] + (total,) + first._shape[d + 1:]
    res = _ops.new(first._st.ctx, shape, dt, "clrt.cat") if out is None else out
    pos, spans = 0, []
    for x in tensors:
        n = x._shape[d]
        _ops.copy_into(_slice(res, d, pos, n), x, "clrt.cat")
        spans.append((pos, n))
        pos += n
    return record("CatBackward0", res, tuple(tensors),
                  lambda g: tuple(_grad_for(_slice(g, d, p, n), x) if _wants(x) else None
                                  for x, (p, n) in zip(tensors, spans)))


def _slice(t, d, start, n):
    return view_of(t, t._shape[:d] + (n,) + t._shape[d + 1:], t._stride,
                   t._offset + start * t._stride[d])


def stack(tensors, dim=0, out=None):
    tensors = list(tensors)
    if not tensors:
        raise _errors.runtime_error("stack expects a non-empty TensorList")
    d = _dim(dim, tensors[0].ndim + 1, "stack")
    for x in tensors[1:]:
        if x._shape != tensors[0]._shape:
            raise _errors.shape_error(f"stack expects each tensor to be equal size, but got "
                                      f"{list(tensors[0]._shape)} at entry 0 and "
                                      f"{list(x._shape)} at entry {tensors.index(x)}")
    return cat([unsqueeze(x, d) for x in tensors], d, out)


# ---- indexing

def getitem(x, key):
    from ._index import basic_index
    x._st.handle("Tensor.__getitem__")  # a closed tensor says so here too
    if builtins.any(_advanced(k) for k in (key if isinstance(key, tuple) else (key,))):
        return advanced_index(x, key)
    shape, stride, offset = basic_index(x, key)
    r = view_of(x, shape, stride, offset)
    if not (is_grad_enabled() and x._rg):
        return r
    in_shape = x._shape

    def back(g):
        from ._create import zeros
        z = zeros(in_shape, dtype=g.dtype, device=g.device)
        _ops.copy_into(view_of(z, *basic_index(z, key)), g)
        return (z,)
    return record("SliceBackward0", r, (x,), back)


# ---- gathering (index_select, advanced indexing) and where

def _index_tensor(index, n, who, ctx):
    """index (a tensor, list or array of ints; negatives count from the end, as numpy) as
    a 1-D int tensor on ctx with every value in 0..n-1 (IndexError naming one that is not)."""
    from ._tensor import from_host
    if isinstance(index, Tensor):
        if index.dtype.is_floating_point or index.dtype is _dtype.bool_:
            raise _errors.index_error(f"{who}: tensors used as indices must be long or int, "
                                      f"not {index.dtype.name}")
        if index.ndim != 1:
            index = reshape(index, -1)
        from ._tensor import known_range, set_range
        rng = known_range(index)
        if rng is None:
            host = index.get()
            rng = (int(host.min()), int(host.max()))
            set_range(index, *rng)
        if rng[0] < 0:  # wrapped on the host: rare, and the index is small
            return _index_tensor(index.get(), n, who, ctx)
        bad = rng[1] if rng[1] >= n else None
    else:
        host = np.asarray(index)
        if host.dtype.kind not in "iu" or host.ndim != 1:
            raise _errors.index_error(f"{who}: indices must be a 1-D list or array of ints, "
                                      f"not {host.dtype} of shape {host.shape}")
        bad = next((int(v) for v in host if not -n <= v < n), None)
        if bad is None:
            index = from_host(np.where(host < 0, host + n, host), _dtype.int64, ctx, who)
    if bad is not None:
        raise _errors.index_error(f"{who}: index {bad} is out of bounds for dimension with "
                                  f"size {n}")
    return index


def index_select(x, dim, index):
    """The slices of x at positions index along dim (PyTorch's index_select), on the device;
    differentiable (the gradient adds up where an index repeats)."""
    who = "index_select"
    d = _dim(dim, x.ndim, who)
    idx = _index_tensor(index, x._shape[d] if x.ndim else 1, who, x._st.ctx)
    count = idx._shape[0]
    shape = x._shape[:d] + (count,) + x._shape[d + 1:]
    if len(shape) > S.MAX_DIMS:
        raise _errors.runtime_error(f"{who}: more than {S.MAX_DIMS} dimensions")
    out = _ops.new(x._st.ctx, shape, x.dtype, who)
    ig = (idx._st, idx._offset, idx._stride[0])
    S.launch_gather(x._st.ctx, x.dtype.code, "ew_gather", _ops._geo(out), _ops._geo(x), ig, d,
                    count, who)
    in_shape = x._shape

    def back(g):
        gx = _ops.new(g._st.ctx, in_shape, g.dtype, who)
        S.launch_gather(g._st.ctx, g.dtype.code, "ew_index_add", _ops._geo(gx), _ops._geo(g),
                        ig, d, count, who)
        return (gx,)
    return record("IndexSelectBackward0", out, (x,), back, [idx])


def _advanced(k):
    return isinstance(k, (list, np.ndarray)) or (isinstance(k, Tensor) and k.numel() != 1) or \
        (isinstance(k, Tensor) and k.dtype is _dtype.bool_)


def advanced_index(x, key):
    """x[key] where key holds one list, array or tensor of indices (or a bool mask of x's
    leading dimensions), the other parts full slices: a gather on the device (a mask is
    read to the host first, as its count sets the result's shape)."""
    parts = list(key) if isinstance(key, tuple) else [key]
    adv = [i for i, k in enumerate(parts) if _advanced(k)]
    if len(adv) != 1 or builtins.any(not (isinstance(k, slice) and k == slice(None))
                            for i, k in enumerate(parts) if i != adv[0]):
        raise _errors.index_error("clrt: advanced indexing takes one list, array or tensor of "
                                  "indices, the other parts full slices (x[idx], x[:, idx])")
    d, k = adv[0], parts[adv[0]]
    mask = k.get() if isinstance(k, Tensor) and k.dtype is _dtype.bool_ else \
        np.asarray(k) if isinstance(k, (list, np.ndarray)) and np.asarray(k).dtype == bool \
        else None
    if mask is None:
        return index_select(x, d, k)
    if d != 0 or mask.shape != x._shape[:mask.ndim]:
        raise _errors.index_error(f"clrt: a bool mask indexes the leading dimensions: mask "
                                  f"{mask.shape}, tensor {tuple(x._shape)}")
    rows = np.flatnonzero(mask.ravel())
    if rows.size == 0:
        raise _errors.index_error("the mask selects no elements; clrt tensors are never empty")
    flat = reshape(x, (-1,) + x._shape[mask.ndim:])
    return index_select(flat, 0, rows)


def where(condition, a, b):
    """condition ? a : b elementwise with broadcasting (PyTorch's torch.where(c, a, b));
    differentiable in a and b."""
    who = "where"
    if not isinstance(condition, Tensor):
        raise _errors.type_error(f"{who}: condition must be a Tensor")
    ctx = condition._st.ctx
    ref = a if isinstance(a, Tensor) else b
    if not isinstance(ref, Tensor):
        raise _errors.type_error(f"{who}: a or b must be a Tensor")
    dt = a.dtype if isinstance(a, Tensor) else b.dtype
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        dt = _dtype.result_type(a.dtype, b.dtype)
    def operand(v):
        if isinstance(v, Tensor):
            return v
        return _ops.scalar_tensor(ctx, dt, _ops.coerce_scalar(v, dt, who), who)
    ta, tb = operand(a), operand(b)
    ta, tb = (_ops.cast(t, dt) if t.dtype is not dt else t for t in (ta, tb))
    cond = condition if condition.dtype.code == 3 else _ops.compare(S.C_NE, condition, 0, who)
    shape = _ops.broadcast_shapes(_ops.broadcast_shapes(cond._shape, ta._shape, who),
                                  tb._shape, who)
    out = _ops.new(ctx, shape, dt, who)
    S.launch_where(ctx, dt.code, _ops._geo(out), _ops._geo(cond, shape), _ops._geo(ta, shape),
                   _ops._geo(tb, shape), who)
    sc = _save(cond)
    zero = 0.0 if dt.is_floating_point else 0
    return record("WhereBackward0", out, (condition, a, b),
                  lambda g: (None, _grad_for(where(sc, g, zero), a) if _wants(a) else None,
                             _grad_for(where(sc, zero, g), b) if _wants(b) else None), [sc])
