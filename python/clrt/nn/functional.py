"""clrt.nn.functional: PyTorch's torch.nn.functional over clrt tensors (conv2d,
max_pool2d, linear, relu, cross_entropy, softmax, log_softmax, mse_loss, dropout, ...),
each with its gradient. The functions live in clrt._functional; this module is where
PyTorch code finds them (import clrt.nn.functional as F)."""
from .._functional import *  # noqa: F401,F403
# the names the layers and the article use, so that one missing fails at import
from .._functional import (conv2d, cross_entropy, dropout, flatten, l1_loss, linear,  # noqa: F401
                           log_softmax, max_pool2d, mse_loss, nll_loss, one_hot, relu, sigmoid,
                           softmax, tanh)
