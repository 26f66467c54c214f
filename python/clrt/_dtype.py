"""clrt's dtypes, spelled as PyTorch's: clrt.float32, float64, int32, int64, bool.

Each is a clrt.dtype that numpy also understands (np.dtype(clrt.float32) is float32,
and clrt.float32 == np.float32), so code written for numpy's dtypes keeps working.

On the device: float32 and float64 as they are; int32 as it is; int64 and bool are
held as int32 (the library's integer dtype), so an int64 tensor takes values in
-2**31 .. 2**31-1 only (a value beyond that, from numpy or a Python int, is refused
with a ValueError naming it, never wrapped), and a bool tensor holds 0 or 1.
"""
import builtins

import numpy as np


class dtype:
    """A tensor's element type (PyTorch's torch.dtype)."""

    __slots__ = ("name", "np", "device_np", "is_floating_point", "itemsize", "code")

    def __init__(self, name, np_dtype, device_np, code):
        self.name, self.np = name, np.dtype(np_dtype)
        self.device_np = np.dtype(device_np)
        self.is_floating_point = self.np.kind == "f"
        self.itemsize = self.np.itemsize
        self.code = code  # the library's dtype of the device buffer (clrt_dtype)

    @property
    def dtype(self):
        """The numpy dtype (so that np.dtype(clrt.float32) works)."""
        return self.np

    @property
    def is_signed(self):
        return self is not bool_

    def __repr__(self):
        return f"clrt.{self.name}"

    def __str__(self):
        return self.name  # as numpy prints a dtype (f"{a.dtype}" in existing code)

    def __eq__(self, other):
        if isinstance(other, dtype):
            return other is self
        try:
            return np.dtype(other) == self.np and other is not None
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.np)

    def __reduce__(self):
        return (_by_name, (self.name,))


float32 = dtype("float32", np.float32, np.float32, 1)
float64 = dtype("float64", np.float64, np.float64, 2)
int32 = dtype("int32", np.int32, np.int32, 3)
int64 = dtype("int64", np.int64, np.int32, 3)
bool_ = dtype("bool", np.bool_, np.int32, 3)
float = float32  # noqa: A001  (PyTorch's aliases: torch.float, torch.double, torch.long)
double = float64
long = int64
int = int32  # noqa: A001
ALL = (float32, float64, int32, int64, bool_)
_NAMES = {d.name: d for d in ALL}
_FROM_NP = {d.np: d for d in ALL}


def _by_name(name):
    return _NAMES[name]


def get(x, who, default=None):
    """The clrt dtype for x: a clrt dtype, a numpy dtype or type, a name, or Python's
    float / int / bool; None gives default. Anything else: TypeError naming it."""
    from . import _errors
    if x is None:
        return default
    if isinstance(x, dtype):
        return x
    if x is builtins.float:
        return float32
    if x is builtins.int:
        return int64
    if x is builtins.bool:
        return bool_
    try:
        nd = np.dtype(x)
    except TypeError:
        raise _errors.type_error(f"{who}: {x!r} is not a dtype") from None
    d = _FROM_NP.get(nd.newbyteorder("="))
    if d is None:
        raise _errors.type_error(f"{who}: dtype {nd} is not one clrt holds (float32, float64, "
                                 f"int32, int64, bool); convert first, e.g. x.astype(np.float32)")
    return d


def result_type(a, b):
    """PyTorch's promotion of two tensor dtypes: bool < integers < floats, wider wins."""
    if a is b:
        return a
    order = (bool_, int32, int64, float32, float64)
    return a if order.index(a) > order.index(b) else b


def scalar_type(t, value):
    """The dtype of `tensor op scalar` (PyTorch: a Python scalar does not widen a tensor
    of its own category: int32 + 1 is int32, float32 + 1.5 float32, int64 * 0.5 float32)."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return t
    if isinstance(value, (builtins.int, np.integer)):
        return int64 if t is bool_ else t
    return t if t.is_floating_point else float32
