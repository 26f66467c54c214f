"""clrt.nn: PyTorch's torch.nn over clrt tensors: Module, Parameter, the layers, the
losses, functional (F) and init.

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 20, 5)
            self.fc1 = nn.Linear(20 * 12 * 12, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            return self.fc1(x.view(-1, 20 * 12 * 12))

Layers take PyTorch's arguments and initialise as PyTorch does (from clrt's generator:
clrt.manual_seed makes it repeat); a state dict uses PyTorch's names and loads
PyTorch's. docs/python.md has the reference.
"""
from .._tensor import Parameter
from . import functional, init, utils
from .layers import (Conv2d, Dropout, Flatten, Identity, Linear, LogSoftmax, MaxPool2d,
                     ModuleList, ReLU, Sequential, Sigmoid, Softmax, Tanh)
from .loss import CrossEntropyLoss, MSELoss
from .module import Module

__all__ = ["Module", "Parameter", "Linear", "Conv2d", "MaxPool2d", "ReLU", "Sigmoid", "Tanh",
           "Softmax", "LogSoftmax", "Flatten", "Dropout", "Identity", "Sequential",
           "ModuleList", "CrossEntropyLoss", "MSELoss", "functional", "init", "utils"]
