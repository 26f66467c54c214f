"""clrt.Tensor: an N-dimensional array on a clrt device, with PyTorch's names and autograd.

A tensor is a storage (one whole clrt buffer: _buffer._Buffer) seen through a shape,
strides (in elements, as PyTorch's) and an element offset. view, reshape where the
layout allows, permute, transpose, t, squeeze, unsqueeze, expand and basic indexing
make another tensor over the same storage (no copy); writes through one are seen by
the others, and one version counter counts in-place changes for all of them (autograd
refuses a saved tensor changed since it was saved).

The library's kernels take matrices (a buffer or a window of one); a tensor reaches
them as the matrix its layout is (matrix()): a run of elements in order is a
reshape of its storage, a 2-D window of rows is a view, the transpose of either is a
flag for the products. Other layouts (a permute, a broadcast, a negative step) go to
the binding's strided kernels (_strided.py), or are made contiguous on the device.

Values on the host: numpy() (or np.asarray(t)), item(), repr. Nothing else reads back.
"""
import numbers
import operator

import numpy as np

from . import _buffer, _context, _dtype, _errors
from ._lib import check, lib

# A buffer's rows * cols * itemsize must fit a size_t without wrapping, whatever the
# library then says about the device's memory: shapes are bounded before ctypes sees them.
_MAX_ELEMENTS = (1 << 62) // 8


class Size(tuple):
    """A tensor's shape: a tuple of ints (PyTorch's torch.Size)."""

    def __repr__(self):
        return f"clrt.Size({list(self)})"

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


class _SizeAttr(int):
    """t.size: numpy's attribute (the element count, an int) and PyTorch's method in one:
    t.size() is the shape, t.size(d) one dimension."""

    def __call__(self, dim=None):
        if dim is None:
            return Size(self._shape)
        return self._shape[_dim(dim, len(self._shape), "Tensor.size")]


def _dim(d, ndim, who):
    """d (negative counts from the end) as 0..ndim-1; a 0-d tensor takes -1 and 0."""
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, (numbers.Integral, np.integer)):
        raise _errors.type_error(f"{who}: dim (axis) must be an int, not {type(d).__name__} "
                                 f"{d!r}")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise _errors.index_error(f"{who}: Dimension out of range (expected to be in range of "
                                  f"[{-n}, {n - 1}], but got dim (axis) {d})")
    return int(d) % n


def normalize_shape(args, who):
    """A shape from PyTorch's forms (ints, or one tuple, list or Size of them) as a tuple:
    a float or bool dimension TypeError, a negative one RuntimeError, and a count of
    elements too large to address ValueError, before anything reaches the library."""
    if len(args) == 1 and not isinstance(args[0], (numbers.Integral, np.integer)):
        args = args[0]
        if isinstance(args, (str, bytes)) or not hasattr(args, "__iter__"):
            raise _errors.type_error(f"{who}: shape must be an int or a sequence of ints, "
                                     f"not {type(args).__name__} {args!r}")
    shape = []
    for n in args:
        if isinstance(n, (bool, np.bool_)):
            raise _errors.type_error(f"{who}: shape {tuple(args)!r} holds a bool")
        try:
            n = operator.index(n)
        except TypeError:
            raise _errors.type_error(f"{who}: shape must be ints, not {type(n).__name__} "
                                     f"{n!r} (in {tuple(args)!r})") from None
        shape.append(n)
    shape = tuple(shape)
    for n in shape:
        if n < 0:
            raise _errors.runtime_error(f"{who}: Trying to create tensor with negative "
                                        f"dimension {n}: {shape}")
    count = 1
    for n in shape:
        count *= n
    if count > _MAX_ELEMENTS:
        raise _errors.value_error(f"{who}: shape {shape} has {count} elements, more than "
                                  "any device can hold (a size_t would wrap)")
    if count == 0:
        raise _errors.runtime_error(f"{who}: shape {shape} has no elements; clrt tensors are "
                                    "never empty (the library has no empty buffers)")
    return shape


