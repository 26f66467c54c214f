"""Tensor's methods and operators (PyTorch's names, numpy's where they differ: axis and
keepdims beside dim and keepdim, astype, copy, T), installed on clrt.Tensor by
_tensor.py. Each delegates to the differentiable operations (_math, _functional).

In-place operators (+=, add_, t[...] = v, ...) write through views into the memory the
tensor shares (a view of a, changed in place, changes a) and count a version. Under
autograd they are recorded as PyTorch records them: the tensor's history continues from
the operation; on a leaf that requires grad they are a RuntimeError (as PyTorch's), and
a tensor saved for a backward pass and changed since makes that backward pass fail.
"""
import numbers

import numpy as np

from . import _dtype, _errors, _functional as F, _layout as L, _math as M, _ops, _strided as S
from ._autograd import Node, edge, is_grad_enabled, no_grad, record
from ._tensor import Tensor, view_of


def _other_for(self, other):
    """other converted for an in-place operation on self (PyTorch casts it to self's dtype
    when that loses no category: float into float, int into int)."""
    if isinstance(other, Tensor) and other.dtype is not self.dtype:
        if other.dtype.is_floating_point == self.dtype.is_floating_point or \
                self.dtype.is_floating_point:
            return L.to_dtype(other, self.dtype)
        raise _errors.runtime_error(f"result type {other.dtype.name} can't be cast to the "
                                    f"desired output type {self.dtype.name}")
    if not isinstance(other, Tensor) and not self.dtype.is_floating_point:
        _ops.check_scalar(other, "in-place operation")
        if isinstance(other, (float, np.floating)) and other != int(other):
            raise _errors.runtime_error(f"result type Float can't be cast to the desired output "
                                        f"type {self.dtype.name}")
    return other


def _with_history(self):
    """An alias of self carrying its current history (the input of an in-place op)."""
    a = view_of(self, self._shape, self._stride, self._offset)
    a.grad_fn, a._rg = self.grad_fn, self._rg
    if self.grad_fn is None and self._rg:
        a._acc = edge(self)
    return a


def _graphed(self, *others):
    return is_grad_enabled() and (self._rg or any(isinstance(o, Tensor) and o._rg
                                                  for o in others))


def _leaf_check(self):
    if self._rg and self.grad_fn is None:
        raise _errors.runtime_error("a leaf Variable that requires grad is being used in an "
                                    "in-place operation.")


def inplace(self, fn, *others, raw=None):
    """self = fn(self, *others) in place. raw(out) does it without a graph, when given."""
    others = tuple(_other_for(self, o) for o in others)
    if _graphed(self, *others):
        _leaf_check(self)
        r = fn(_with_history(self), *others)
        with no_grad():
            _ops.copy_into(self, r)
        self._bump_version()
        self.grad_fn, self._rg = r.grad_fn, r._rg
        return self
    if raw is not None:
        raw(*others)
    else:
        _ops.copy_into(self, fn(self, *others))
    self._bump_version()
    return self


def _binary_inplace(op, fn):
    def f(self, other, *, alpha=1):
        if alpha != 1:
            other = M.mul(other, alpha)
        who = "in-place " + fn.__name__
        return inplace(self, fn, other, raw=lambda o: _ops.binary(op, self, o, out=self, who=who))
    return f


def setitem(self, key, value):
    from ._index import basic_index
    target = view_of(self, *basic_index(self, key))
    if isinstance(value, np.ndarray) or isinstance(value, (list, tuple)):
        from ._tensor import from_host
        value = from_host(np.asarray(value), self.dtype, self._st.ctx, "Tensor.__setitem__")
    elif not isinstance(value, Tensor):
        _ops.check_scalar(value, "Tensor.__setitem__")
    if _graphed(self, value):
        _leaf_check(self)
        hist = _with_history(self)
        with no_grad():
            _ops.copy_into(target, value, "Tensor.__setitem__")
        self._bump_version()
        vshape = value._shape if isinstance(value, Tensor) else None

        def back(g):
            gs = _ops.clone(g)
            _ops.fill(view_of(gs, *basic_index(gs, key)), 0)
            gv = None
            if vshape is not None and value._rg:
                gv = M.sum_to(view_of(g, *basic_index(g, key)), vshape)
            return gs, gv
        node = Node("CopySlices", back, (hist, value), ())
        self.grad_fn, self._rg = node, True
        return
    _ops.copy_into(target, value, "Tensor.__setitem__")
    self._bump_version()


