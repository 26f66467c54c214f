"""clrt.utils: data loading (clrt.utils.data), as PyTorch's torch.utils."""
from . import data

__all__ = ["data"]
