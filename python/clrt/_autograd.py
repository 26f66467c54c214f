"""Autograd: the graph recorded as operations run, and backward() through it.

Each differentiable operation whose inputs require grad gives its output a Node
(tensor.grad_fn): the function that maps the gradient of the output to those of the
inputs, the Nodes of the inputs (next), and the tensors it saved with their versions.
A leaf that requires grad (a parameter) is reached through its AccumulateGrad, which
adds what arrives into tensor.grad. backward() runs the Nodes in dependency order
(each once, after every gradient for it has arrived), on the device (_ops), with the
graph not recorded; the Nodes' functions and saved tensors are freed after it unless
retain_graph=True, and a second backward through them is a RuntimeError as PyTorch's.
A saved tensor changed in place since it was saved (its version counter moved) is a
RuntimeError naming it, not a wrong gradient.

Grad mode is per thread (no_grad, enable_grad, set_grad_enabled), as PyTorch's.
"""
import functools
import threading
import weakref

from . import _errors

_mode = threading.local()


def is_grad_enabled():
    return getattr(_mode, "enabled", True)


def _set_enabled(flag):
    _mode.enabled = bool(flag)


class _GradMode:
    """A context manager and decorator that sets grad mode and restores it."""
    _flag = True

    def __enter__(self):
        self._prev = is_grad_enabled()
        _set_enabled(self._flag)
        return self

    def __exit__(self, *exc):
        _set_enabled(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """Operations inside record no graph (PyTorch's torch.no_grad): evaluation, and
    updates of parameters in place."""
    _flag = False


class enable_grad(_GradMode):
    _flag = True


class inference_mode(no_grad):
    """PyTorch's inference_mode: here the same as no_grad."""

    def __init__(self, mode=True):
        self._flag = not mode

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(not self._flag):
                return fn(*args, **kwargs)
        return wrapper


class set_grad_enabled(_GradMode):
    """set_grad_enabled(False) turns grad mode off now; as a context manager, restores it."""

    def __init__(self, mode):
        self._prev = is_grad_enabled()
        self._flag = bool(mode)
        _set_enabled(mode)

    def __enter__(self):
        return self

    def __call__(self, fn):
        flag = self._flag
        _set_enabled(self._prev)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = is_grad_enabled()
            _set_enabled(flag)
            try:
                return fn(*args, **kwargs)
            finally:
                _set_enabled(prev)
        return wrapper


class Node:
    """One recorded operation: grad_fn of its output."""

    __slots__ = ("_name", "fn", "next_functions_", "saved", "retained", "hooks", "__weakref__")

    def __init__(self, name, fn, inputs, saved):
        self._name, self.fn = name, fn
        self.next_functions_ = [edge(t) for t in inputs]
        self.saved = [(s, s._ver[0]) for s in saved]
        self.retained = None  # a weakref to the output when retain_grad() asked for its grad
        self.hooks = None

    def name(self):
        return self._name

    @property
    def next_functions(self):
        return tuple((n, 0) for n in self.next_functions_)

    def __repr__(self):
        return f"<{self._name} object>"


class AccumulateGrad:
    """The end of the graph at a leaf that requires grad: adds into tensor.grad."""

    __slots__ = ("variable_ref", "__weakref__")

    def __init__(self, t):
        self.variable_ref = weakref.ref(t)

    @property
    def variable(self):
        return self.variable_ref()

    def name(self):
        return "torch::autograd::AccumulateGrad"

    next_functions = ()

    def __repr__(self):
        return "<AccumulateGrad object>"


def edge(t):
    """The node a gradient for input t goes to: its grad_fn, its AccumulateGrad, or None."""
    from ._tensor import Tensor
    if not isinstance(t, Tensor) or not t._rg:
        return None
    if t.grad_fn is not None:
        return t.grad_fn
    if t._acc is None:
        t._acc = AccumulateGrad(t)
    return t._acc


def record(name, out, inputs, backward, saved=()):
    """Give out a Node when grad mode is on and an input requires grad; returns out.
    backward(grad) returns one gradient (or None) per input."""
    if not is_grad_enabled():
        return out
    for t in inputs:
        if getattr(t, "_rg", False):  # a tensor that requires grad (scalars have no _rg)
            break
    else:
        return out
    out.grad_fn = Node(name, backward, inputs, saved)
    out._rg = True
    return out


def _freed_error():
    return _errors.runtime_error(
        "Trying to backward through the graph a second time (or directly access saved tensors "
        "after they have already been freed). Saved intermediate values of the graph are freed "
        "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
        "backward through the graph a second time or if you need to access saved tensors after "
        "calling backward.")


def _check_saved(node):
    for i, (t, version) in enumerate(node.saved):
        if t._ver[0] != version:
            shape = "x".join(map(str, t._shape)) or "scalar"
            raise _errors.runtime_error(
                f"one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [clrt.{t.dtype.name} [{shape}]], which is saved tensor {i} "
                f"of {node._name}; is at version {t._ver[0]}; expected version {version} "
                "instead.")


def _order(roots):
    """Every node reachable from roots, and how many gradients each waits for."""
    deps, seen, stack = {}, set(), [n for n in roots if n is not None]
    for n in stack:
        seen.add(id(n))
    while stack:
        n = stack.pop()
        for m in getattr(n, "next_functions_", ()):
            if m is None:
                continue
            deps[id(m)] = deps.get(id(m), 0) + 1
            if id(m) not in seen:
                seen.add(id(m))
                stack.append(m)
    return deps


def _add(acc, key, g):
    from . import _ops
    old = acc.get(key)
    acc[key] = g if old is None else _ops.binary(1, old, g, who="autograd: adding gradients")


def _accumulate(t, g, fresh):
    """t.grad += g (t.grad = g, or a copy of it, the first time)."""
    from . import _ops
    from ._math import sum_to
    if t._hooks:
        for h in t._hooks:
            r = h(g)
            g = r if r is not None else g
    g = sum_to(g, t._shape)
    if g.dtype is not t.dtype:
        g = _ops.cast(g, t.dtype)
    if t.grad is None:
        if not fresh(g) or not g.is_contiguous() or g._shape != t._shape:
            g = _ops.contiguous(g, force=True)
        fresh.mark(g)
        t.grad = g
    else:
        _ops.binary(1, t.grad, g, out=t.grad, who="autograd: accumulating .grad")
        t.grad._bump_version()


class _Fresh:
    """Which gradient tensors may become a .grad as they are: not the one given to
    backward(), not one handed to another leaf already (their memory would be shared)."""

    def __init__(self, roots):
        self.used = {id(g._st) for g in roots}

    def __call__(self, g):
        return id(g._st) not in self.used

    def mark(self, g):
        self.used.add(id(g._st))


def run_backward(tensors, grads, retain_graph):
    """Backpropagate grads (one per tensor) through the graph into the leaves' .grad."""
    from . import _ops
    fresh = _Fresh(grads)
    acc, roots = {}, []
    for t, g in zip(tensors, grads):
        node = edge(t)
        if node is None:
            raise _errors.runtime_error("element 0 of tensors does not require grad and does "
                                        "not have a grad_fn")
        roots.append(node)
        _add(acc, id(node), g)
    deps = _order(roots)
    ready = [n for n in dict.fromkeys(roots) if deps.get(id(n), 0) == 0]
    with no_grad():
        while ready:
            node = ready.pop()
            g = acc.pop(id(node), None)
            if isinstance(node, AccumulateGrad):
                t = node.variable
                if t is not None and g is not None:
                    _accumulate(t, g, fresh)
                continue
            if node.fn is None:
                raise _freed_error()
            _check_saved(node)
            if node.hooks:
                for h in node.hooks:
                    r = h(g)
                    g = r if r is not None else g
            if node.retained is not None:
                out = node.retained()
                if out is not None and g is not None:
                    out.grad = _ops.clone(g) if out.grad is None else _ops.binary(1, out.grad, g)
            grads_in = node.fn(g) if g is not None else [None] * len(node.next_functions_)
            if not retain_graph:
                node.fn, node.saved = None, []
            for nxt, gi in zip(node.next_functions_, grads_in):
                if nxt is None:
                    continue
                if gi is not None:
                    _add(acc, id(nxt), gi)
                deps[id(nxt)] -= 1
                if deps[id(nxt)] == 0:
                    ready.append(nxt)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward: the gradients of tensors (with grad_tensors, or 1 for
    scalars) accumulated into the leaves' .grad."""
    from ._tensor import Tensor
    from . import _create
    if create_graph:
        raise _errors.runtime_error("clrt: create_graph=True (higher-order gradients) is not "
                                    "supported")
    if inputs is not None:
        raise _errors.runtime_error("clrt: backward(inputs=...) is not supported")
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is None or isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors] * len(tensors) if grad_tensors is None else [grad_tensors]
    grads = []
    for t, g in zip(tensors, grad_tensors):
        if not t._rg:
            raise _errors.runtime_error("element 0 of tensors does not require grad and does "
                                        "not have a grad_fn")
        if g is None:
            if t.numel() != 1:
                raise _errors.runtime_error("grad can be implicitly created only for scalar "
                                            f"outputs (this tensor has shape {t._shape})")
            g = _create.ones_like(t)
        elif not isinstance(g, Tensor):
            g = _create.tensor(g, dtype=t.dtype, device=t.device)
        elif g._shape != t._shape:
            raise _errors.shape_error(f"Mismatch in shape: grad_output[0] has a shape of "
                                      f"{g._shape} and output[0] has a shape of {t._shape}.")
        grads.append(g)
    run_backward(tensors, grads, bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=False):
    """torch.autograd.grad: the gradients of outputs with respect to inputs, returned (the
    inputs' .grad left as they were)."""
    from ._tensor import Tensor
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    saved = [(t, t.grad) for t in inputs]
    for t in inputs:
        t.grad = None
    try:
        backward(outputs, grad_outputs, retain_graph, create_graph)
        result = tuple(t.grad for t in inputs)
    finally:
        for t, g in saved:
            t.grad = g
    if not allow_unused and any(r is None for r in result):
        raise _errors.runtime_error("One of the differentiated Tensors appears to not have been "
                                    "used in the graph. Set allow_unused=True if this is the "
                                    "desired behavior.")
    return result