def requires_grad_(self, requires_grad=True):
    if self.grad_fn is not None and not requires_grad:
        raise _errors.runtime_error("you can only change requires_grad flags of leaf variables. "
                                    "If you want to use a computed variable in a subgraph that "
                                    "doesn't require differentiation use var_no_grad = "
                                    "var.detach().")
    if requires_grad and not self.dtype.is_floating_point:
        raise _errors.runtime_error("only Tensors of floating point dtype can require gradients"
                                    f" (this one is {self.dtype.name})")
    self._rg = bool(requires_grad)
    return self


def _requires_grad_get(self):
    return self._rg


def _is_leaf(self):
    return self.grad_fn is None


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    from ._autograd import backward as run
    run([self], [gradient] if gradient is not None else None, retain_graph, create_graph,
        inputs)


def retain_grad(self):
    if self.grad_fn is None:
        return
    import weakref
    self.grad_fn.retained = weakref.ref(self)


def register_hook(self, hook):
    if not self._rg:
        raise _errors.runtime_error("cannot register a hook on a tensor that doesn't require "
                                    "gradient")
    if self.grad_fn is not None:
        self.grad_fn.hooks = (self.grad_fn.hooks or []) + [hook]
    else:
        self._hooks = (self._hooks or []) + [hook]
    return hook


