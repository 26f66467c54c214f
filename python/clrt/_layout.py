"""The differentiable operations on layouts: views (view, reshape where the memory
allows, permute, transpose, squeeze, unsqueeze, expand, flatten), copies (contiguous,
clone, dtype conversion), joining (cat, stack), indexing (basic indexing as views;
index_select and advanced indexing as gathers on the device) and where. As in _math.py,
each runs its device operation and records its gradient when an input requires grad.
"""
import builtins
import numbers

import numpy as np

from . import _dtype, _errors, _ops, _strided as S
from ._autograd import is_grad_enabled, record
from ._math import _grad_for, _save, _wants, sum_to
from ._tensor import Tensor, _count, _dim, contiguous_strides, view_of


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
    if total != _count(shape):
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
