"""optim.SGD: PyTorch's stochastic gradient descent, one device kernel per tensor."""
from ..nn import _bridge as T
from . import _kernels
from .optimizer import Optimizer, _check_number

__all__ = ["SGD"]


class SGD(Optimizer):
    """PyTorch's SGD: for each parameter p with a gradient g,
        d = g (-g with maximize) + weight_decay * p
        with momentum: buf = d on the first step, else momentum * buf + (1 - dampening) * d,
                       and d = d + momentum * buf (nesterov) or buf
        p = p - lr * d
    state["momentum_buffer"] holds buf, as in PyTorch."""

    _kernel_name = "sgd_step"

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 *, maximize=False, foreach=None, differentiable=False, fused=None):
        _check_number(lr, "learning rate")
        _check_number(momentum, "momentum value")
        _check_number(weight_decay, "weight_decay value")
        if differentiable:
            raise NotImplementedError("SGD: differentiable=True is not supported by clrt")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize)
        self._check_group(defaults)  # before the parameters' checks, as PyTorch's
        self._ready = {}
        super().__init__(params, defaults)

    def _check_group(self, group):
        if group["nesterov"] and (group["momentum"] <= 0 or group["dampening"] != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")

    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns closure()'s loss."""
        loss = self._closure(closure)
        with T.no_grad():
            for group in self.param_groups:
                library = group["dampening"] == 0 and not group["nesterov"] and \
                    not group["maximize"]
                for p in group["params"]:
                    g = p.grad
                    if g is None:
                        continue
                    if library:
                        self._library_update(p, g, group)
                    else:
                        self._kernel_update(p, g, group)
        return loss

    def _library_update(self, p, g, group):
        """The library's kernel, v = mu v + g + wd p from zero (PyTorch's buf from its
        first step on); what does not change between steps is kept per parameter."""
        mu = group["momentum"]
        ready = self._ready.get(id(p))
        state = self.state[p]
        if ready is None or not ready.fits(p, state, mu):
            g = T.check_step_operands("SGD", p, g)
            T.check_state("SGD", p, state)
            if mu != 0 and state.get("momentum_buffer") is None:
                state["momentum_buffer"] = T.zeros_like(p)
            ready = self._ready[id(p)] = _kernels.LibraryStep(p, state.get("momentum_buffer")
                                                              if mu != 0 else None)
        elif not T.same_layout(g, p):
            g = T.check_step_operands("SGD", p, g)
        ready.run(g, group["lr"], mu, group["weight_decay"])

    def _kernel_update(self, p, g, group):
        """The other forms (dampening, Nesterov, maximize): this module's kernel."""
        g = T.check_step_operands("SGD", p, g)
        mu = group["momentum"]
        T.check_state("SGD", p, self.state[p])
        state = self.state[p]
        buf = state.get("momentum_buffer") if mu != 0 else None
        first = mu != 0 and buf is None
        if first:
            buf = state["momentum_buffer"] = T.empty_like(p)
        _kernels.sgd_kernel(self._launch(p), p, g, buf, group["lr"], mu, group["dampening"],
                            group["weight_decay"], group["nesterov"], group["maximize"], first)
        T.bump_version(p)
        if buf is not None:
            T.bump_version(buf)
