"""The layers: PyTorch's signatures, defaults, initialisation and repr, computed by
clrt.nn.functional (the library's kernels, with autograd).

    conv = nn.Conv2d(1, 20, 5)      # weight 20 x 1 x 5 x 5, bias 20, PyTorch's init
    y = conv(x)                     # x: N x 1 x H x W

The library computes a convolution with one stride and one padding for both
directions, no dilation and one group, and a max-pooling without padding or
dilation: other arguments are refused when the layer is made (NotImplementedError),
not at its first call.
"""
import collections
import itertools
import math
import operator
import numbers

from . import _bridge as T
from . import functional as F
from . import init
from .module import Module

__all__ = ["Identity", "Linear", "Conv2d", "MaxPool2d", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Flatten", "Dropout", "Sequential", "ModuleList"]


def _pair(x, what):
    if isinstance(x, numbers.Integral):
        return (int(x), int(x))
    t = tuple(x)
    if len(t) != 2 or not all(isinstance(v, numbers.Integral) for v in t):
        raise TypeError(f"{what} must be an int or a tuple of two ints, got {x!r}")
    return tuple(int(v) for v in t)


def _same(pair, what, layer):
    """The one value the library takes for both directions."""
    if pair[0] != pair[1]:
        raise NotImplementedError(f"{layer}: {what}={pair}: clrt takes one {what} for both "
                                  "directions")
    return pair[0]


class Identity(Module):
    """Returns its input (a placeholder in a Sequential)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x W^T + b, W out_features x in_features; W and b uniform in
    +-1/sqrt(in_features) (PyTorch's kaiming_uniform_(a=sqrt(5)) and bias init)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = int(in_features), int(out_features)
        self.weight = T.Parameter(T.empty((self.out_features, self.in_features), device, dtype))
        if bias:
            self.bias = T.Parameter(T.empty((self.out_features,), device, dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, " \
               f"bias={self.bias is not None}"


class Conv2d(Module):
    """PyTorch's Conv2d (a cross-correlation) over N x C x H x W input; weight
    out_channels x in_channels x kh x kw, bias out_channels, initialised as PyTorch's."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if not isinstance(groups, numbers.Integral) or groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"padding_mode must be one of ['zeros', 'reflect', 'replicate', "
                             f"'circular'], but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.stride = _pair(stride, "stride")
        self.dilation = _pair(dilation, "dilation")
        # kept as given when a string ("same", "valid"), as PyTorch's repr shows it
        self._pad = self._padding(padding)
        self.padding = padding if isinstance(padding, str) else self._pad
        self.groups, self.padding_mode = int(groups), padding_mode
        self.transposed, self.output_padding = False, (0, 0)
        self._check_supported()
        self.weight = T.Parameter(T.empty((self.out_channels, self.in_channels // self.groups)
                                          + self.kernel_size, device, dtype))
        if bias:
            self.bias = T.Parameter(T.empty((self.out_channels,), device, dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _padding(self, padding):
        if isinstance(padding, str):
            if padding == "valid":
                return (0, 0)
            if padding != "same":
                raise ValueError(f"Invalid padding string '{padding}', should be one of "
                                 "{'valid', 'same'}")
            if self.stride != (1, 1):
                raise ValueError("padding='same' is not supported for strided convolutions")
            if any((k - 1) % 2 for k in self.kernel_size):
                raise NotImplementedError(f"Conv2d: padding='same' with kernel_size "
                                          f"{self.kernel_size}: clrt pads every side alike "
                                          "(an odd kernel size)")
            return tuple((k - 1) // 2 for k in self.kernel_size)
        return _pair(padding, "padding")

    def _check_supported(self):
        who = "Conv2d"
        _same(self.stride, "stride", who)
        _same(self._pad, "padding", who)
        if self.dilation != (1, 1):
            raise NotImplementedError(f"{who}: dilation={self.dilation}: clrt's convolution "
                                      "has no dilation")
        if self.groups != 1:
            raise NotImplementedError(f"{who}: groups={self.groups}: clrt's convolution has "
                                      "one group")
        if self.padding_mode != "zeros" and self._pad != (0, 0):
            raise NotImplementedError(f"{who}: padding_mode='{self.padding_mode}': clrt pads "
                                      "with zeros")

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.conv2d(input, self.weight, self.bias, self.stride[0], self._pad[0])

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0, 0):
            s += ", padding={padding}"
        if self.dilation != (1, 1):
            s += ", dilation={dilation}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


class MaxPool2d(Module):
    """The largest value of each kernel_size window, stride apart (default: kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode
        who = "MaxPool2d"
        self._k = _same(_pair(self.kernel_size, "kernel_size"), "kernel_size", who)
        self._s = _same(_pair(self.stride, "stride"), "stride", who)
        for what, value in (("padding", padding), ("dilation", dilation)):
            if _pair(value, what) != ((0, 0) if what == "padding" else (1, 1)):
                raise NotImplementedError(f"{who}: {what}={value}: clrt's max-pooling has none")
        if return_indices or ceil_mode:
            raise NotImplementedError(f"{who}: return_indices and ceil_mode are not supported "
                                      "by clrt's max-pooling")

    def forward(self, input):
        return F.max_pool2d(input, self._k, self._s)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, " \
               f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"


class ReLU(Module):
    """max(x, 0) elementwise."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    def forward(self, input):
        return T.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return T.tanh(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim)


class Flatten(Module):
    """Dimensions start_dim to end_dim made one (by default all but the batch's)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout(Module):
    """In training mode, each element zeroed with probability p and the others scaled by
    1/(1-p); in evaluation mode (eval()) the identity."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not isinstance(p, numbers.Real) or p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = float(p), inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class _Modules(Module):
    """What Sequential and ModuleList share: their children as a list (len, iteration,
    append, a position checked as a list's)."""

    def _index(self, idx):
        n = len(self)
        idx = operator.index(idx)  # a str or a float is a TypeError, as a list's
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return idx % n

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self


class Sequential(_Modules):
    """Modules applied in order; Sequential(a, b) names them "0", "1", and
    Sequential(OrderedDict(name=module, ...)) by the dict's names."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], collections.OrderedDict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(collections.OrderedDict(list(self._modules.items())[idx]))
        return next(itertools.islice(self._modules.values(), self._index(idx), None))

    def __setitem__(self, idx, module):
        key = list(self._modules)[self._index(idx)]
        setattr(self, key, module)

    def __delitem__(self, idx):
        keys = list(self._modules)
        for key in (keys[idx] if isinstance(idx, slice) else [keys[self._index(idx)]]):
            delattr(self, key)
        # renumbered, as PyTorch does, so that str(i) stays the i-th module's name
        mods = list(self._modules.values())
        for key in list(self._modules):
            self._forget(key)
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(_Modules):
    """A list of modules whose parameters the parent registers (named "0", "1", ...)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(self._index(idx))]

    def __setitem__(self, idx, module):
        setattr(self, str(self._index(idx)), module)

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self
