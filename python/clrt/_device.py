"""clrt.device: where tensors live (PyTorch's torch.device), one OpenCL device.

clrt.device() is the default device (the default context; $CLRT_DEVICE honoured);
clrt.device("gpu"), clrt.device("1"), clrt.device("0:1") or part of a name select as
CLRT_DEVICE does. Each device is one clrt.Context, made on first use and shared by every
tensor on it: tensor.to(device) copies between contexts (through the host), and
within one context returns the tensor itself.
"""
import threading

from . import _context, _errors

_contexts = {}  # device index -> Context (besides the default one)
_lock = threading.Lock()


class device:
    """A clrt device: device(selector=None), or a Context's device."""

    __slots__ = ("_ctx", "_selector")

    def __init__(self, selector=None, index=None):
        if isinstance(selector, device):
            self._ctx, self._selector = selector._ctx, selector._selector
            return
        if isinstance(selector, _context.Context):
            self._ctx, self._selector = selector, None
            return
        if selector is not None and not isinstance(selector, str):
            if isinstance(selector, int) and not isinstance(selector, bool):
                selector = str(selector)
            else:
                raise _errors.type_error(f"clrt.device: selector must be a str, an int or None, "
                                         f"not {type(selector).__name__}")
        if index is not None:
            selector = f"{selector}:{index}" if selector else str(index)
        self._selector = selector
        self._ctx = None if selector else _context.default_context()
        if selector:
            self._ctx = _context_for(selector)

    @property
    def context(self):
        if self._ctx.closed:
            self._ctx = _context_for(self._selector) if self._selector else \
                _context.default_context()
        return self._ctx

    @property
    def type(self):
        return self.context.device.type

    @property
    def index(self):
        return self.context.device.index

    @property
    def name(self):
        return self.context.device.name

    def __eq__(self, other):
        return isinstance(other, device) and other.context is self.context

    def __hash__(self):
        return id(self.context)

    def __repr__(self):
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return f"{self.type}:{self.index}"


def _context_for(selector):
    """The context of the device selector names: the default context when it is that
    device, else one kept per device."""
    from ._lib import lib, DeviceInfo, check
    import ctypes
    if "\x00" in selector:
        raise _errors.value_error(f"clrt.device: selector {selector!r} holds a NUL byte")
    info = DeviceInfo()
    check(lib.clrt_device_select(selector.encode(), ctypes.byref(info)))
    with _lock:
        d = _context.default_context()
        if d.device.index == info.index:
            return d
        c = _contexts.get(info.index)
        if c is None or c.closed:
            c = _context.Context(str(info.index))
            _contexts[info.index] = c
        return c


def device_of(ctx):
    return device(ctx)


def context_of(dev):
    """The Context of a device, a selector string, or a Context."""
    if isinstance(dev, _context.Context):
        return dev
    if isinstance(dev, device):
        return dev.context
    return device(dev).context
