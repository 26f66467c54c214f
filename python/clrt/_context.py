"""Devices, contexts and the default context.

A Context is one device, one in-order queue, and everything made on it. It owns
the handles of its arrays, programs and kernels: close() destroys them all
(newest first) before the context itself, so the library never sees a context
destroyed under live children, and any later use of them raises clrt.Error.
"""
import atexit
import ctypes
import dataclasses
import threading
import weakref

from . import _errors
from ._lib import DeviceInfo, check, lib


@dataclasses.dataclass(frozen=True)
class Device:
    """One OpenCL device, as clrt-info lists it (clrt_device_info)."""
    index: int
    platform_index: int
    device_index: int
    type: str  # "cpu", "gpu", "accelerator", "other"
    name: str
    vendor: str
    platform: str
    driver: str
    compute_units: int
    global_mem: int
    max_alloc: int
    local_mem: int
    max_work_group: int
    has_fp64: bool
    is_emulator: bool

    @classmethod
    def _from(cls, info):
        return cls(info.index, info.platform_index, info.device_index,
                   lib.clrt_device_type_name(info.type).decode(), info.name.decode(errors="replace"),
                   info.vendor.decode(errors="replace"), info.platform.decode(errors="replace"),
                   info.driver.decode(errors="replace"), info.compute_units, info.global_mem,
                   info.max_alloc, info.local_mem, info.max_work_group, bool(info.has_fp64),
                   bool(lib.clrt_device_is_emulator(ctypes.byref(info))))


def devices():
    """Every device of every OpenCL platform, in clrt's index order (selector "N")."""
    count = ctypes.c_size_t(0)
    check(lib.clrt_device_list(None, 0, ctypes.byref(count)))
    infos = (DeviceInfo * max(count.value, 1))()
    check(lib.clrt_device_list(infos, count.value, ctypes.byref(count)))
    return [Device._from(infos[i]) for i in range(count.value)]


class Context:
    """A device and its queue. Context(selector=None): None or "" means $CLRT_DEVICE,
    else clrt's default ranking (GPU, accelerator, CPU); otherwise a selector as
    clrt-info documents it: "N", "P:D", "gpu"/"cpu"/"accelerator" or part of a name."""

    def __init__(self, selector=None):
        if selector is not None and not isinstance(selector, str):
            raise _errors.refuse(_errors.EINVAL, f"clrt.Context: selector must be a str or None, "
                                                 f"not {type(selector).__name__}")
        if selector and "\x00" in selector:
            raise _errors.value_error(f"clrt.Context: selector {selector!r} holds a NUL byte")
        ctx, q = ctypes.c_void_p(), ctypes.c_void_p()
        check(lib.clrt_context_create(ctypes.byref(ctx), selector.encode() if selector else None))
        status = lib.clrt_queue_create(ctypes.byref(q), ctx)
        if status != 0:
            err = _error_now(status)
            lib.clrt_context_destroy(ctx)
            raise err
        self._ctx, self._q = ctx, q
        # id -> (weakref, handle, destroy function) of every array, program and kernel, in
        # creation order: the handle is kept beside the weakref because an object collected
        # in one reference cycle with its context is unreachable by its weakref when the
        # context's close() runs, and its handle must still be destroyed before the context
        self._owned = {}
        self._pool, self._pool_bytes = {}, 0  # freed buffers kept for reuse (_buffer.py)
        self._scalars = {}  # (dtype, value) -> 1-element tensor holding it (a op scalar)
        self._klock = threading.Lock()  # the binding's kernels: arguments and launch (_strided)
        info = DeviceInfo()
        check(lib.clrt_context_device(ctx, ctypes.byref(info)))
        self.device = Device._from(info)
        _live.add(self)

    # -- the handles the binding passes to C
    def _handles(self, who):
        if self._ctx is None:
            raise _errors.refuse(_errors.EINVAL, f"{who}: the context was closed")
        return self._ctx, self._q

    def _adopt(self, obj):
        self._owned[id(obj)] = (weakref.ref(obj), obj.ptr, type(obj)._destroy)

    def _forget(self, obj):
        self._owned.pop(id(obj), None)

    @property
    def closed(self):
        return self._ctx is None

    def finish(self):
        """Wait for every operation enqueued on this context's queue."""
        _, q = self._handles("Context.finish")
        check(lib.clrt_queue_finish(q))

    def close(self):
        """Destroy every array, program and kernel of this context, then the context.
        Using any of them afterwards raises clrt.Error. Closing twice is a no-op."""
        if self._ctx is None:
            return
        self._scalars.clear()
        owned = list(self._owned.values())
        self._owned.clear()
        for ref, ptr, destroy in reversed(owned):
            obj = ref()
            if obj is not None:
                obj._release()
            else:
                destroy(ptr)  # collected in a cycle with this context: its __del__ skips it
        self.trim()
        ctx, q = self._ctx, self._q
        self._ctx = self._q = None
        lib.clrt_queue_destroy(q)
        lib.clrt_context_destroy(ctx)

    def __del__(self):
        if getattr(self, "_ctx", None) is not None:
            self.close()

    def trim(self):
        """Free the device memory of arrays already gone that the pool kept for reuse."""
        pool, self._pool, self._pool_bytes = self._pool, {}, 0
        for ptrs in pool.values():
            for ptr in ptrs:
                lib.clrt_buffer_destroy(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "closed" if self._ctx is None else self.device.name
        return f"<clrt.Context {state}>"

    # -- conveniences that mirror the module functions with ctx=self
    def to_device(self, array):
        from ._array import to_device
        return to_device(array, ctx=self)

    def empty(self, shape, dtype=None):
        from ._array import empty
        import numpy as np
        return empty(shape, np.float32 if dtype is None else dtype, ctx=self)

    def program(self, source, options=None):
        """Compile OpenCL C source for this context's device (cached per context). options (build
        options, "-DN=4") are checked before the driver sees them: what some driver crashes the
        process on (a -D without its word, a quote left open, ...) raises clrt.Error
        CLRT_EINVAL naming the option (docs/drivers.md)."""
        from ._kernel import Program
        return Program(self, source, options)


def _error_now(status):
    return _errors.Error(status, lib.clrt_status_name(status).decode(),
                         lib.clrt_error_message().decode(errors="replace"))


_live = weakref.WeakSet()


def _close_all():
    """Close every context still open (its arrays first)."""
    for ctx in list(_live):
        ctx.close()


@atexit.register
def _close_at_exit():
    """At exit, every context still open is closed, so that nothing is left for the driver
    to tear down behind the library's back; first, calls other threads (daemons still
    computing) have in the library finish, and their later calls never start (_lib)."""
    from ._lib import begin_exit
    begin_exit()
    _close_all()


_default = None
_default_lock = threading.Lock()


def default_context():
    """The context module functions use without ctx=: made on first use with
    selector None, so $CLRT_DEVICE is honoured; made again if it was closed."""
    global _default
    with _default_lock:
        if _default is None or _default.closed:
            _default = Context(None)
        return _default


def resolve(ctx):
    return default_context() if ctx is None else ctx
