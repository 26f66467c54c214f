"""clrt.nn: the neural-network operations of clrt_nn.h on clrt arrays, and small layers
(Linear, Conv2d, MaxPool2d, ReLU, Flatten-free Sequential, CrossEntropyLoss, SGD) so a
training loop reads like the article's PyTorch one:

    net = nn.Sequential(nn.Linear(784, 100), nn.ReLU(), nn.Linear(100, 10))
    criterion, optimizer = nn.CrossEntropyLoss(), nn.SGD(net.parameters(), lr=0.01, momentum=0.9)
    for inputs, labels in batches:           # clrt arrays: N x features, int32 N x 1 labels
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        net.backward(criterion.backward())
        optimizer.step()
        running_loss += loss.item()

Activations are N x features matrices; an image's C x H x W values lie in one row (NCHW),
as in clrt_nn.h. Layers keep what their backward pass needs from the last forward pass.
Convolution and max-pooling need a libclrt that implements them (the CNN issue): without
it they raise clrt.Error CLRT_EUNSUPPORTED.
"""
import ctypes

import numpy as np

from . import _buffer, _errors
from ._array import Array, _same_context, _shape2d
from ._lib import check, has, lib

_INT32 = np.dtype(np.int32)


class _Conv2dShape(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("channels", "height", "width", "out_channels",
                                               "kernel_h", "kernel_w", "stride", "padding")]


class _Pool2dShape(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("channels", "height", "width", "size", "stride")]


def _need(name):
    if not has(name):
        raise _errors.refuse(_errors.EUNSUPPORTED, f"clrt.nn: this libclrt has no {name} "
                                                   "(convolution and pooling come with the CNN "
                                                   "issue's library)")
    return getattr(lib, name)


def _h(x, who):
    return None if x is None else x._b.handle(who)


def _matrix(x, who):
    if not isinstance(x, Array):
        raise _errors.refuse(_errors.EINVAL, f"{who}: expected a clrt array, got "
                                             f"{type(x).__name__}")
    if x._trans:
        raise _errors.refuse(_errors.EINVAL, f"{who}: a transposed array (use .copy())")
    return x


def _new(like, rows, cols, who, dtype=None):
    return Array(_buffer.new(like._b.ctx, rows, cols, dtype or like.dtype, who), (rows, cols))


def _q(x, who):
    return x._b.ctx._handles(who)[1]


# ---- functions (clrt_nn.h, one each)

def relu(x, out=None):
    who = "clrt.nn.relu"
    _matrix(x, who)
    out = out if out is not None else _new(x, *_shape2d(x.shape), who)
    out.shape = x.shape
    check(_need("clrt_nn_relu_forward")(_q(x, who), _h(out, who), _h(x, who)))
    return out


def relu_backward(dy, x):
    who = "clrt.nn.relu_backward"
    _same_context(who, _matrix(dy, who), _matrix(x, who))
    dx = _new(x, *_shape2d(x.shape), who)
    dx.shape = x.shape
    check(_need("clrt_nn_relu_backward")(_q(x, who), _h(dx, who), _h(dy, who), _h(x, who)))
    return dx


def linear(x, w, b=None):
    """y (N x out) = x (N x in) w^T + b; w is out x in (PyTorch's layout), b 1 x out."""
    who = "clrt.nn.linear"
    _same_context(who, _matrix(x, who), _matrix(w, who), *([_matrix(b, who)] if b is not None else []))
    y = _new(x, _shape2d(x.shape)[0], _shape2d(w.shape)[0], who)
    check(_need("clrt_nn_linear_forward")(_q(x, who), _h(y, who), _h(x, who), _h(w, who), _h(b, who)))
    return y


def linear_backward(dy, x, w, need_dx=True):
    """(dx or None, dw, db) for linear(x, w, b) given dy."""
    who = "clrt.nn.linear_backward"
    _same_context(who, _matrix(dy, who), _matrix(x, who), _matrix(w, who))
    dx = _new(x, *_shape2d(x.shape), who) if need_dx else None
    dw = _new(w, *_shape2d(w.shape), who)
    db = _new(w, 1, _shape2d(w.shape)[0], who)
    check(_need("clrt_nn_linear_backward")(_q(x, who), _h(dx, who), _h(dw, who), _h(db, who),
                                           _h(dy, who), _h(x, who), _h(w, who)))
    return dx, dw, db


def conv2d_output(channels, height, width, out_channels, kernel, stride=1, padding=0):
    """(out_h, out_w) of a convolution (clrt_nn_conv2d_output)."""
    s = _conv_shape(channels, height, width, out_channels, kernel, stride, padding)
    oh, ow = ctypes.c_size_t(), ctypes.c_size_t()
    check(_need("clrt_nn_conv2d_output")(ctypes.byref(s), ctypes.byref(oh), ctypes.byref(ow)))
    return oh.value, ow.value


def _conv_shape(channels, height, width, out_channels, kernel, stride, padding):
    kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
    return _Conv2dShape(channels, height, width, out_channels, kh, kw, stride, padding)


