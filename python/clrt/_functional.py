"""clrt.nn.functional: PyTorch's functional layers on tensors, forward and backward each
one of the library's nn calls (clrt_nn.h), so that a training step runs on the device
at clrt-train's speed: conv2d, max_pool2d, linear, relu, cross_entropy; and softmax,
log_softmax, mse_loss, nll_loss, dropout from the tensor operations.

Shapes as PyTorch's: images NCHW, a convolution's weight (out, in, kh, kw), a linear
layer's (out, in). A mismatch names the layer and both shapes (RuntimeError); targets
of another dtype than int64/int32 are a RuntimeError naming what was expected; a target
outside 0..C-1 is an IndexError naming it (checked against the values known on the host
where the targets came from it, else read back: a few bytes).
"""
import ctypes
import numbers

import numpy as np

from . import _dtype, _errors, _layout, _math, _ops, _strided as S
from ._autograd import is_grad_enabled, record
from ._lib import check, has, lib
from ._tensor import Tensor, known_range, matrix, set_range, shape2d


class _Conv2dShape(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("channels", "height", "width", "out_channels",
                                               "kernel_h", "kernel_w", "stride", "padding")]


class _Pool2dShape(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("channels", "height", "width", "size", "stride")]


def _need(name):
    if not has(name):
        raise _errors.runtime_error(f"clrt.nn.functional: this libclrt has no {name}",
                                    _errors.EUNSUPPORTED)
    return getattr(lib, name)


def _tensor_arg(x, who, what="input"):
    if not isinstance(x, Tensor):
        raise _errors.type_error(f"{who}: argument '{what}' must be Tensor, not "
                                 f"{type(x).__name__}")
    return x


def _float_arg(x, who, what):
    if not x.dtype.is_floating_point:
        raise _errors.runtime_error(f"{who}: expected {what} of a floating point dtype (float32 "
                                    f"or float64), got {x.dtype.name}")
    return x


def _mat(x, r, c, who):
    """A contiguous tensor's matrix handle; others are made contiguous first."""
    return matrix(_ops.contiguous(x), r, c, who)


def _pair(v, who, what):
    """An int, or a pair of equal ints (the library takes one value for both directions)."""
    if isinstance(v, (tuple, list)):
        if len(v) != 2 or v[0] != v[1]:
            raise _errors.runtime_error(f"{who}: {what}={tuple(v)}: clrt takes the same {what} "
                                        "in both directions", _errors.EUNSUPPORTED)
        v = v[0]
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Integral, np.integer)):
        raise _errors.type_error(f"{who}: {what} must be an int, not {type(v).__name__} {v!r}")
    return int(v)


def _positive(v, who, what):
    if v <= 0:
        raise _errors.runtime_error(f"{who}: {what} should be greater than zero, but got "
                                    f"{what}: {v}")
    return v


def _out_grad(g, shape):
    return g if g._shape == shape and g.is_contiguous() else _ops.contiguous(g)


def _wants(*xs):
    """Which of a layer's inputs (None: an absent bias) want a gradient, taken when the
    layer runs: its backward function then holds neither its inputs nor its output (the
    output's grad_fn holding the output is a cycle that keeps its memory until gc)."""
    return tuple(x is not None and x._rg for x in xs)


def _pair_dtypes(who, *xs):
    dt = xs[0].dtype
    for x in xs[1:]:
        if x is not None and x.dtype is not dt:
            raise _errors.runtime_error(f"{who}: expected all arguments to be {dt.name}, got "
                                        f"{x.dtype.name}")


# ---- relu

def relu(x, inplace=False):
    _tensor_arg(x, "relu")
    if inplace:
        return x.relu_()
    return _math.relu(x)


def relu_backward(g, y):
    """dx = g where y (relu's output, or its input) > 0, else 0."""
    if g._shape == y._shape and g.is_contiguous() and y.is_contiguous() and \
            g.dtype is y.dtype and has("clrt_nn_relu_backward"):
        r, c = shape2d(g._shape)
        dx = _ops.new(g._st.ctx, g._shape, g.dtype, "relu backward")
        check(lib.clrt_nn_relu_backward(g._st.ctx._q, matrix(dx, r, c, "relu").handle("relu"),
                                        matrix(g, r, c, "relu").handle("relu"),
                                        matrix(y, r, c, "relu").handle("relu")))
        return dx
    return g * _ops.cast(_ops.compare(S.C_GT, y, 0), g.dtype)


