"""What clrt.nn, clrt.optim, clrt.utils and clrt.save need of clrt.Tensor, in one place:
the tensor API by its public names, and the few storage facts (the buffer handle, the
element offset, the version counter) that the optimizers' kernels need."""
import numpy as np

from .. import _create, _device, _dtype as _dt, _math, _random
from .._autograd import enable_grad, no_grad  # noqa: F401  (T.enable_grad: the optimizers)
from .._tensor import Parameter, Size, Tensor, set_range, view_of  # noqa: F401  (T.Parameter: nn)


def _dtype(dtype):
    return _dt.get(dtype, "clrt.nn", _dt.float32)


# ---- making tensors

def empty(shape, device=None, dtype=None):
    return _create.empty(*shape, dtype=dtype, device=device)


def zeros_like(t):
    return _create.zeros_like(t)


def empty_like(t):
    return _create.empty_like(t)


def scalar_tensor(x):
    return _create.tensor(float(x))


def stack(tensors):
    return _math.stack(list(tensors))


def batch_tensor(array, like):
    """A tensor of the host array's values, on like's device and of its dtype (like a
    tensor), or on the default device with the array's dtype (like None or an array)."""
    if isinstance(like, Tensor):
        return _create.tensor(np.ascontiguousarray(array), dtype=like.dtype, device=like.device)
    return _create.from_numpy(np.ascontiguousarray(array))


def rows(t, start, count, host=None):
    """Rows start..start+count-1 of a contiguous tensor made here (no autograd): t[a:b]
    without the general indexing's work, a view sharing t's memory. host: the same rows
    on the host, whose value range an integer view is given (a view does not inherit
    its parent's; cross_entropy reads the targets' range back from the device where it
    is not known, which would cost every training step a wait)."""
    v = view_of(t, (count,) + t._shape[1:], t._stride, t._offset + start * t._stride[0])
    if host is not None and not t.dtype.is_floating_point:
        set_range(v, host.min(), host.max())
    return v


def host_rows(t):
    """(numpy array of t's values, what batch_tensor makes batches like)."""
    if isinstance(t, Tensor):
        return t.detach().numpy(), t
    return np.asarray(t), None


def load_tensor(array, device):
    return _create.from_numpy(np.ascontiguousarray(array), device=device)


def to_numpy(t):
    return t.detach().numpy()


def as_device(where):
    return where if isinstance(where, _device.device) else _device.device(where)


# ---- facts

def is_floating_point(t):
    return t.is_floating_point()


def is_floating_dtype(dtype):
    return _dtype(dtype).is_floating_point


def np_dtype(t):
    return t.dtype.np


def numel(t):
    return t.numel()


def context(t):
    return t._st.ctx


def is_leaf(t):
    return t.is_leaf


def typename(x):
    """x's type as PyTorch's messages name it: "int", "clrt._tensor.Tensor"."""
    t = type(x)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def is_tensor_like(v):
    return isinstance(v, (Tensor, np.ndarray)) or (hasattr(v, "__array__") and hasattr(v, "shape"))


def to_float(v):
    return float(np.asarray(v).reshape(()))


def sigmoid(t):
    return _math.sigmoid(t)


def tanh(t):
    return _math.tanh(t)


def parse_to(*args, **kwargs):
    """(device, dtype) from Module.to's forms: to(device), to(dtype), to(device, dtype),
    to(tensor), with keywords device= and dtype=."""
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, (_device.device, str)) or a is None:
            device = a
        else:
            dtype = a
    if isinstance(device, str):
        device = _device.device(device)
    return device, (_dtype(dtype) if dtype is not None else None)


# ---- in place, without autograd

def random_fill(t, kind, a, b, generator):
    """t = uniform in [a, b) (kind "uniform") or normal (a, b^2): from clrt's stream on
    the device, or on the host from generator's."""
    with no_grad():
        if generator is None:
            return t.uniform_(a, b) if kind == "uniform" else t.normal_(a, b)
        rng = host_rng(generator)
        shape = tuple(t.shape)
        write(t, rng.uniform(a, b, shape) if kind == "uniform" else rng.normal(a, b, shape))
    return t


def write(t, array):
    """t's values = the host array (converted to t's dtype), as one transfer."""
    with no_grad():
        t.copy_(_create.tensor(np.asarray(array), dtype=t.dtype, device=t.device))


def fill(t, value):
    with no_grad():
        t.fill_(value)


def clear_grad(p, set_to_none):
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
    else:
        if p.grad.grad_fn is not None:
            p.grad.detach_()
        else:
            p.grad.requires_grad_(False)
        p.grad.zero_()


def replace_data(p, fn):
    """p's data = fn(p's data), the Parameter object kept (Module.to, float, double)."""
    with no_grad():
        new = fn(p.detach())
    if new is not None and (new.device != p.device or new.dtype != p.dtype):
        p.data = new
        if p.grad is not None:
            with no_grad():
                p.grad = fn(p.grad)


