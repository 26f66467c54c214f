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


# The binary operations differ only in the op, the name a refusal gives it (who) and the doc.
def _binary(name, op, who, doc):
    def f(a, b, out=None):
        return _array.binary(op, a, b, who, out)
    f.__name__ = name
    f.__doc__ = doc + " (numpy broadcasting); out= writes into an existing array (no allocation)."
    return f


add = _binary("add", _array.OP_ADD, "+", "a + b")
subtract = _binary("subtract", _array.OP_SUB, "-", "a - b")
multiply = _binary("multiply", _array.OP_MUL, "*", "a * b")
divide = _binary("divide", _array.OP_DIV, "/", "a / b")
minimum = _binary("minimum", _array.OP_MIN, "minimum", "The elementwise minimum of a and b")
maximum = _binary("maximum", _array.OP_MAX, "maximum", "The elementwise maximum of a and b")


def _unary(name):
    def f(a, out=None):
        return _array.unary(name, a, out)
    f.__name__ = name
    f.__doc__ = f"Elementwise {name} of a clrt array."
    return f


exp, log, sqrt, tanh, relu, sigmoid = (_unary(n) for n in
                                       ("exp", "log", "sqrt", "tanh", "relu", "sigmoid"))

# PyTorch's torch.optim, torch.utils.data, torch.save and torch.load (pynn's packages)
from . import optim, utils  # noqa: E402
from ._serialization import save, load  # noqa: E402