def contiguous_strides(shape):
    st, acc = [], 1
    for n in reversed(shape):
        st.append(acc)
        acc *= n
    return tuple(reversed(st))


def shape2d(shape):
    """The matrix a contiguous tensor of shape is held as: rows = shape[0], the rest in a
    row (an image of C x H x W per row for NCHW); a vector or a scalar is one row."""
    if len(shape) >= 2:
        n = 1
        for d in shape[1:]:
            n *= d
        return shape[0], n
    return (1, shape[0]) if shape else (1, 1)


class Tensor:
    """An N-dimensional array on a clrt device (PyTorch's torch.Tensor)."""

    __array_ufunc__ = None  # numpy defers to us: ndarray + Tensor raises our clear error
    __array_priority__ = 1000

    __slots__ = ("_st", "_shape", "_stride", "_offset", "dtype", "_ver", "_hc", "_range",
                 "_rg", "grad", "grad_fn", "_acc", "_retains", "_hooks", "_out_nr", "_is_param",
                 "__weakref__")

    def __init__(self, *args, **kwargs):
        # Tensor(data) and Tensor(*sizes), as PyTorch's
        from . import _create
        if len(args) == 1 and not isinstance(args[0], (numbers.Integral, np.integer)):
            src = _create.tensor(args[0], dtype=_dtype.float32)
        else:
            src = _create.empty(*args, **kwargs) if args else None
        if src is None:
            raise _errors.runtime_error("clrt.Tensor(): clrt tensors are never empty; give "
                                        "data or sizes")
        _init_like(self, src)

    # ---- layout
    @property
    def shape(self):
        return Size(self._shape)

    @shape.setter
    def shape(self, value):
        # the former Array's `a.shape = ...` (a reshape of a contiguous array in place)
        value = tuple(value)
        if _count(value) != self.numel() or not self.is_contiguous():
            raise _errors.shape_error(f"Tensor.shape: cannot set shape {value} on a tensor "
                                      f"of shape {self._shape}")
        self._shape, self._stride, self._hc = value, contiguous_strides(value), None

    @property
    def size(self):
        s = _SizeAttr(self.numel())
        s._shape = self._shape
        return s

    def stride(self, dim=None):
        if dim is None:
            return self._stride
        return self._stride[_dim(dim, self.ndim, "Tensor.stride")]

    def storage_offset(self):
        return self._offset

    def dim(self):
        return len(self._shape)

    ndimension = dim

    @property
    def ndim(self):
        return len(self._shape)

    def numel(self):
        return _count(self._shape)

    nelement = numel

    def element_size(self):
        return self.dtype.itemsize

    def is_contiguous(self):
        return _is_contiguous(self._shape, self._stride)

    def is_floating_point(self):
        return self.dtype.is_floating_point

    @property
    def context(self):
        return self._st.ctx

    @property
    def device(self):
        from ._device import device_of
        return device_of(self._st.ctx)

    @property
    def is_view(self):
        """Whether this tensor is a window of another's memory (not its whole storage)."""
        return self._offset != 0 or self.numel() != _st_count(self._st) or \
            not self.is_contiguous() or self._st.is_view

    @property
    def data(self):
        """This tensor without its history (PyTorch's .data: detach(), sharing memory)."""
        return self.detach()

    @data.setter
    def data(self, other):
        _init_like(self, other, keep_grad=True)

    def __len__(self):
        if not self._shape:
            raise _errors.type_error("len() of a 0-d tensor")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise _errors.type_error("iteration over a 0-d tensor")
        return (self[i] for i in range(self._shape[0]))

    # ---- host
    def numpy(self, *, force=False):
        """A numpy array holding the values (waits for the work that writes them)."""
        if self.requires_grad and not force and _grad_enabled():
            raise _errors.runtime_error("Can't call numpy() on Tensor that requires grad. Use "
                                        "tensor.detach().numpy() instead.")
        return to_host(self)

    def get(self):
        """numpy() under the former clrt.Array's name."""
        return to_host(self)

    def __array__(self, dtype=None, copy=None):
        """np.asarray(t) and np.array(t): the values on the host (always a new array, so
        copy=False, numpy 2's "never copy", is refused as numpy refuses it)."""
        if copy is False:
            raise ValueError("clrt.Tensor.__array__: the values live on the device; numpy "
                             "cannot see them without a copy (copy=False)")
        host = to_host(self)
        return host if dtype is None else host.astype(dtype, copy=False)

    def tolist(self):
        return to_host(self).tolist()

    def item(self):
        if self.numel() != 1:
            raise _errors.value_error(f"a Tensor with {self.numel()} elements cannot be "
                                      "converted to Scalar", _errors.ESHAPE)
        return to_host(self).reshape(()).item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.dtype.is_floating_point or self.numel() != 1:
            raise _errors.type_error("only integer tensors of a single element can be "
                                     "converted to an index")
        return int(self.item())

    def __bool__(self):
        if self.numel() != 1:
            raise _errors.value_error(f"Boolean value of Tensor with more than one value is "
                                      f"ambiguous (shape {self._shape}); use .any() or .all()")
        return bool(self.item())

    def __repr__(self):
        from ._format import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self.numel() == 1 and spec:
            return format(self.item(), spec)
        return repr(self)

    def close(self):
        """Free the device memory now (also for every tensor sharing it)."""
        self._st._release()

    def set(self, x):
        """Write numpy data of this tensor's shape into it (views: only their elements)."""
        from . import _ops
        x = np.asarray(x)
        if x.shape != self._shape:
            raise _errors.shape_error(f"Tensor.set: data of shape {x.shape} into a tensor "
                                      f"of shape {self._shape}")
        _ops.copy_into(self, from_host(x, self.dtype, self._st.ctx, "Tensor.set"))

    # ---- copying and pickling: the values, through the host
    def __reduce_ex__(self, protocol):
        return (_rebuild, (to_host(self), self.dtype.name, self.requires_grad))

    def __deepcopy__(self, memo):
        from . import _ops
        out = _ops.clone(self)
        out.requires_grad = self.requires_grad
        if self.grad is not None:
            out.grad = _ops.clone(self.grad)
        memo[id(self)] = out
        return out

    def __copy__(self):
        raise _errors.type_error("copy.copy(tensor): a shallow copy would share the device "
                                 "memory; use t.clone() or copy.deepcopy(t)")

    # ---- the version counter (in-place changes), shared with views
    @property
    def _version(self):
        return self._ver[0]

    def _bump_version(self):
        """Count an in-place change (what an optimizer's update in place must call)."""
        self._ver[0] += 1

    # ---- the C handles (for the library's calls)
    def _handle(self, who="clrt"):
        """The clrt_buffer handle of this contiguous tensor as its matrix (shape2d)."""
        r, c = shape2d(self._shape)
        return matrix(self, r, c, who).handle(who)

    def _queue(self, who="clrt"):
        return self._st.ctx._handles(who)[1]


