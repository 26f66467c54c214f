"""User kernels: ctx.program(source).kernel("name"), launched like the article's Numba kernel.

    k = ctx.program(src).kernel("add")
    k(x, y, out, np.int32(n), global_size=n, local_size=64)   # or
    k[n, 64](x, y, out, np.int32(n))                            # Numba-style [global, local]

Arguments: clrt arrays (whole buffers, not views: a view would reach the kernel as its
parent's memory) for __global pointers, numpy scalars (np.int32, np.float32, ...: the
OpenCL C type is explicit) for values, clrt.LocalMemory(nbytes) for __local pointers.
"""
import ctypes
import numbers

import numpy as np

from . import _errors
from ._lib import check, lib
from ._tensor import Tensor

# What a launch size must be before ctypes makes it a size_t (which wraps: -1 would be
# 2**64-1 work-items, 2**64+64 would be 64).
_MAX_SIZE = 2 ** 63 - 1


def c_string(value, who, what):
    """value (str or bytes) as bytes for C, refusing a NUL byte (C would stop there)."""
    if isinstance(value, str):
        value = value.encode()
    elif not isinstance(value, (bytes, bytearray)):
        raise _errors.type_error(f"{who}: {what} must be a str or bytes, not "
                                 f"{type(value).__name__}")
    if b"\x00" in value:
        raise _errors.value_error(f"{who}: {what} holds a NUL byte at {value.index(0)} (C would "
                                  "stop reading there)")
    return bytes(value)


class LocalMemory:
    """A __local pointer argument: nbytes of local memory per work-group."""

    def __init__(self, nbytes):
        if isinstance(nbytes, (bool, np.bool_)) or not isinstance(nbytes, (numbers.Integral,
                                                                           np.integer)):
            raise _errors.type_error(f"clrt.LocalMemory: nbytes must be an int, not "
                                     f"{type(nbytes).__name__} {nbytes!r}")
        if not 1 <= nbytes <= _MAX_SIZE:  # checked before ctypes makes it a size_t
            raise _errors.value_error(f"clrt.LocalMemory: nbytes {nbytes} is not 1 to 2**63-1")
        self.nbytes = int(nbytes)


class _Handle:
    """A program or kernel handle owned by its context (closed with it)."""
    _destroy = None

    def __init__(self, ctx, ptr):
        self.ctx, self.ptr = ctx, ptr
        ctx._adopt(self)

    def handle(self, who):
        if self.ptr is None:
            why = "its context was closed" if self.ctx.closed else "it was closed"
            raise _errors.refuse(_errors.EINVAL, f"{who}: used after {why}")
        return self.ptr

    def _release(self):
        ptr, self.ptr = self.ptr, None
        if ptr is not None:
            self.ctx._forget(self)
            type(self)._destroy(ptr)

    close = _release

    def __del__(self):
        if getattr(self, "ptr", None) is not None:
            if self.ctx.closed:  # destroyed by the context's close(), as _buffer.py says
                self.ptr = None
                return
            self._release()


class Program(_Handle):
    """OpenCL C source compiled for a context's device; a build failure raises clrt.Error
    (CLRT_EBUILD) with the driver's build log in its message."""
    _destroy = lib.clrt_program_destroy

    def __init__(self, ctx, source, options=None):
        c, _ = ctx._handles("Context.program")
        out = ctypes.c_void_p()
        src = c_string(source, "Context.program", "source")
        opts = c_string(options, "Context.program", "options") if options else None
        check(lib.clrt_program_create(ctypes.byref(out), c, src, opts))
        super().__init__(ctx, out.value)

    def kernel(self, name):
        return Kernel(self, name)


