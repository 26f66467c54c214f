"""clrt.nn.utils: PyTorch's gradient clipping (clip_grad_norm_, clip_grad_value_), in
place on the parameters' .grad, on the device."""
import math

from .. import _create, _math
from . import _bridge as T

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _grads(parameters):
    if isinstance(parameters, T.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the gradients together so that their total norm (the norm of their norms)
    is at most max_norm (times max_norm / (total + 1e-6) when above); returns the total
    norm before clipping, a 0-d tensor."""
    grads = _grads(parameters)
    if not grads:
        return _create.tensor(0.0)
    norm_type = float(norm_type)
    with T.no_grad():
        if math.isinf(norm_type):
            norms = [g.abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else _math.stack(norms).max()
        else:
            norms = [(g.abs() ** norm_type).sum() ** (1.0 / norm_type) for g in grads]
            total = (_math.stack(norms).abs() ** norm_type).sum() ** (1.0 / norm_type)
        if error_if_nonfinite and not math.isfinite(total.item()):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                               "`parameters` is non-finite, so it cannot be clipped. To disable "
                               "this error and scale the gradients by the non-finite norm "
                               "anyway, set `error_if_nonfinite=False`")
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype) if coef.dtype != g.dtype else coef)
    return total


def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient element to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    with T.no_grad():
        for g in _grads(parameters):
            g.clamp_(min=-clip_value, max=clip_value)