def _count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _st_count(st):
    return st.rows * st.cols


def _is_contiguous(shape, stride):
    acc = 1
    for n, s in zip(reversed(shape), reversed(stride)):
        if n != 1 and s != acc:
            return False
        acc *= n
    return True


def _grad_enabled():
    from ._autograd import is_grad_enabled
    return is_grad_enabled()


def _rebuild(host, dtype_name, requires_grad):
    from ._create import tensor
    return tensor(host, dtype=_dtype._by_name(dtype_name), requires_grad=requires_grad)


def _blank(t):
    t._hc = t._range = t.grad = t.grad_fn = t._acc = t._hooks = None
    t._rg = t._retains = t._is_param = False
    t._out_nr = 0


def make(st, shape, stride, offset, dtype, ver=None):
    """A tensor over storage st (a whole _Buffer): the constructor from storage."""
    t = Tensor.__new__(Tensor)
    t._st, t._shape, t._stride, t._offset, t.dtype = st, tuple(shape), tuple(stride), offset, dtype
    t._ver = ver if ver is not None else [0]
    _blank(t)
    return t


def view_of(t, shape, stride, offset):
    """Another layout of t's storage (shares its memory and version counter). It does not
    inherit t's known value range: a window may hold fewer values (known_range)."""
    return make(t._st, shape, stride, offset, t.dtype, t._ver)


