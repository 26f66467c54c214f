"""clrt.autograd: backward and grad as functions (PyTorch's torch.autograd)."""
from ._autograd import backward, grad, no_grad, enable_grad, set_grad_enabled  # noqa: F401
