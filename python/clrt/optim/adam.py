"""optim.Adam and optim.AdamW: PyTorch's formulas, one device kernel per tensor."""
from ..nn import _bridge as T
from . import _kernels
from .optimizer import Optimizer, _check_number

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """PyTorch's Adam: at step t, for each parameter p with gradient g,
        g = g (-g with maximize) + weight_decay * p
        m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
        (amsgrad: vmax = max(vmax, v) in place of v)
        p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
    state: "step" (a float), "exp_avg" (m), "exp_avg_sq" (v), "max_exp_avg_sq" (vmax)."""

    _decoupled = False
    _kernel_name = "adam_step"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        _check_number(lr, "learning rate")
        _check_number(eps, "epsilon value")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        _check_number(weight_decay, "weight_decay value")
        if differentiable:
            raise NotImplementedError(f"{type(self).__name__}: differentiable=True is not "
                                      "supported by clrt")
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize)
        super().__init__(params, defaults)

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns closure()'s loss."""
        loss = self._closure(closure)
        with T.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    g = p.grad
                    if g is not None:
                        self._update(p, g, group)
        return loss

    def _update(self, p, g, group):
        g = T.check_step_operands(type(self).__name__, p, g)
        state = self.state[p]
        T.check_state(type(self).__name__, p, state)
        if not state:
            state["step"] = 0.0
            state["exp_avg"] = T.zeros_like(p)
            state["exp_avg_sq"] = T.zeros_like(p)
        if group["amsgrad"] and "max_exp_avg_sq" not in state:
            state["max_exp_avg_sq"] = T.zeros_like(p)
        state["step"] = float(state["step"]) + 1
        beta1, beta2 = group["betas"]
        _kernels.adam_kernel(self._launch(p), p, g, state["exp_avg"], state["exp_avg_sq"],
                             state.get("max_exp_avg_sq") if group["amsgrad"] else None,
                             step=state["step"], lr=group["lr"], beta1=beta1, beta2=beta2,
                             eps=group["eps"], weight_decay=group["weight_decay"],
                             decoupled=self._decoupled, amsgrad=group["amsgrad"],
                             maximize=group["maximize"])
        for t in (p, state["exp_avg"], state["exp_avg_sq"], state.get("max_exp_avg_sq")):
            if t is not None:
                T.bump_version(t)

    def _export_state(self, s):
        # PyTorch keeps the step count as a 0-d float32 tensor
        return dict(s, step=T.scalar_tensor(float(s["step"]))) if "step" in s else dict(s)

    def _import_state(self, p, s):
        out = super()._import_state(p, {k: v for k, v in s.items() if k != "step"})
        if "step" in s:
            out["step"] = T.to_float(s["step"])
        return out


class AdamW(Adam):
    """PyTorch's AdamW: Adam with the weight decay decoupled, p = p * (1 - lr *
    weight_decay) before the update (and not added to g); weight_decay defaults to 0.01."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         differentiable=differentiable)