# ---- linear

def linear(x, weight, bias=None):
    """y = x @ weight.T + bias: x (..., in), weight (out, in), bias (out,)."""
    who = "linear"
    for t in (x, weight) + ((bias,) if bias is not None else ()):
        _tensor_arg(t, who)
    _float_arg(x, who, "input")
    _pair_dtypes(who, x, weight, bias)
    if weight.ndim != 2 or x.ndim < 1 or x._shape[-1] != weight._shape[1]:
        raise _errors.shape_error(
            f"linear: mat1 and mat2 shapes cannot be multiplied "
            f"({'x'.join(map(str, (int(np.prod(x._shape[:-1])), x._shape[-1])))} and "
            f"{'x'.join(map(str, weight._shape[::-1]))}): input {tuple(x._shape)}, weight "
            f"{tuple(weight._shape)}")
    out_f, in_f = weight._shape
    if bias is not None and bias._shape != (out_f,):
        raise _errors.shape_error(f"linear: bias has shape {tuple(bias._shape)}, the layer "
                                  f"has {out_f} outputs (expected ({out_f},))")
    _ops.same_context(who, x, weight, *((bias,) if bias is not None else ()))
    n = x.numel() // in_f
    xc, wc = _ops.contiguous(x), _ops.contiguous(weight)
    y = _ops.new(x._st.ctx, x._shape[:-1] + (out_f,), x.dtype, who)
    hb = _mat(bias, 1, out_f, who).handle(who) if bias is not None else None
    check(_need("clrt_nn_linear_forward")(x._st.ctx._q, matrix(y, n, out_f, who).handle(who),
                                          matrix(xc, n, in_f, who).handle(who),
                                          matrix(wc, out_f, in_f, who).handle(who), hb))
    sx, sw = _math._save(xc), _math._save(wc)
    x_shape, y_shape, wants = x._shape, y._shape, _wants(x, weight, bias)

    def back(g):
        g = _out_grad(g, y_shape)
        ctx = g._st.ctx
        dx = _ops.new(ctx, x_shape, g.dtype, who) if wants[0] else None
        dw = _ops.new(ctx, (out_f, in_f), g.dtype, who) if wants[1] else None
        db = _ops.new(ctx, (out_f,), g.dtype, who) if wants[2] else None
        if dx is None and dw is None and db is None:
            return None, None, None
        h = lambda t, r, c: matrix(t, r, c, who).handle(who) if t is not None else None  # noqa
        check(_need("clrt_nn_linear_backward")(ctx._q, h(dx, n, in_f), h(dw, out_f, in_f),
                                               h(db, 1, out_f), h(g, n, out_f), h(sx, n, in_f),
                                               h(sw, out_f, in_f)))
        return dx, dw, db
    return record("AddmmBackward0", y, (x, weight, bias), back, [sx, sw])


# ---- convolution

