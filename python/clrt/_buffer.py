"""_Buffer: one clrt_buffer handle (a matrix or a view of one) and who owns it.

Arrays share a _Buffer when they are the same memory seen two ways (a and a.T).
The buffer is given up when the last Array using it goes, when close() is
called on one of them, or when its context closes; after that every use raises
clrt.Error instead of passing a freed handle to C.

Given up by going out of scope, a whole (non-view) buffer is kept in its
context's pool for the next buffer of the same rows, cols and dtype (up to
POOL_BYTES per context), as PyOpenCL's and CuPy's memory pools do: creating
device memory costs far more than the operations that fill it (POCL: 42 ms
for 64 MiB against 10 ms for the add writing it), so `c = a + b` in a loop
would otherwise be allocation-bound. The context's queue is in order, so the
next user of a pooled buffer runs after every operation of the last one.
A view or a reshape holds its whole buffer, so that memory reaches the pool
only once no view of it is left (else the next new array would write over
the view's values). close() and Context.close() free at once; Context.trim()
empties the pool.
"""
import ctypes
import weakref

import numpy as np

from . import _errors
from ._lib import check, lib

POOL_BYTES = 1 << 30
DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3}


class _Buffer:
    __slots__ = ("ptr", "rows", "cols", "ld", "ctx", "dtype", "is_view", "base", "__weakref__")

    def __init__(self, ctx, ptr, rows, cols, dtype, is_view=False, ld=None, base=None):
        self.ptr, self.rows, self.cols, self.ctx, self.dtype = ptr, rows, cols, ctx, dtype
        self.is_view = is_view
        # a view's or reshape's whole buffer: held so that it goes to the pool (and to the
        # next new array) only once no view of its memory is left
        self.base = base
        # elements from a row to the next, as the library keeps it: the parent's for a
        # view, cols for a buffer or a reshape; rows == 1 or ld == cols is one run of memory
        self.ld = cols if ld is None else ld
        ctx._owned[id(self)] = (weakref.ref(self), ptr, lib.clrt_buffer_destroy)

    @property
    def one_run(self):
        """Whether the elements, row after row, are one run of memory (what a reshape needs)."""
        return self.rows == 1 or self.ld == self.cols

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
        ptr = self.ptr
        if ptr is None:
            return
        ctx = self.ctx
        if ctx._ctx is None:
            # the context was closed while this buffer was unreachable (both in one reference
            # cycle): close() destroyed the handle through its record, not through us
            self.ptr = None
            return
        nbytes = self.rows * self.cols * self.dtype.itemsize
        if self.is_view or ctx._ctx is None or ctx._pool_bytes + nbytes > POOL_BYTES:
            self._release()
            return
        self.ptr = None
        ctx._owned.pop(id(self), None)
        ctx._pool.setdefault((self.rows, self.cols, self.dtype), []).append(ptr)
        ctx._pool_bytes += nbytes


def new(ctx, rows, cols, dtype, who):
    """A fresh rows x cols buffer of dtype on ctx."""
    code = DTYPES.get(dtype)
    if code is None:
        raise _errors.refuse(_errors.EINVAL, f"{who}: dtype {dtype} is not one clrt holds "
                                             "(float32, float64, int32)")
        # (the library would say CLRT_EINVAL for an unknown dtype too)
    c, _ = ctx._handles(who)
    free = ctx._pool.get((rows, cols, dtype))
    if free:
        try:
            ptr = free.pop()  # another thread may have taken the last one since
        except IndexError:
            ptr = None
        if ptr is not None:
            ctx._pool_bytes -= rows * cols * dtype.itemsize
            return _Buffer(ctx, ptr, rows, cols, dtype)
    out = ctypes.c_void_p()
    check(lib.clrt_buffer_create(ctypes.byref(out), c, code, rows, cols))
    return _Buffer(ctx, out.value, rows, cols, dtype)


def view(parent, row, col, rows, cols, who):
    out = ctypes.c_void_p()
    check(lib.clrt_buffer_view(ctypes.byref(out), parent.handle(who), row, col, rows, cols))
    return _Buffer(parent.ctx, out.value, rows, cols, parent.dtype, is_view=True, ld=parent.ld,
                   base=parent.base or parent)


def reshape(src, rows, cols, who):
    """src's memory (one run of it) as a rows x cols matrix: a view, no copy."""
    out = ctypes.c_void_p()
    check(lib.clrt_buffer_reshape(ctypes.byref(out), src.handle(who), rows, cols))
    return _Buffer(src.ctx, out.value, rows, cols, src.dtype, is_view=True, base=src.base or src)