def known_range(t):
    """(lo, hi) of an integer tensor's values where known without reading the device (set
    when they came from the host), or None. A range is stamped with the version counter
    shared by every view of the memory, so that a write through any of them voids it."""
    r = t._range
    return r[1:] if r is not None and r[0] == t._ver[0] else None


def set_range(t, lo, hi):
    t._range = (t._ver[0], int(lo), int(hi))


def copy_range(dst, src):
    """dst holds exactly src's values (a copy, a cast between integer dtypes)."""
    r = known_range(src)
    dst._range = None if r is None else (dst._ver[0],) + r


def _init_like(self, src, keep_grad=False):
    for name in ("_st", "_shape", "_stride", "_offset", "dtype", "_ver", "_hc", "_range"):
        setattr(self, name, getattr(src, name))
    if not keep_grad:
        _blank(self)
        self._hc, self._range = src._hc, src._range


# ---- matrices for the library's calls

def matrix(t, r, c, who):
    """A _Buffer over t's elements as an r x c matrix in order: t must be contiguous."""
    hc = t._hc
    if hc is not None and hc[0] == (r, c):
        return hc[1]
    st = t._st
    n = r * c
    if t._offset == 0 and n == _st_count(st):
        b = st if (st.rows, st.cols) == (r, c) else _buffer.reshape(st, r, c, who)
    else:
        # a run of st's elements: one row of its flat form, then that row as r x c
        flat = st if st.rows == 1 else _buffer.reshape(st, 1, _st_count(st), who)
        win = _buffer.view(flat, 0, t._offset, 1, n, who)
        b = win if r == 1 else _buffer.reshape(win, r, c, who)
    t._hc = ((r, c), b)
    return b