def _as_sizes(x, who, what):
    if x is None:
        return None
    t = (x,) if isinstance(x, (numbers.Integral, np.integer)) else tuple(x)
    if not 1 <= len(t) <= 3:
        raise _errors.refuse(_errors.EINVAL, f"{who}: {what} has {len(t)} dimensions (1 to 3)")
    for n in t:
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (numbers.Integral, np.integer)):
            raise _errors.type_error(f"{who}: {what} {x!r} holds {type(n).__name__} {n!r}, not "
                                     "an int")
        if not 1 <= n <= _MAX_SIZE:
            raise _errors.value_error(f"{who}: {what} {x!r} holds {n}: sizes are 1 to 2**63-1")
    return tuple(int(n) for n in t)


class Kernel(_Handle):
    """One __kernel of a Program. Call it with its arguments and global_size (local_size
    optional: the driver chooses); rounded=True rounds global_size up to a multiple of
    local_size (the kernel must then skip the extra work-items)."""
    _destroy = lib.clrt_kernel_destroy

    def __init__(self, program, name):
        out = ctypes.c_void_p()
        check(lib.clrt_kernel_create(ctypes.byref(out), program.handle("Program.kernel"),
                                     c_string(name, "Program.kernel", "name")))
        self.name = name
        super().__init__(program.ctx, out.value)
        self.num_args = lib.clrt_kernel_num_args(self.ptr)

    @property
    def work_group_size(self):
        """The largest work-group (product of local sizes) this kernel can run with here."""
        return lib.clrt_kernel_work_group_size(self.handle(f"kernel {self.name}"))

    def __getitem__(self, launch):
        """k[global_size, local_size](args...): the Numba-style launch."""
        g, l = launch if isinstance(launch, tuple) and len(launch) == 2 else (launch, None)
        return lambda *args: self(*args, global_size=g, local_size=l)

    def __call__(self, *args, global_size, local_size=None, rounded=False):
        who = f"kernel {self.name}"
        h = self.handle(who)
        if len(args) != self.num_args:
            raise _errors.refuse(_errors.EINVAL, f"{who}: takes {self.num_args} arguments, "
                                                 f"got {len(args)}")
        for i, x in enumerate(args):
            self._set(h, i, x, who)
        g = _as_sizes(global_size, who, "global_size")
        l = _as_sizes(local_size, who, "local_size")
        if l is not None and len(l) != len(g):
            raise _errors.refuse(_errors.EINVAL, f"{who}: global_size {g} and local_size {l} "
                                                 "differ in dimensions")
        gs = (ctypes.c_size_t * len(g))(*g)
        ls = (ctypes.c_size_t * len(l))(*l) if l is not None else None
        launch = lib.clrt_kernel_launch_rounded if rounded else lib.clrt_kernel_launch
        check(launch(self.ctx._handles(who)[1], h, len(g), gs, ls))

    def _set(self, h, i, x, who):
        if isinstance(x, Tensor):
            if x._st.ctx is not self.ctx:
                raise _errors.refuse(_errors.EINVAL, f"{who}: argument {i} is an array of "
                                                     "another context")
            if x.is_view:
                raise _errors.refuse(_errors.EINVAL, f"{who}: argument {i} is a view; kernels "
                                                     "take whole arrays (pass view.copy())")
            check(lib.clrt_kernel_set_buffer(h, i, x._st.handle(who)))
        elif isinstance(x, LocalMemory):
            check(lib.clrt_kernel_set_local(h, i, x.nbytes))
        elif isinstance(x, np.generic) and x.dtype.kind in "biuf":
            v = np.array(x)
            check(lib.clrt_kernel_set_scalar(h, i, v.nbytes, v.ctypes.data))
        elif isinstance(x, (numbers.Number, np.ndarray)):
            raise _errors.refuse(_errors.EINVAL, f"{who}: argument {i} is {type(x).__name__} "
                                                 f"{x!r}: pass a numpy scalar of the kernel's "
                                                 "type (np.int32, np.uint32, np.float32, ...) "
                                                 "or a clrt array")
        else:
            raise _errors.refuse(_errors.EINVAL, f"{who}: argument {i} of type "
                                                 f"{type(x).__name__} is not a clrt array, a "
                                                 "numpy scalar or clrt.LocalMemory")