def conv2d(x, w, b, image, out_channels, kernel, stride=1, padding=0):
    """y (N x K*out_h*out_w) = conv(x (N x C*H*W), w (K x C*kh*kw)) + b (1 x K or None);
    image = (C, H, W)."""
    who = "clrt.nn.conv2d"
    s = _conv_shape(*image, out_channels, kernel, stride, padding)
    oh, ow = conv2d_output(*image, out_channels, kernel, stride, padding)
    _same_context(who, _matrix(x, who), _matrix(w, who), *([_matrix(b, who)] if b is not None else []))
    y = _new(x, _shape2d(x.shape)[0], out_channels * oh * ow, who)
    check(_need("clrt_nn_conv2d_forward")(_q(x, who), _h(y, who), _h(x, who), _h(w, who),
                                          _h(b, who), ctypes.byref(s)))
    return y


def conv2d_backward(dy, x, w, image, out_channels, kernel, stride=1, padding=0, need_dx=True):
    """(dx or None, dw, db) of conv2d given dy."""
    who = "clrt.nn.conv2d_backward"
    s = _conv_shape(*image, out_channels, kernel, stride, padding)
    _same_context(who, _matrix(dy, who), _matrix(x, who), _matrix(w, who))
    dx = _new(x, *_shape2d(x.shape), who) if need_dx else None
    dw = _new(w, *_shape2d(w.shape), who)
    db = _new(w, 1, out_channels, who)
    check(_need("clrt_nn_conv2d_backward")(_q(x, who), _h(dx, who), _h(dw, who), _h(db, who),
                                           _h(dy, who), _h(x, who), _h(w, who), ctypes.byref(s)))
    return dx, dw, db


def pool2d_output(channels, height, width, size, stride=None):
    s = _Pool2dShape(channels, height, width, size, stride or size)
    oh, ow = ctypes.c_size_t(), ctypes.c_size_t()
    check(_need("clrt_nn_pool2d_output")(ctypes.byref(s), ctypes.byref(oh), ctypes.byref(ow)))
    return oh.value, ow.value


def maxpool2d(x, image, size, stride=None, with_argmax=True):
    """(y, argmax or None): the largest value of each size x size window; image = (C, H, W)."""
    who = "clrt.nn.maxpool2d"
    s = _Pool2dShape(*image, size, stride or size)
    oh, ow = pool2d_output(*image, size, stride)
    _matrix(x, who)
    n, cols = _shape2d(x.shape)[0], image[0] * oh * ow
    y = _new(x, n, cols, who)
    am = _new(x, n, cols, who, _INT32) if with_argmax else None
    check(_need("clrt_nn_maxpool_forward")(_q(x, who), _h(y, who), _h(am, who), _h(x, who),
                                           ctypes.byref(s)))
    return y, am


def maxpool2d_backward(dy, argmax, image, size, stride=None):
    who = "clrt.nn.maxpool2d_backward"
    s = _Pool2dShape(*image, size, stride or size)
    _same_context(who, _matrix(dy, who), _matrix(argmax, who))
    dx = _new(dy, _shape2d(dy.shape)[0], image[0] * image[1] * image[2], who)
    check(_need("clrt_nn_maxpool_backward")(_q(dy, who), _h(dx, who), _h(dy, who),
                                            _h(argmax, who), ctypes.byref(s)))
    return dx


def softmax_cross_entropy(logits, labels, with_grad=True):
    """(loss as a 0-d array, dlogits or None): mean softmax cross-entropy of logits (N x C)
    against int32 labels (N, or N x 1). A label outside 0..C-1 (or a NaN logit) gives a NaN
    loss and a NaN gradient row, as clrt_nn_softmax_xent says; nothing waits for the device."""
    who = "clrt.nn.softmax_cross_entropy"
    if not isinstance(labels, Array):
        raise _errors.refuse(_errors.EINVAL, f"{who}: labels must be a clrt array "
                                             "(clrt.to_device(labels.astype(np.int32)))")
    _same_context(who, _matrix(logits, who), labels)
    if labels.dtype != _INT32:
        raise _errors.refuse(_errors.ESHAPE, f"{who}: labels must be int32, not {labels.dtype}")
    if labels.ndim == 1:  # logically a row; the library reads an N x 1 column
        labels2 = labels if labels._trans else _labels_column(labels, who)
    else:
        labels2 = _matrix(labels, who)
    loss = Array(_buffer.new(logits._b.ctx, 1, 1, logits.dtype, who), ())
    d = _new(logits, *_shape2d(logits.shape), who) if with_grad else None
    check(_need("clrt_nn_softmax_xent")(_q(logits, who), _h(loss, who), _h(d, who),
                                        _h(logits, who), _h(labels2, who)))
    return loss, d


def _labels_column(labels, who):
    """labels (1-D, held 1 x N) as the N x 1 matrix clrt_nn_softmax_xent reads."""
    n = labels.shape[0]
    out = Array(_buffer.new(labels._b.ctx, n, 1, _INT32, who), (n, 1))
    check(lib.clrt_transpose(_q(labels, who), out._b.ptr, labels._b.handle(who)))
    return out


