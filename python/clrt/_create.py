"""Making tensors: from host data (tensor, from_numpy, as_tensor), filled (zeros, ones,
full, empty, arange, eye), random (rand, randn, randint, from clrt.manual_seed's stream)
and the *_like forms. device= takes a clrt.device, a selector string or a Context; the
default is the default device ($CLRT_DEVICE honoured).
"""
import numbers

import numpy as np

from . import _dtype, _errors, _ops, _strided as S
from ._tensor import Tensor, empty_tensor, from_host, normalize_shape, resolve_ctx


def _ctx(device, ctx=None):
    return resolve_ctx(ctx, device)


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer_dtype(x):
    """PyTorch's dtype for host data: floats float32 (numpy arrays keep theirs), ints
    int64, bools bool."""
    if isinstance(x, np.ndarray):
        return _dtype.get(x.dtype, "clrt.tensor")
    a = np.asarray(x)
    if a.dtype.kind == "f":
        return _dtype.float32 if not isinstance(x, np.floating) else _dtype.get(a.dtype, "")
    if a.dtype.kind in "iu":
        return _dtype.int64 if not isinstance(x, np.integer) else _dtype.get(a.dtype, "")
    if a.dtype.kind == "b":
        return _dtype.bool_
    if a.dtype.kind == "c":
        raise _errors.type_error("clrt.tensor: complex values are not supported")
    raise _errors.type_error(f"clrt.tensor: could not infer dtype of {type(x).__name__}")


