"""clrt from Python: PyTorch's tensors and autograd, and numpy's arrays, on any OpenCL
device (docs/python.md).

    import clrt as torch
    x = torch.randn(64, 1, 28, 28)                    # on the default device
    w = torch.randn(20, 1, 5, 5, requires_grad=True)
    loss = torch.nn.functional.conv2d(x, w).relu().sum()
    loss.backward()                                    # w.grad, computed on the device
    print(loss.item(), w.grad.shape)

Tensors are clrt.Tensor (clrt.Array is the same type under the package's former name:
to_device, get and the rest keep working). The default device is made on first use
($CLRT_DEVICE honoured); clrt.device(selector) or Context(selector) for another. Every
failure of the library raises clrt.Error (a RuntimeError) with the status name and the
library's message; mistakes PyTorch reports as TypeError, ValueError or IndexError are
those too.
"""
from ._errors import Error
from ._lib import lib as _clib, path as library_path
from ._context import Context, Device, default_context, devices
from ._dtype import (dtype, float32, float64, int32, int64, bool_ as bool,  # noqa: A004
                     float, double, long, int)  # noqa: A004
from ._tensor import Tensor, Parameter, Size
from ._device import device
from ._autograd import no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode
from ._random import manual_seed, seed, initial_seed
from ._create import (tensor, as_tensor, from_numpy, full, zeros_like, ones_like, empty_like,
                      full_like, rand, randn, rand_like, randn_like, randint, arange, linspace,
                      eye)
from ._array import Array, to_device, gemm, empty, zeros, ones
from ._math import (add, sub, mul, div, pow, maximum, minimum, remainder, floor_divide, atan2,
                    neg, negative, abs, exp, log, sqrt, rsqrt, tanh, sigmoid, relu, reciprocal,
                    square, log1p, expm1, sin, cos, sign, floor, ceil, round, trunc, clamp,
                    isnan, logical_not, sum, mean, max, min, amax, amin, argmax, argmin, var,
                    std, all, any, softmax, log_softmax, matmul, mm, bmm, dot)
from ._layout import (reshape, flatten, ravel, permute, transpose, t, squeeze, unsqueeze, cat,
                      stack, clone, detach, index_select, where)
from ._kernel import Kernel, LocalMemory, Program
from . import autograd
from . import nn

__version__ = "0.1.0"  # the library's and the wheel's (python/pyproject.toml)

# numpy's names of the elementwise operations (the former clrt.Array API)
subtract, multiply, divide = sub, mul, div
clip = clamp
concatenate = cat


def library_version():
    """The version of the libclrt in use."""
    return _clib.clrt_version().decode()


def is_tensor(x):
    return isinstance(x, Tensor)


def numel(x):
    return x.numel()


def get_default_dtype():
    return float32


class _Cuda:
    """clrt.cuda: what PyTorch code asks before choosing a device. clrt runs on OpenCL, not
    CUDA: is_available() is False, so `torch.device("cuda:0" if torch.cuda.is_available()
    else "cpu")` picks "cpu", the CPU OpenCL device; clrt.device() is the default device
    (a GPU where there is one)."""

    @staticmethod
    def is_available():
        return False

    @staticmethod
    def device_count():
        return 0


cuda = _Cuda()


__all__ = [
    "Error", "Context", "Device", "devices", "default_context", "device", "dtype", "float32",
    "float64", "int32", "int64", "bool", "float", "double", "long", "int", "Tensor",
    "Parameter", "Size", "Array", "no_grad", "enable_grad", "set_grad_enabled",
    "is_grad_enabled", "inference_mode", "manual_seed", "seed", "initial_seed", "tensor",
    "as_tensor", "from_numpy", "empty", "zeros", "ones", "full", "zeros_like", "ones_like",
    "empty_like", "full_like", "rand", "randn", "rand_like", "randn_like", "randint", "arange",
    "linspace", "eye", "to_device", "gemm", "add", "sub", "mul", "div", "subtract", "multiply",
    "divide", "pow", "maximum", "minimum", "remainder", "floor_divide", "atan2", "neg",
    "negative", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "reciprocal",
    "square", "log1p", "expm1", "sin", "cos", "sign", "floor", "ceil", "round", "trunc", "clamp",
    "clip", "isnan", "logical_not", "sum", "mean", "max", "min", "amax", "amin", "argmax",
    "argmin", "var", "std", "all", "any", "softmax", "log_softmax", "matmul", "mm", "bmm", "dot",
    "reshape", "flatten", "ravel", "permute", "transpose", "t", "squeeze", "unsqueeze", "cat",
    "concatenate", "stack", "clone", "detach", "index_select", "where", "Kernel", "Program",
    "LocalMemory", "autograd",
    "nn", "library_version", "library_path", "is_tensor", "numel", "get_default_dtype", "cuda",
]

# The rest of PyTorch's package: optim, utils.data, save/load (.npz, no pickle)
from . import optim, utils  # noqa: E402
from ._serialization import save, load  # noqa: E402

__all__ += ["optim", "utils", "save", "load"]
