"""clrt.optim: PyTorch's optimizers (SGD, Adam, AdamW) over clrt tensors.

    optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    optimizer.zero_grad(); loss.backward(); optimizer.step()

Each step updates a parameter with one device kernel (the library's SGD, or a kernel
of clrt.optim._kernels), PyTorch's formulas in the parameter's dtype;
optim.lr_scheduler has PyTorch's StepLR, MultiStepLR, ExponentialLR,
CosineAnnealingLR and LambdaLR.
"""
from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "lr_scheduler"]