def to(self, *args, **kwargs):
    """to(device), to(dtype), to(device, dtype), to(other): the same tensor when nothing
    changes, else a copy (a copy between devices goes through the host)."""
    from ._device import context_of, device as Device
    from ._tensor import from_host
    dev = kwargs.pop("device", None)
    dt = kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise _errors.type_error(f"to() got unexpected arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dev, dt = a.device, a.dtype
        elif isinstance(a, _dtype.dtype) or (isinstance(a, type) and issubclass(a, np.generic)) \
                or isinstance(a, np.dtype):
            dt = a
        elif isinstance(a, (str, Device)) or hasattr(a, "_handles") or \
                isinstance(a, numbers.Integral):
            dev = a
        elif isinstance(a, bool):
            copy = a
        else:
            raise _errors.type_error(f"to() received an invalid combination of arguments: "
                                     f"{type(a).__name__}")
    out = self
    if dev is not None:
        ctx = context_of(dev)
        if ctx is not self._st.ctx:
            out = from_host(self.get(), self.dtype, ctx, "Tensor.to")
            if self._rg and is_grad_enabled():
                src_ctx = self._st.ctx
                out = record("ToCopyBackward0", out, (self,),
                             lambda g: (from_host(g.get(), g.dtype, src_ctx, "backward"),))
    if dt is not None:
        out = L.to_dtype(out, _dtype.get(dt, "Tensor.to"))
    if copy and out is self:
        out = L.clone(self)
    return out


def astype(self, dtype, copy=True):
    """numpy's astype: a new tensor of dtype (copy=False: this one when it is of dtype)."""
    dt = _dtype.get(dtype, "Tensor.astype")
    if dt is self.dtype:
        return L.clone(self) if copy else self
    return L.to_dtype(self, dt)


def _getitem(self, key):
    return L.getitem(self, key)


def _T(self):
    if self.ndim < 2:
        return self
    return L.permute(self, list(range(self.ndim))[::-1])


def _mT(self):
    return L.transpose(self, -2, -1)


def _copy_(self, src, non_blocking=False):
    if not isinstance(src, Tensor):
        raise _errors.type_error(f"copy_(): argument 'src' must be Tensor, not "
                                 f"{type(src).__name__}")
    if _graphed(self, src):
        _leaf_check(self)
        hist = _with_history(self)
        with no_grad():
            _ops.copy_into(self, src)
        self._bump_version()
        sshape, sdt = src._shape, src.dtype
        record("CopyBackwards", self, (hist, src),
               lambda g: (None, M.sum_to(_ops.cast(g, sdt) if g.dtype is not sdt else g,
                                         sshape) if src._rg else None))
        return self
    _ops.copy_into(self, src)
    self._bump_version()
    return self


def _fill_(self, value):
    if isinstance(value, Tensor):
        value = value.item()
    if _graphed(self):
        _leaf_check(self)
    _ops.fill(self, value)
    self._bump_version()
    if _graphed(self):
        record("FillBackward0", self, (_with_history(self),), lambda g: (None,))
    return self


def _zero_(self):
    return _fill_(self, 0)


def _uniform_(self, a=0.0, b=1.0):
    with no_grad():
        _ops.random_(self, S.R_UNIFORM, float(a), float(b), "uniform_")
    self._bump_version()
    return self


def _normal_(self, mean=0.0, std=1.0):
    with no_grad():
        _ops.random_(self, S.R_NORMAL, float(mean), float(std), "normal_")
    self._bump_version()
    return self


def _cmp(op, name):
    def f(self, other):
        if isinstance(other, np.ndarray) or (not isinstance(other, Tensor) and
                                             not _ops.is_scalar(other)):
            if op in (S.C_EQ, S.C_NE) and not isinstance(other, np.ndarray):
                return NotImplemented
        return _ops.compare(op, self, other, f"Tensor.{name}")
    f.__name__ = name
    return f


def _reflected(fn):
    def f(self, other):
        return fn(other, self)
    return f


def _not_tensor_operand(fn, who):
    def f(self, other):
        if not isinstance(other, Tensor):
            _ops.check_scalar(other, f"clrt: operator {who}")
        return fn(self, other)
    return f


def _bool_op(op, name):
    def f(self, other):
        return _ops.binary(op, self, other, who=f"Tensor.{name}")
    return f


_PLAIN = {
    # arithmetic
    "__add__": _not_tensor_operand(M.add, "+"),
    "__radd__": _reflected(_not_tensor_operand(M.add, "+")),
    "__sub__": _not_tensor_operand(M.sub, "-"),
    "__rsub__": _reflected(_not_tensor_operand(M.sub, "-")),
    "__mul__": _not_tensor_operand(M.mul, "*"),
    "__rmul__": _reflected(_not_tensor_operand(M.mul, "*")),
    "__truediv__": _not_tensor_operand(M.div, "/"),
    "__rtruediv__": _reflected(_not_tensor_operand(M.div, "/")),
    "__floordiv__": _not_tensor_operand(M.floor_divide, "//"),
    "__rfloordiv__": _reflected(_not_tensor_operand(M.floor_divide, "//")),
    "__mod__": _not_tensor_operand(M.remainder, "%"),
    "__pow__": _not_tensor_operand(M.pow, "**"),
    "__rpow__": _reflected(_not_tensor_operand(M.pow, "**")),
    "__matmul__": lambda self, o: M.matmul(self, o),
    "__rmatmul__": lambda self, o: M.matmul(o, self),
    "__neg__": M.neg,
    "__pos__": lambda self: self,
    "__abs__": M.abs,
    "__and__": _bool_op(S.B_AND, "__and__"),
    "__or__": _bool_op(S.B_OR, "__or__"),
    "__xor__": _bool_op(S.B_XOR, "__xor__"),
    "__invert__": lambda self: M.logical_not(self) if self.dtype is _dtype.bool_ else
    _ops.unary(S.U_BITNOT, self, who="Tensor.__invert__"),
    "__eq__": _cmp(S.C_EQ, "__eq__"),
    "__ne__": _cmp(S.C_NE, "__ne__"),
    "__lt__": _cmp(S.C_LT, "__lt__"),
    "__le__": _cmp(S.C_LE, "__le__"),
    "__gt__": _cmp(S.C_GT, "__gt__"),
    "__ge__": _cmp(S.C_GE, "__ge__"),
    "__getitem__": _getitem,
    "__setitem__": setitem,
    # in place
    "__iadd__": _binary_inplace(S.B_ADD, M.add),
    "__isub__": _binary_inplace(S.B_SUB, M.sub),
    "__imul__": _binary_inplace(S.B_MUL, M.mul),
    "__itruediv__": _binary_inplace(S.B_DIV, M.div),
    "add_": _binary_inplace(S.B_ADD, M.add),
    "sub_": _binary_inplace(S.B_SUB, M.sub),
    "mul_": _binary_inplace(S.B_MUL, M.mul),
    "div_": _binary_inplace(S.B_DIV, M.div),
    "pow_": lambda self, e: inplace(self, M.pow, e),
    "clamp_": lambda self, min=None, max=None: inplace(self, lambda x: M.clamp(x, min, max)),
    "relu_": lambda self: inplace(self, M.relu),
    "exp_": lambda self: inplace(self, M.exp),
    "log_": lambda self: inplace(self, M.log),
    "sqrt_": lambda self: inplace(self, M.sqrt),
    "neg_": lambda self: inplace(self, M.neg),
    "abs_": lambda self: inplace(self, M.abs),
    "tanh_": lambda self: inplace(self, M.tanh),
    "sigmoid_": lambda self: inplace(self, M.sigmoid),
    "copy_": _copy_,
    "fill_": _fill_,
    "zero_": _zero_,
    "uniform_": _uniform_,
    "normal_": _normal_,
    "requires_grad_": requires_grad_,
    # autograd
    "backward": backward,
    "retain_grad": retain_grad,
    "register_hook": register_hook,
    "detach": L.detach,
    "detach_": lambda self: (setattr(self, "grad_fn", None), setattr(self, "_rg", False),
                             self)[-1],
    # conversions
    "to": to,
    "cpu": lambda self: self,
    "cuda": lambda self, device=None: self if device is None else self.to(device),
    "astype": astype,
    "float": lambda self: L.to_dtype(self, _dtype.float32),
    "double": lambda self: L.to_dtype(self, _dtype.float64),
    "int": lambda self: L.to_dtype(self, _dtype.int32),
    "long": lambda self: L.to_dtype(self, _dtype.int64),
    "bool": lambda self: L.to_dtype(self, _dtype.bool_),
    "type_as": lambda self, other: L.to_dtype(self, other.dtype),
    "clone": L.clone,
    "copy": L.clone,
    "contiguous": L.contiguous,
    # layouts
    "view": L.view,
    "view_as": lambda self, other: L.view(self, other._shape),
    "reshape": L.reshape,
    "reshape_as": lambda self, other: L.reshape(self, other._shape),
    "flatten": L.flatten,
    "ravel": L.ravel,
    "permute": L.permute,
    "transpose": L.transpose,
    "swapaxes": L.transpose,
    "t": L.t,
    "squeeze": L.squeeze,
    "unsqueeze": L.unsqueeze,
    "expand": L.expand,
    "expand_as": lambda self, other: L.expand(self, other._shape),
    # math
    "add": M.add, "sub": M.sub, "mul": M.mul, "div": M.div, "pow": M.pow,
    "matmul": M.matmul, "mm": M.mm, "bmm": M.bmm, "dot": M.dot,
    "maximum": M.maximum, "minimum": M.minimum, "clamp": M.clamp, "clip": M.clamp,
    "exp": M.exp, "log": M.log, "sqrt": M.sqrt, "rsqrt": M.rsqrt, "tanh": M.tanh,
    "sigmoid": M.sigmoid, "relu": M.relu, "neg": M.neg, "abs": M.abs, "sign": M.sign,
    "reciprocal": M.reciprocal, "square": M.square, "log1p": M.log1p, "expm1": M.expm1,
    "sin": M.sin, "cos": M.cos, "floor": M.floor, "ceil": M.ceil, "round": M.round,
    "trunc": M.trunc, "isnan": M.isnan, "logical_not": M.logical_not,
    "softmax": lambda self, dim=None, dtype=None: M.softmax(self, dim, dtype),
    "log_softmax": lambda self, dim=None, dtype=None: M.log_softmax(self, dim, dtype),
    "sum": M.sum, "mean": M.mean, "max": M.max, "min": M.min, "amax": M.amax, "amin": M.amin,
    "argmax": M.argmax, "argmin": M.argmin, "std": M.std, "var": M.var, "all": M.all,
    "any": M.any,
    "eq": _cmp(S.C_EQ, "eq"), "ne": _cmp(S.C_NE, "ne"), "lt": _cmp(S.C_LT, "lt"),
    "le": _cmp(S.C_LE, "le"), "gt": _cmp(S.C_GT, "gt"), "ge": _cmp(S.C_GE, "ge"),
    "equal": lambda self, o: self._shape == o._shape and bool(M.all(self == o).item()),
    "dropout": F.dropout,
    "index_select": L.index_select,
    "masked_fill": lambda self, mask, value: L.where(mask, value, self),
    "where": lambda self, cond, other: L.where(cond, self, other),
}
_PROPS = {
    "requires_grad": property(_requires_grad_get, lambda self, v: requires_grad_(self, v)),
    "is_leaf": property(_is_leaf),
    "T": property(_T),
    "mT": property(_mT),
    "is_cuda": property(lambda self: self.device.type == "gpu"),
}


def install(cls):
    for name, fn in _PLAIN.items():
        setattr(cls, name, fn)
    for name, p in _PROPS.items():
        setattr(cls, name, p)
    cls.__hash__ = object.__hash__  # __eq__ is elementwise, identity hashes (as PyTorch)