def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """PyTorch's F.conv2d (groups 1, dilation 1; stride and padding the same in both
    directions): x (N, C, H, W), weight (K, C, kh, kw), bias (K,)."""
    who = "conv2d"
    for t in (x, weight) + ((bias,) if bias is not None else ()):
        _tensor_arg(t, who)
    _float_arg(x, who, "input")
    _pair_dtypes(who, x, weight, bias)
    stride = _positive(_pair(stride, who, "stride"), who, "stride")
    padding = _pair(padding, who, "padding")
    if padding < 0:
        raise _errors.runtime_error(f"{who}: negative padding is not supported")
    if _pair(dilation, who, "dilation") != 1 or groups != 1:
        raise _errors.runtime_error(f"{who}: dilation and groups other than 1 are not "
                                    "supported by clrt", _errors.EUNSUPPORTED)
    unbatched = x.ndim == 3
    if unbatched:
        x = _layout.unsqueeze(x, 0)
    if x.ndim != 4 or weight.ndim != 4:
        raise _errors.shape_error(
            f"{who}: Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of "
            f"size: {list(x._shape)} (weight {list(weight._shape)})")
    n, c, h, w = x._shape
    k, wc, kh, kw = weight._shape
    if wc != c:
        raise _errors.shape_error(
            f"{who}: Given groups=1, weight of size {list(weight._shape)}, expected input"
            f"{list(x._shape)} to have {wc} channels, but got {c} channels instead")
    if bias is not None and bias._shape != (k,):
        raise _errors.shape_error(f"{who}: bias has shape {tuple(bias._shape)}, expected ({k},)")
    if h + 2 * padding < kh or w + 2 * padding < kw:
        raise _errors.shape_error(
            f"{who}: Calculated padded input size per channel: ({h + 2 * padding} x "
            f"{w + 2 * padding}). Kernel size: ({kh} x {kw}). Kernel size can't be greater than "
            "actual input size")
    _ops.same_context(who, x, weight, *((bias,) if bias is not None else ()))
    s = _Conv2dShape(c, h, w, k, kh, kw, stride, padding)
    oh, ow = (h + 2 * padding - kh) // stride + 1, (w + 2 * padding - kw) // stride + 1
    xc, wcm = _ops.contiguous(x), _ops.contiguous(weight)
    y = _ops.new(x._st.ctx, (n, k, oh, ow), x.dtype, who)
    hb = _mat(bias, 1, k, who).handle(who) if bias is not None else None
    check(_need("clrt_nn_conv2d_forward")(
        x._st.ctx._q, matrix(y, n, k * oh * ow, who).handle(who),
        matrix(xc, n, c * h * w, who).handle(who), matrix(wcm, k, c * kh * kw, who).handle(who),
        hb, ctypes.byref(s)))
    sx, sw = _math._save(xc), _math._save(wcm)
    y_shape, wants = y._shape, _wants(x, weight, bias)

    def back(g):
        g = _out_grad(g, y_shape)
        ctx = g._st.ctx
        dx = _ops.new(ctx, (n, c, h, w), g.dtype, who) if wants[0] else None
        dw = _ops.new(ctx, (k, c, kh, kw), g.dtype, who) if wants[1] else None
        db = _ops.new(ctx, (k,), g.dtype, who) if wants[2] else None
        if dx is None and dw is None and db is None:
            return None, None, None
        h_ = lambda t, r, cc: matrix(t, r, cc, who).handle(who) if t is not None else None  # noqa
        check(_need("clrt_nn_conv2d_backward")(
            ctx._q, h_(dx, n, c * h * w), h_(dw, k, c * kh * kw), h_(db, 1, k),
            h_(g, n, k * oh * ow), h_(sx, n, c * h * w), h_(sw, k, c * kh * kw), ctypes.byref(s)))
        return dx, dw, db
    y = record("ConvolutionBackward0", y, (x, weight, bias), back, [sx, sw])
    return _layout.squeeze(y, 0) if unbatched else y


# ---- max-pooling

