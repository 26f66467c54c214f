"""The losses: modules around clrt.nn.functional's, with PyTorch's arguments and repr."""
from . import functional as F
from .module import Module

__all__ = ["CrossEntropyLoss", "MSELoss"]

_REDUCTIONS = ("none", "mean", "sum")


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            # PyTorch's deprecated pair, mapped as it maps them
            size_average = True if size_average is None else size_average
            reduce = True if reduce is None else reduce
            reduction = "none" if not reduce else "mean" if size_average else "sum"
        if reduction not in _REDUCTIONS:
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction = reduction


class CrossEntropyLoss(_Loss):
    """Softmax cross-entropy of logits (N x C) against class indices (N; int64 as
    PyTorch's, int32 too): the mean over the batch (reduction="mean"), the sum ("sum")
    or each row's ("none"). A target outside 0..C-1 is an IndexError naming it."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(size_average, reduce, reduction)
        if weight is not None or ignore_index != -100 or label_smoothing != 0.0:
            raise NotImplementedError("CrossEntropyLoss: weight, ignore_index and "
                                      "label_smoothing are not supported by clrt")
        self.weight, self.ignore_index, self.label_smoothing = None, ignore_index, 0.0

    def forward(self, input, target):
        return F.cross_entropy(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """The mean ("mean"), sum ("sum") or each ("none") of (input - target)^2."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)
