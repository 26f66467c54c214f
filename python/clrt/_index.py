"""Basic indexing (numpy's and PyTorch's): ints, slices, None, Ellipsis and bools, as a
view (shape, strides, offset) of the tensor's storage; never a copy. (An index list,
array or tensor is a gather instead: _math.advanced_index.)

    t[2], t[-1, 1:5], t[:, None], t[..., ::2], t[True]

An int out of range is IndexError; a negative step is ValueError (PyTorch's rule; numpy
would reverse); an index that selects nothing (t[3:3], t[False]) is IndexError, since
clrt tensors are never empty; an int tensor of one element counts as an int. A list, an
array or a tensor of several elements (advanced indexing) is not a view: normalize()
refuses it (IndexError) and Tensor.__getitem__ gathers instead.
"""
import numbers

import numpy as np

from . import _errors


def _is_int(k):
    return isinstance(k, (numbers.Integral, np.integer)) and not isinstance(k, (bool, np.bool_))


def _as_key(key):
    from ._tensor import Tensor
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if isinstance(k, Tensor) and k.numel() == 1 and not k.dtype.is_floating_point \
                and k.dtype.name != "bool":
            k = int(k.item())
        out.append(k)
    return out


def normalize(key, shape, strides=None):
    """(shape, strides, offset delta) of the view key selects in a tensor of shape and
    strides (contiguous when None). The shape/index normaliser the fuzz target drives."""
    from ._tensor import contiguous_strides
    shape = tuple(shape)
    strides = contiguous_strides(shape) if strides is None else tuple(strides)
    key = _as_key(key)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis and
                   not isinstance(k, (bool, np.bool_)))
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise _errors.index_error("an index can only have a single ellipsis ('...')")
    if consumed > len(shape):
        raise _errors.index_error(f"too many indices for tensor of dimension {len(shape)} "
                                  f"(got {consumed})")
    out_shape, out_strides, off, d = [], [], 0, 0
    # numpy's bool scalars: together one new axis (length 1 when all are True); with them,
    # ints count as advanced too, and the axis goes where the first of those stood, or
    # first when they are not next to each other in the index
    bools = [k for k in key if isinstance(k, (bool, np.bool_))]
    adv = [i for i, k in enumerate(key) if isinstance(k, (bool, np.bool_)) or _is_int(k)]
    adv_pos = None
    for k in key:
        if k is None:
            out_shape.append(1)
            out_strides.append(0)
        elif k is Ellipsis:
            n = len(shape) - consumed
            out_shape.extend(shape[d:d + n])
            out_strides.extend(strides[d:d + n])
            d += n
        elif isinstance(k, (bool, np.bool_)):
            adv_pos = len(out_shape) if adv_pos is None else adv_pos
        elif _is_int(k):
            adv_pos = len(out_shape) if adv_pos is None else adv_pos
            n, i = shape[d], int(k)
            if not -n <= i < n:
                raise _errors.index_error(f"index {i} is out of bounds for dimension {d} with "
                                          f"size {n}")
            off += (i % n) * strides[d]
            d += 1
        elif isinstance(k, slice):
            _slice_dim(k, shape[d], strides[d], d, out_shape, out_strides)
            start = k.indices(shape[d])[0]
            off += start * strides[d]
            d += 1
        else:
            _refuse(k)
    out_shape.extend(shape[d:])
    out_strides.extend(strides[d:])
    if bools:
        if not all(bools):
            raise _errors.index_error("index False selects no elements; clrt tensors are "
                                      "never empty")
        at = adv_pos if adv[-1] - adv[0] == len(adv) - 1 else 0
        out_shape.insert(at, 1)
        out_strides.insert(at, 0)
    return tuple(out_shape), tuple(out_strides), off


def _slice_dim(k, n, stride, d, out_shape, out_strides):
    for part in (k.start, k.stop, k.step):
        if part is not None and not _is_int(part) and not hasattr(part, "__index__"):
            raise _errors.type_error(f"slice indices must be integers or None, not "
                                     f"{type(part).__name__}")
    start, stop, step = k.indices(n)
    if step <= 0:
        raise _errors.value_error("step must be greater than zero (clrt tensors, as PyTorch's, "
                                  "have no negative steps; use .flip())")
    length = len(range(start, stop, step))
    if length == 0:
        raise _errors.index_error(f"slice {k.start}:{k.stop}:{k.step} of dimension {d} (size "
                                  f"{n}) is empty; clrt tensors are never empty")
    out_shape.append(length)
    out_strides.append(stride * step)


def _refuse(k):
    from ._tensor import Tensor
    if isinstance(k, (list, np.ndarray, Tensor)):
        raise _errors.index_error(f"clrt: indexing with a {type(k).__name__} (advanced "
                                  "indexing) is not supported; use ints, slices, None, ..., or "
                                  "index_select")
    if isinstance(k, (float, np.floating)):
        raise _errors.index_error(f"only integers, slices (`:`), ellipsis (`...`), None and "
                                  f"long or byte Variables are valid indices (got float {k!r})")
    raise _errors.index_error(f"only integers, slices (`:`), ellipsis (`...`), None and bools "
                              f"are valid indices (got {type(k).__name__})")


def basic_index(t, key):
    """(shape, strides, offset) of t[key] over t's storage."""
    shape, strides, off = normalize(key, t._shape, t._stride)
    return shape, strides, t._offset + off