def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """PyTorch's F.max_pool2d (no padding, dilation 1, floor mode): the largest value of
    each window, its gradient to the first largest in row-major order (PyTorch's choice)."""
    who = "max_pool2d"
    _tensor_arg(x, who)
    _float_arg(x, who, "input")
    size = _positive(_pair(kernel_size, who, "kernel_size"), who, "kernel_size")
    stride = size if stride is None or (isinstance(stride, (tuple, list)) and not stride) \
        else _positive(_pair(stride, who, "stride"), who, "stride")
    if _pair(padding, who, "padding") != 0 or _pair(dilation, who, "dilation") != 1 or ceil_mode:
        raise _errors.runtime_error(f"{who}: padding, dilation and ceil_mode are not supported "
                                    "by clrt", _errors.EUNSUPPORTED)
    unbatched = x.ndim == 3
    if unbatched:
        x = _layout.unsqueeze(x, 0)
    if x.ndim != 4:
        raise _errors.shape_error(f"{who}: Expected 3D or 4D (batch mode) tensor for input, got "
                                  f"{list(x._shape)}")
    n, c, h, w = x._shape
    if h < size or w < size:
        raise _errors.shape_error(f"{who}: input image ({h} x {w}) is smaller than the window "
                                  f"({size} x {size}): output size is too small")
    oh, ow = (h - size) // stride + 1, (w - size) // stride + 1
    s = _Pool2dShape(c, h, w, size, stride)
    xc = _ops.contiguous(x)
    ctx = x._st.ctx
    y = _ops.new(ctx, (n, c, oh, ow), x.dtype, who)
    need = is_grad_enabled() and x._rg or return_indices
    am = _ops.new(ctx, (n, c, oh, ow), _dtype.int32, who) if need else None
    cols = c * oh * ow
    check(_need("clrt_nn_maxpool_forward")(
        ctx._q, matrix(y, n, cols, who).handle(who),
        matrix(am, n, cols, who).handle(who) if am is not None else None,
        matrix(xc, n, c * h * w, who).handle(who), ctypes.byref(s)))

    def back(g):
        g = _out_grad(g, (n, c, oh, ow))
        dx = _ops.new(g._st.ctx, (n, c, h, w), g.dtype, who)
        check(_need("clrt_nn_maxpool_backward")(
            g._st.ctx._q, matrix(dx, n, c * h * w, who).handle(who),
            matrix(g, n, cols, who).handle(who), matrix(am, n, cols, who).handle(who),
            ctypes.byref(s)))
        return (dx,)
    y = record("MaxPool2DWithIndicesBackward0", y, (x,), back, [am] if am is not None else [])
    if unbatched:
        y = _layout.squeeze(y, 0)
    if return_indices:
        # PyTorch's indices count within each channel's H x W plane, as the library's
        idx = _ops.cast(am, _dtype.int64)
        return y, (_layout.squeeze(idx, 0) if unbatched else idx)
    return y


# ---- losses

def _check_targets(target, classes, who):
    """Targets in 0..classes-1, from the values known on the host or read back."""
    rng = known_range(target)
    if rng is None:
        host = target.get()
        rng = (int(host.min()), int(host.max()))
        set_range(target, *rng)
    lo, hi = rng
    if lo < 0 or hi >= classes:
        bad = lo if lo < 0 else hi
        raise _errors.index_error(f"{who}: Target {bad} is out of bounds: the input has "
                                  f"{classes} classes (targets must be in 0..{classes - 1})")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """Softmax cross-entropy of logits (N, C) against class indices (N,) (int64 as PyTorch
    takes them, or int32), reduced by mean or sum (clrt_nn_softmax_xent), or 'none'."""
    who = "cross_entropy"
    _tensor_arg(input, who)
    _tensor_arg(target, who, "target")
    if weight is not None or label_smoothing or size_average is not None or reduce is not None:
        raise _errors.runtime_error(f"{who}: weight, label_smoothing and the legacy size_average/"
                                    "reduce are not supported by clrt", _errors.EUNSUPPORTED)
    if reduction not in ("mean", "sum", "none"):
        raise _errors.value_error(f"{reduction} is not a valid value for reduction")
    _float_arg(input, who, "input")
    if target.dtype.is_floating_point or target.dtype is _dtype.bool_:
        raise _errors.runtime_error(f"{who}: expected target of class indices of dtype int64 "
                                    f"(Long) or int32, but got {target.dtype.name} (probability "
                                    "targets are not supported)")
    if input.ndim != 2 or target.ndim != 1 or target._shape[0] != input._shape[0]:
        n_in = input._shape[0] if input.ndim else 1
        n_t = target._shape[0] if target.ndim else 1
        raise _errors.shape_error(f"{who}: Expected input batch_size ({n_in}) to "
                                  f"match target batch_size ({n_t}): "
                                  f"input {tuple(input._shape)}, target {tuple(target._shape)} "
                                  "(input (N, C) and target (N,))")
    n, classes = input._shape
    _ops.same_context(who, input, target)
    _check_targets(target, classes, who)
    if reduction == "none" or ignore_index in range(classes):
        return nll_loss(log_softmax(input, 1), target, reduction=reduction,
                        ignore_index=ignore_index)
    ctx = input._st.ctx
    xc, tc = _ops.contiguous(input), _ops.contiguous(target)
    loss = _ops.new(ctx, (), input.dtype, who)
    grad = _ops.new(ctx, (n, classes), input.dtype, who) if is_grad_enabled() and input._rg \
        else None
    check(_need("clrt_nn_softmax_xent")(
        ctx._q, matrix(loss, 1, 1, who).handle(who),
        matrix(grad, n, classes, who).handle(who) if grad is not None else None,
        matrix(xc, n, classes, who).handle(who), matrix(tc, n, 1, who).handle(who)))
    if reduction == "sum":
        loss = _ops.binary(S.B_MUL, loss, float(n), out=loss, who=who)
        if grad is not None:
            _ops.binary(S.B_MUL, grad, float(n), out=grad, who=who)

    def back(g):
        return (grad * g,)  # g: a 0-d tensor, applied on the device as a 1 x 1 operand
    return record("NllLossBackward0", loss, (input,), back, [])


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean", **legacy):
    """The negative log-likelihood of log-probabilities (N, C) at target classes (N,)."""
    who = "nll_loss"
    if weight is not None:
        raise _errors.runtime_error(f"{who}: weight is not supported by clrt",
                                    _errors.EUNSUPPORTED)
    n, classes = input._shape
    if not (0 <= ignore_index < classes):
        _check_targets(target, classes, who)
    cls = _math.arange_like_dim((n, classes), 1, target)
    hit = _ops.cast(_ops.compare(S.C_EQ, cls, _layout.unsqueeze(target, 1)), input.dtype)
    keep = None
    if 0 <= ignore_index < classes:
        keep = _ops.cast(_ops.compare(S.C_NE, target, ignore_index), input.dtype)
        hit = hit * _layout.unsqueeze(keep, 1)
    per = -_math.sum(input * hit, 1)
    if reduction == "none":
        return per
    if reduction == "sum":
        return _math.sum(per)
    count = float(n) if keep is None else _math.sum(keep)
    return _math.sum(per) / count


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    who = "mse_loss"
    _tensor_arg(input, who)
    _tensor_arg(target, who, "target")
    if input._shape != target._shape:
        raise _errors.shape_error(f"{who}: input {tuple(input._shape)} and target "
                                  f"{tuple(target._shape)} differ in shape")
    d = input - target
    sq = d * d
    if reduction == "none":
        return sq
    if reduction == "sum":
        return _math.sum(sq)
    if reduction == "mean":
        return _math.mean(sq)
    raise _errors.value_error(f"{reduction} is not a valid value for reduction")