def tensor(data, dtype=None, device=None, requires_grad=False, ctx=None, pin_memory=False):
    """A new tensor holding a copy of data (a number, a nested list, a numpy array or a
    tensor), PyTorch's dtype rules: floats float32, ints int64, numpy arrays their own."""
    if isinstance(data, Tensor):
        src = data.detach()
        dt = _dtype.get(dtype, "clrt.tensor", src.dtype)
        c = _ctx(device, ctx)
        if src._st.ctx is not c:
            src = from_host(src.get(), src.dtype, c, "clrt.tensor")
        return _finish(_ops.cast(src, dt, "clrt.tensor"), requires_grad)
    if isinstance(data, (complex, np.complexfloating)):
        raise _errors.type_error("clrt.tensor: complex values are not supported")
    if isinstance(data, (list, tuple)) and any(isinstance(v, Tensor) for v in data):
        data = [v.get() if isinstance(v, Tensor) else v for v in data]
    dt = _dtype.get(dtype, "clrt.tensor") or _infer_dtype(data)
    t = from_host(np.asarray(data), dt, _ctx(device, ctx), "clrt.tensor")
    return _finish(t, requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and dtype in (None, data.dtype) and device is None:
        return data
    return tensor(data, dtype, device)


def from_numpy(x, device=None):
    """The numpy array x on the device (a copy: the device has its own memory), its dtype
    kept (float32, float64, int32, int64, bool)."""
    if not isinstance(x, np.ndarray):
        raise _errors.type_error(f"expected np.ndarray (got {type(x).__name__})")
    return from_host(x, _dtype.get(x.dtype, "clrt.from_numpy"), _ctx(device), "clrt.from_numpy")


def _shape_dtype(size, dtype, who, default=_dtype.float32):
    return normalize_shape(size, who), _dtype.get(dtype, who, default)


def empty(*size, dtype=None, device=None, requires_grad=False, ctx=None, out=None):
    shape, dt = _shape_dtype(size, dtype, "clrt.empty")
    return _finish(empty_tensor(_ctx(device, ctx), shape, dt, "clrt.empty"), requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False, ctx=None):
    if dtype is None:
        dtype = _dtype.bool_ if isinstance(fill_value, (bool, np.bool_)) else \
            _dtype.int64 if isinstance(fill_value, (numbers.Integral, np.integer)) else None
    shape, dt = _shape_dtype((size,) if not isinstance(size, (tuple, list)) else (size,),
                             dtype, "clrt.full")
    _ops.check_scalar(fill_value, "clrt.full")
    t = empty_tensor(_ctx(device, ctx), shape, dt, "clrt.full")
    _ops.fill(t, fill_value, "clrt.full")
    return _finish(t, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False, ctx=None):
    shape, dt = _shape_dtype(size, dtype, "clrt.zeros")
    t = empty_tensor(_ctx(device, ctx), shape, dt, "clrt.zeros")
    _ops.fill(t, 0, "clrt.zeros")
    return _finish(t, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, ctx=None):
    shape, dt = _shape_dtype(size, dtype, "clrt.ones")
    t = empty_tensor(_ctx(device, ctx), shape, dt, "clrt.ones")
    _ops.fill(t, 1, "clrt.ones")
    return _finish(t, requires_grad)


def _like(fn, x, dtype, device, requires_grad, *args):
    if not isinstance(x, Tensor):
        raise _errors.type_error(f"{fn.__name__}_like(): argument 'input' must be Tensor, not "
                                 f"{type(x).__name__}")
    return fn(x._shape, *args, dtype=dtype or x.dtype, device=device or x.device,
              requires_grad=requires_grad)


def zeros_like(x, dtype=None, device=None, requires_grad=False):
    return _like(zeros, x, dtype, device, requires_grad)


def ones_like(x, dtype=None, device=None, requires_grad=False):
    return _like(ones, x, dtype, device, requires_grad)


def empty_like(x, dtype=None, device=None, requires_grad=False):
    return _like(empty, x, dtype, device, requires_grad)


def full_like(x, fill_value, dtype=None, device=None, requires_grad=False):
    return full(x._shape, fill_value, dtype=dtype or x.dtype, device=device or x.device,
                requires_grad=requires_grad)


def rand_like(x, dtype=None, device=None, requires_grad=False):
    return _like(rand, x, dtype, device, requires_grad)


def randn_like(x, dtype=None, device=None, requires_grad=False):
    return _like(randn, x, dtype, device, requires_grad)


def _random(size, dtype, device, requires_grad, kind, p, q, who):
    shape, dt = _shape_dtype(size, dtype, who)
    if not dt.is_floating_point:
        raise _errors.type_error(f"{who}: a float dtype is needed, not {dt.name}")
    t = empty_tensor(_ctx(device), shape, dt, who)
    _ops.random_(t, kind, p, q, who)
    return _finish(t, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Uniform in [0, 1), from the stream clrt.manual_seed sets (made on the device)."""
    return _random(size, dtype, device, requires_grad, S.R_UNIFORM, 0.0, 1.0, "clrt.rand")


def randn(*size, dtype=None, device=None, requires_grad=False, generator=None):
    """Standard normal (Box-Muller on the device), from clrt.manual_seed's stream."""
    return _random(size, dtype, device, requires_grad, S.R_NORMAL, 0.0, 1.0, "clrt.randn")


def randint(low, high=None, size=None, dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    if size is None:
        raise _errors.type_error("randint() missing 1 required positional argument: 'size'")
    u = _random(size if isinstance(size, (tuple, list)) else (size,), _dtype.float64, device,
                False, S.R_UNIFORM, float(low), float(high), "clrt.randint")
    return _ops.cast(_ops.unary(S.U_FLOOR, u), _dtype.get(dtype, "clrt.randint", _dtype.int64))


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    """start, start + step, ... below end (PyTorch's: ints give int64, a float anywhere
    float32), made on the device."""
    if end is None:
        start, end = 0, start
    for v in (start, end, step):
        _ops.check_scalar(v, "clrt.arange")
    if step == 0:
        raise _errors.runtime_error("arange: step must be nonzero")
    n = int(np.ceil((end - start) / step))
    if n <= 0:
        raise _errors.runtime_error(f"arange({start}, {end}, {step}) is empty; clrt tensors "
                                    "are never empty")
    ints = all(isinstance(v, (numbers.Integral, np.integer)) for v in (start, end, step))
    dt = _dtype.get(dtype, "clrt.arange", _dtype.int64 if ints else _dtype.float32)
    normalize_shape((n,), "clrt.arange")
    t = empty_tensor(_ctx(device), (n,), dt, "clrt.arange")
    if not dt.is_floating_point and not -2 ** 31 <= start + (n - 1) * step < 2 ** 31:
        raise _errors.value_error("clrt.arange: values beyond the int32 range clrt holds "
                                  f"{dt.name} in on the device")
    S.launch_arange(t._st.ctx, dt.code, t._st, n, start, step, "clrt.arange")
    return _finish(t, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    steps = int(steps)
    if steps == 1:
        return full((1,), start, dtype=dtype or _dtype.float32, device=device)
    dt = _dtype.get(dtype, "clrt.linspace", _dtype.float32)
    t = empty_tensor(_ctx(device), normalize_shape((steps,), "clrt.linspace"), dt,
                     "clrt.linspace")
    S.launch_arange(t._st.ctx, dt.code, t._st, steps, float(start),
                    (float(end) - float(start)) / (steps - 1), "clrt.linspace")
    return _finish(t, requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    m = n if m is None else m
    t = zeros(n, m, dtype=dtype, device=device)
    k = min(n, m)
    from ._tensor import view_of
    _ops.fill(view_of(t, (k,), (m + 1,), 0), 1, "clrt.eye")
    return _finish(t, requires_grad)
