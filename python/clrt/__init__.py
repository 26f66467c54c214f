"""clrt from Python: numpy in and out, on any OpenCL device (docs/python.md).

    import numpy as np, clrt
    a = clrt.to_device(np.random.rand(1000, 1000))      # float64, on the default device
    b = clrt.empty((1000, 1000), np.float64)
    c = (a @ a.T + 1.0).sum(axis=1).get()               # numpy array

The default context is made on first use ($CLRT_DEVICE honoured); pass ctx= for another.
Every failure raises clrt.Error (a RuntimeError) with the status name and the library's
message.
"""
from ._errors import Error
from ._lib import lib as _clib, path as library_path
from ._context import Context, Device, default_context, devices
from ._array import Array, empty, zeros, to_device, gemm, matmul
from ._kernel import Kernel, LocalMemory, Program
from . import _array
from . import nn

__version__ = "0.1.0"
__all__ = ["Error", "Context", "Device", "Array", "Kernel", "Program", "LocalMemory", "devices",
           "default_context", "empty", "zeros", "to_device", "gemm", "matmul", "add", "subtract",
           "multiply", "divide", "minimum", "maximum", "exp", "log", "sqrt", "tanh", "relu",
           "sigmoid", "library_version", "library_path", "nn"]


def library_version():
    """The version of the libclrt in use."""
    return _clib.clrt_version().decode()


def add(a, b, out=None):
    """a + b (numpy broadcasting); out= writes into an existing array (no allocation)."""
    return _array.binary(_array.OP_ADD, a, b, "+", out)


def subtract(a, b, out=None):
    return _array.binary(_array.OP_SUB, a, b, "-", out)


def multiply(a, b, out=None):
    return _array.binary(_array.OP_MUL, a, b, "*", out)


def divide(a, b, out=None):
    return _array.binary(_array.OP_DIV, a, b, "/", out)


def minimum(a, b, out=None):
    return _array.binary(_array.OP_MIN, a, b, "minimum", out)


def maximum(a, b, out=None):
    return _array.binary(_array.OP_MAX, a, b, "maximum", out)


def _unary(name):
    def f(a, out=None):
        return _array.unary(name, a, out)
    f.__name__ = name
    f.__doc__ = f"Elementwise {name} of a clrt array."
    return f


exp, log, sqrt, tanh, relu, sigmoid = (_unary(n) for n in
                                       ("exp", "log", "sqrt", "tanh", "relu", "sigmoid"))