def load_source(key, value, target):
    """(problem, source): value as the source for target's values, or why it cannot be."""
    if isinstance(value, Tensor):
        shape = tuple(value.shape)
    elif is_tensor_like(value) or isinstance(value, np.ndarray):
        value = np.asarray(value)
        shape = value.shape
    else:
        return (f'While copying the parameter named "{key}", expected clrt.Tensor, a numpy '
                f'array or a Tensor-like object from checkpoint but received {type(value)}',
                None)
    if shape != tuple(target.shape):
        return (f"size mismatch for {key}: copying a param with shape "
                f"{Size(shape)} from checkpoint, the shape in current model is "
                f"{Size(tuple(target.shape))}.", None)
    return None, value


def copy_into(target, source):
    with no_grad():
        if isinstance(source, Tensor):
            if source.device != target.device:
                source = source.to(target.device)
            target.copy_(source)
        else:
            target.copy_(_create.tensor(source, dtype=target.dtype, device=target.device))


def as_state_tensor(v, p):
    """An optimizer's loaded state tensor: a copy (the loading optimizer's own, as
    PyTorch's deep copy of the state dict), on p's device, in p's dtype when floating."""
    if isinstance(v, Tensor):
        t = v.detach()
        t = t.to(p.device) if t.device != p.device else t.clone()
    else:
        t = _create.tensor(np.asarray(v), device=p.device)
    if t.is_floating_point() and t.dtype != p.dtype:
        t = t.to(p.dtype)
    return t.contiguous()  # as the step's kernels take it (a strided source's clone is not)


# ---- random numbers on the host (orders, splits)

def host_rng(generator=None):
    """A numpy Generator for one draw (an order, a split, a fill) from clrt's stream
    (clrt.manual_seed repeats the draws), or from generator's: an object with
    next_counter(n) (clrt's stream's form) or with initial_seed() (a seed; its draws
    are counted on it, so that each is new and manual_seed on it restarts them)."""
    if generator is None:
        seed, counter = _random.next_counter(1)
    elif hasattr(generator, "next_counter"):
        seed, counter = generator.next_counter(1)
    else:
        seed = int(generator.initial_seed())
        last_seed, counter = getattr(generator, "_clrt_draws", (seed, 0))
        counter = counter if last_seed == seed else 0
        generator._clrt_draws = (seed, counter + 1)
    return np.random.default_rng([seed & (2 ** 64 - 1), counter])


# ---- the optimizers' kernels

def check_step_operands(who, p, g):
    """g, or a contiguous copy of it, after checking it fits p (RuntimeError, TypeError).
    The quick answer (g as it is) is for a floating-point p alone: an integer p with a
    gradient laid out as it would otherwise reach a float kernel."""
    if same_layout(g, p) and p.is_contiguous() and p.dtype.is_floating_point:
        return g
    if g.shape != p.shape:
        raise RuntimeError(f"{who}: the gradient of a parameter of shape {tuple(p.shape)} has "
                           f"shape {tuple(g.shape)}")
    if g.dtype != p.dtype:
        raise TypeError(f"{who}: the gradient is {g.dtype} and the parameter {p.dtype}")
    if g.device != p.device:
        raise RuntimeError(f"{who}: the gradient is on {g.device} and the parameter on "
                           f"{p.device}")
    if not p.is_floating_point():
        raise TypeError(f"{who}: a {p.dtype} parameter; optimizers update floating-point ones")
    if not p.is_contiguous():
        raise RuntimeError(f"{who}: a non-contiguous parameter (of shape {tuple(p.shape)}); "
                           "optimizers update parameters in place, in order")
    return g if g.is_contiguous() else g.contiguous()


def storage(t):
    """(storage object, its clrt_buffer handle, t's element offset in it) of a tensor the
    caller knows contiguous, for a kernel argument (a kernel takes whole buffers)."""
    st = t._st
    return st, st.handle("optimizer step"), t._offset


def layout_key(t):
    """What a kept handle of t depends on: its storage (and that storage's handle), its
    layout and dtype."""
    return (t._st, t._st.ptr, t._shape, t._stride, t._offset, t.dtype)


def same_layout(g, p):
    """Whether the gradient g is laid out as the (contiguous) parameter p, on its device."""
    return g._shape == p._shape and g._stride == p._stride and g.dtype is p.dtype and \
        g._st.ctx is p._st.ctx


def check_state(who, p, state):
    """Every tensor of a parameter's optimizer state on the parameter's device (PyTorch
    raises the same RuntimeError for a model moved after its optimizer was made), and
    laid out as the parameter (a loaded or assigned state of another shape or dtype
    would be read and written past its end by the step's kernel)."""
    for name, t in state.items():
        if not isinstance(t, Tensor):
            continue
        if t._st.ctx is not p._st.ctx:
            raise RuntimeError(f"{who}: Expected all tensors to be on the same device: the "
                               f"parameter is on {p.device} and its {name} on {t.device} "
                               "(move the model before making its optimizer)")
        if t._shape != p._shape or t.dtype is not p.dtype or not t.is_contiguous():
            raise RuntimeError(f"{who}: the state {name} of a parameter of shape "
                               f"{tuple(p.shape)} and dtype {p.dtype} is a "
                               f"{'' if t.is_contiguous() else 'non-contiguous '}tensor of "
                               f"shape {tuple(t.shape)} and dtype {t.dtype}")


def handle(t):
    """The clrt_buffer handle of a contiguous tensor as its matrix (the library's calls)."""
    return t._handle("optimizer step")


def bump_version(t):
    t._bump_version()
