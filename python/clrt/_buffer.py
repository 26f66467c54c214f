"""_Buffer: one clrt_buffer handle (a matrix or a view of one) and who owns it.

Arrays share a _Buffer when they are the same memory seen two ways (a and a.T).
The buffer is destroyed when the last Array using it goes, when close() is
called on one of them, or when its context closes; after that every use raises
clrt.Error instead of passing a freed handle to C.
"""
import ctypes
import weakref

import numpy as np

from . import _errors
from ._lib import check, lib

DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3}


class _Buffer:
    __slots__ = ("ptr", "rows", "cols", "ctx", "dtype", "is_view", "__weakref__")

    def __init__(self, ctx, ptr, rows, cols, dtype, is_view=False):
        self.ptr, self.rows, self.cols, self.ctx, self.dtype = ptr, rows, cols, ctx, dtype
        self.is_view = is_view
        ctx._owned[id(self)] = weakref.ref(self)

    def handle(self, who):
        if self.ptr is None:
            why = "its context was closed" if self.ctx.closed else "it was closed"
            raise _errors.refuse(_errors.EINVAL, f"{who}: array used after {why}")
        return self.ptr

    def _release(self):
        ptr, self.ptr = self.ptr, None
        if ptr is not None:
            self.ctx._owned.pop(id(self), None)
            lib.clrt_buffer_destroy(ptr)

    def __del__(self):
        if self.ptr is not None:
            self._release()


def new(ctx, rows, cols, dtype, who):
    """A fresh rows x cols buffer of dtype on ctx."""
    code = DTYPES.get(dtype)
    if code is None:
        raise _errors.refuse(_errors.EINVAL, f"{who}: dtype {dtype} is not one clrt holds "
                                             "(float32, float64, int32)")
        # (the library would say CLRT_EINVAL for an unknown dtype too)
    c, _ = ctx._handles(who)
    out = ctypes.c_void_p()
    check(lib.clrt_buffer_create(ctypes.byref(out), c, code, rows, cols))
    return _Buffer(ctx, out.value, rows, cols, dtype)


def view(parent, row, col, rows, cols, who):
    out = ctypes.c_void_p()
    check(lib.clrt_buffer_view(ctypes.byref(out), parent.handle(who), row, col, rows, cols))
    return _Buffer(parent.ctx, out.value, rows, cols, parent.dtype, is_view=True)