def sgd_step(p, g, v, lr, momentum=0.0, weight_decay=0.0):
    """p -= lr * (momentum * v + g + weight_decay * p) in PyTorch's form; v (zeros at first)
    is updated in place (None when momentum is 0)."""
    who = "clrt.nn.sgd_step"
    _same_context(who, _matrix(p, who), _matrix(g, who), *([_matrix(v, who)] if v is not None else []))
    check(_need("clrt_nn_sgd_step")(_q(p, who), _h(p, who), _h(g, who), _h(v, who), float(lr),
                                    float(momentum), float(weight_decay)))


def init_kaiming_uniform(w, b=None, seed=0):
    """PyTorch's default initialisation of a layer's w (out x fan_in) and b (1 x out)."""
    who = "clrt.nn.init_kaiming_uniform"
    check(_need("clrt_nn_init_kaiming_uniform")(_q(w, who), _h(_matrix(w, who), who), _h(b, who),
                                                int(seed)))


# ---- layers

class Module:
    def parameters(self):
        return []

    def __call__(self, x):
        return self.forward(x)


class Linear(Module):
    def __init__(self, in_features, out_features, dtype=np.float32, ctx=None, seed=0):
        from ._array import empty
        self.weight = empty((out_features, in_features), dtype, ctx)
        self.bias = empty((1, out_features), dtype, ctx)
        init_kaiming_uniform(self.weight, self.bias, seed)
        self.grads = [None, None]

    def parameters(self):
        return [(self.weight, self, 0), (self.bias, self, 1)]

    def forward(self, x):
        self.x = x
        return linear(x, self.weight, self.bias)

    def backward(self, dy, need_dx=True):
        dx, dw, db = linear_backward(dy, self.x, self.weight, need_dx)
        self.grads = [dw, db]
        return dx


class ReLU(Module):
    def forward(self, x):
        self.x = x
        return relu(x)

    def backward(self, dy, need_dx=True):
        return relu_backward(dy, self.x)


class Conv2d(Module):
    """PyTorch's Conv2d on images of image = (C, H, W), one image per row."""

    def __init__(self, image, out_channels, kernel, stride=1, padding=0, dtype=np.float32,
                 ctx=None, seed=0):
        from ._array import empty
        self.image, self.k, self.kernel, self.stride, self.padding = (
            tuple(image), out_channels, kernel, stride, padding)
        kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
        self.weight = empty((out_channels, image[0] * kh * kw), dtype, ctx)
        self.bias = empty((1, out_channels), dtype, ctx)
        init_kaiming_uniform(self.weight, self.bias, seed)
        oh, ow = conv2d_output(*image, out_channels, kernel, stride, padding)
        self.out_image = (out_channels, oh, ow)
        self.grads = [None, None]

    def parameters(self):
        return [(self.weight, self, 0), (self.bias, self, 1)]

    def forward(self, x):
        self.x = x
        return conv2d(x, self.weight, self.bias, self.image, self.k, self.kernel, self.stride,
                      self.padding)

    def backward(self, dy, need_dx=True):
        dx, dw, db = conv2d_backward(dy, self.x, self.weight, self.image, self.k, self.kernel,
                                     self.stride, self.padding, need_dx)
        self.grads = [dw, db]
        return dx


class MaxPool2d(Module):
    def __init__(self, image, size, stride=None):
        self.image, self.size, self.stride = tuple(image), size, stride or size
        oh, ow = pool2d_output(*image, size, self.stride)
        self.out_image = (image[0], oh, ow)

    def forward(self, x):
        y, self.argmax = maxpool2d(x, self.image, self.size, self.stride)
        return y

    def backward(self, dy, need_dx=True):
        return maxpool2d_backward(dy, self.argmax, self.image, self.size, self.stride)


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = layers

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def backward(self, dy):
        for i, layer in enumerate(reversed(self.layers)):
            dy = layer.backward(dy, need_dx=i < len(self.layers) - 1)
        return dy


class CrossEntropyLoss:
    """Mean softmax cross-entropy; backward() gives d loss / d logits of the last call."""

    def __call__(self, logits, labels):
        loss, self.grad = softmax_cross_entropy(logits, labels)
        return loss

    def backward(self):
        return self.grad


class SGD:
    """PyTorch's SGD (momentum, weight decay) over Module.parameters()."""

    def __init__(self, parameters, lr, momentum=0.0, weight_decay=0.0):
        from ._array import zeros
        self.params, self.lr, self.mu, self.wd = list(parameters), lr, momentum, weight_decay
        self.v = [zeros(p.shape, p.dtype, p.context) if momentum else None
                  for p, _, _ in self.params]

    def step(self):
        for (p, layer, i), v in zip(self.params, self.v):
            sgd_step(p, layer.grads[i], v, self.lr, self.mu, self.wd)