def _window(t, who):
    """A 2-D tensor whose rows are runs a fixed stride apart, as a clrt view; or None."""
    (rows, cols), (s0, s1) = t._shape, t._stride
    if s1 != 1 or s0 < cols:
        return None
    hc = t._hc
    if hc is not None and hc[0] == ("w", s0):
        return hc[1]
    st, o = t._st, t._offset
    total = _st_count(st)
    if st.cols == s0 and not st.is_view:
        parent = st
    elif total % s0 == 0 and not st.is_view:
        parent = _buffer.reshape(st, total // s0, s0, who)
    else:
        return None
    if o % s0 + cols > s0 or (o // s0 + rows) * s0 > total:
        return None
    b = _buffer.view(parent, o // s0, o % s0, rows, cols, who)
    t._hc = (("w", s0), b)
    return b


def matrix_form(t, who="clrt"):
    """(buffer, transposed) for a tensor of at most 2 dimensions the library's calls can
    take as it lies: a run in order, a window of rows, or the transpose of either."""
    if t.is_contiguous():
        r, c = shape2d(t._shape)
        return matrix(t, r, c, who), False
    if t.ndim == 2:
        w = _window(t, who)
        if w is not None:
            return w, False
        tt = view_of(t, t._shape[::-1], t._stride[::-1], t._offset)
        if tt.is_contiguous():
            r, c = tt._shape
            b = matrix(tt, r, c, who)
            return b, True
        w = _window(tt, who)
        if w is not None:
            return w, True
    return None


# ---- host transfers

def from_host(x, dtype, ctx, who):
    """A new contiguous tensor holding the numpy array x converted to dtype (int64 values
    checked against the int32 range the device holds them in)."""
    x = np.asarray(x)
    shape = normalize_shape((x.shape,), who) if x.shape else ()
    if x.dtype.kind == "c":
        raise _errors.type_error(f"{who}: complex values ({x.dtype}) are not supported")
    if x.dtype.kind not in "biuf":
        raise _errors.type_error(f"{who}: dtype {x.dtype} is not one clrt holds (float32, "
                                 "float64, int32, int64, bool); convert first, e.g. "
                                 "x.astype(np.float32)")
    rng = None
    if dtype.device_np != dtype.np or dtype is _dtype.int32:
        src = x.astype(dtype.np, copy=False) if dtype is not _dtype.bool_ else (x != 0)
        if src.size:
            lo, hi = int(src.min()), int(src.max())
            if lo < -2 ** 31 or hi >= 2 ** 31:
                bad = lo if lo < -2 ** 31 else hi
                raise _errors.value_error(
                    f"{who}: value {bad} is outside the int32 range clrt holds "
                    f"{dtype.name} in on the device (-2**31 .. 2**31-1)")
            rng = (lo, hi)
        host = np.ascontiguousarray(src, dtype=dtype.device_np)
    else:
        host = np.ascontiguousarray(x, dtype=dtype.np)
    t = empty_tensor(ctx, shape, dtype, who)
    check(lib.clrt_buffer_write(ctx._handles(who)[1], t._st.handle(who), host.ctypes.data,
                                host.size))
    if rng is not None:
        set_range(t, *rng)
    return t


def to_host(t):
    """The values of t as a new numpy array of its dtype and shape."""
    from . import _ops
    who = "Tensor.numpy"
    src = t if t.is_contiguous() else _ops.contiguous(t)
    n = src.numel()
    host = np.empty(n, src.dtype.device_np)
    r, c = shape2d(src._shape)
    h = matrix(src, r, c, who).handle(who)
    check(lib.clrt_buffer_read(src._queue(who), h, host.ctypes.data, n))
    if t.dtype.np != host.dtype:
        host = host.astype(t.dtype.np)
    return host.reshape(t._shape)


def empty_tensor(ctx, shape, dtype, who):
    """A new uninitialised contiguous tensor (shape already normalised)."""
    r, c = shape2d(shape)
    st = _buffer.new(ctx, r, c, dtype.device_np, who)
    return make(st, shape, contiguous_strides(shape), 0, dtype)


def resolve_ctx(ctx=None, device=None):
    if device is not None:
        from ._device import context_of
        return context_of(device)
    return _context.resolve(ctx)


class Parameter(Tensor):
    """A tensor that is a module's parameter (PyTorch's nn.Parameter): Parameter(data,
    requires_grad=True) shares data's memory, is a leaf, and requires grad by default."""

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            from . import _create
            data = _create.empty(1)
        if not isinstance(data, Tensor):
            raise _errors.type_error(f"Parameter(data): data must be a Tensor, not "
                                     f"{type(data).__name__}")
        _init_like(self, data)
        self._is_param = True
        if requires_grad:
            self.requires_grad_(True)

    def __new__(cls, data=None, requires_grad=True):
        return Tensor.__new__(cls)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (to_host(self), self.dtype.name, self.requires_grad))

    def __deepcopy__(self, memo):
        from . import _ops
        out = Parameter(_ops.clone(self), self.requires_grad)
        if self.grad is not None:
            out.grad = _ops.clone(self.grad)
        memo[id(self)] = out
        return out


def _rebuild_parameter(host, dtype_name, requires_grad):
    return Parameter(_rebuild(host, dtype_name, False), requires_grad)


from . import _methods  # noqa: E402  (the methods need the class defined above)

_methods.install(Tensor)