def l1_loss(input, target, reduction="mean"):
    d = _math.abs(input - target)
    return d if reduction == "none" else _math.sum(d) if reduction == "sum" else _math.mean(d)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _math.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return _math.log_softmax(input, dim, dtype)


def sigmoid(input):
    return _math.sigmoid(input)


def tanh(input):
    return _math.tanh(input)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the others by 1/(1-p) when training
    (the mask from clrt.manual_seed's stream, made on the device); the input itself when
    not training or p is 0."""
    if not 0 <= p <= 1:
        raise _errors.value_error(f"dropout probability has to be between 0 and 1, but got {p}")
    _tensor_arg(input, "dropout")
    if not training or p == 0:
        return input
    _float_arg(input, "dropout", "input")
    if p == 1:
        return input * 0.0
    mask = _ops.new(input._st.ctx, input._shape, input.dtype, "dropout")
    _ops.random_(mask, S.R_BERNOULLI, 1.0 - p, 0.0, "dropout")
    scale = _ops.binary(S.B_MUL, mask, 1.0 / (1.0 - p), out=mask, who="dropout")
    out = input * scale
    if inplace:
        from ._autograd import no_grad
        with no_grad():
            _ops.copy_into(input, out)
        input._bump_version()
        return input
    return out


def flatten(input, start_dim=0, end_dim=-1):
    return _layout.flatten(input, start_dim, end_dim)


def one_hot(tensor, num_classes=-1):
    if num_classes < 0:
        num_classes = int(tensor.max().item()) + 1
    cls = _math.arange_like_dim(tensor._shape + (num_classes,), tensor.ndim, tensor)
    return _ops.cast(_ops.compare(S.C_EQ, cls, _layout.unsqueeze(tensor, -1)), _dtype.int64)

