"""clrt.optim: SGD (momentum, dampening, Nesterov, weight decay, maximize), Adam and AdamW
(weight decay, amsgrad, maximize) against PyTorch's formulas written out in numpy
float64, and against PyTorch itself where it is importable; parameter groups,
zero_grad, state_dict/load_state_dict (PyTorch's too) and the refusals."""
import re

import numpy as np
import pytest

import clrt
import clrt.optim as optim
from nn_common import close, needs_torch, torch

DTYPES = [np.float32, np.float64]
SHAPES = [(7, 17), (65,), (3, 2, 5, 5)]  # a matrix, a bias, a convolution's weight


def sgd_reference(p, grads, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                  maximize=False):
    """PyTorch's SGD (torch/optim/sgd.py), step by step, in float64."""
    p, buf, out = p.astype(np.float64), None, []
    for g in grads:
        d = -g if maximize else g.astype(np.float64)
        if weight_decay:
            d = d + weight_decay * p
        if momentum:
            buf = d.copy() if buf is None else momentum * buf + (1 - dampening) * d
            d = d + momentum * buf if nesterov else buf
        p = p - lr * d
        out.append(p)
    return out


def adam_reference(p, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                   amsgrad=False, maximize=False, decoupled=False):
    """PyTorch's Adam and AdamW (torch/optim/adam.py, adamw.py), in float64."""
    b1, b2 = betas
    p = p.astype(np.float64)
    m, v, vmax, out = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p), []
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g.astype(np.float64)
        if decoupled:
            p = p * (1 - lr * weight_decay)
        elif weight_decay:
            g = g + weight_decay * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        if amsgrad:
            vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / np.sqrt(1 - b2 ** t) + eps
        p = p - lr / (1 - b1 ** t) * m / denom
        out.append(p)
    return out


SGD_CASES = [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.05, weight_decay=0.01),
             dict(lr=0.1, momentum=0.9, weight_decay=0.01),
             dict(lr=0.1, momentum=0.8, dampening=0.3),
             dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.02),
             dict(lr=0.1, momentum=0.5, maximize=True)]
ADAM_CASES = [dict(), dict(lr=0.01, weight_decay=0.1), dict(lr=0.01, amsgrad=True),
              dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, maximize=True),
              dict(lr=0.01, betas=(0.3, 0.9))]  # 1 - beta1 over 0.5: lerp's other form


def run_steps(make, params, grads_per_step):
    """Each step's parameter values after setting the gradients and stepping."""
    opt = make([p for p in params])
    seen = []
    for grads in grads_per_step:
        for p, g in zip(params, grads):
            p.grad = clrt.from_numpy(g)
        opt.step()
        seen.append([p.detach().numpy() for p in params])
    return opt, seen


def problem(rng, dtype, steps=4):
    """Parameters of SHAPES and a gradient for each at each step."""
    init = [rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES]
    grads = [[rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES] for _ in range(steps)]
    params = [clrt.nn.Parameter(clrt.from_numpy(x)) for x in init]
    return init, grads, params


def check_against(reference, seen, init, grads, dtype):
    for i, x in enumerate(init):
        want = reference(x, [g[i] for g in grads])
        for step, values in enumerate(seen):
            close(values[i], want[step], dtype, rtol=1e-12 if dtype == np.float64 else 1e-5,
                  atol=1e-14 if dtype == np.float64 else 1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", range(len(SGD_CASES)))
def test_sgd_is_pytorchs_formula(case, dtype, rng):
    kw = SGD_CASES[case]
    init, grads, params = problem(rng, dtype)
    _, seen = run_steps(lambda ps: optim.SGD(ps, **kw), params, grads)
    check_against(lambda x, gs: sgd_reference(x, gs, **kw), seen, init, grads, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cls", ["Adam", "AdamW"])
@pytest.mark.parametrize("case", range(len(ADAM_CASES)))
def test_adam_is_pytorchs_formula(case, cls, dtype, rng):
    kw = dict(ADAM_CASES[case])
    if cls == "AdamW":
        kw.setdefault("weight_decay", 1e-2)
    init, grads, params = problem(rng, dtype)
    _, seen = run_steps(lambda ps: getattr(optim, cls)(ps, **kw), params, grads)
    check_against(lambda x, gs: adam_reference(x, gs, decoupled=cls == "AdamW", **kw), seen,
                  init, grads, dtype)


@needs_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("which", [("SGD", c) for c in SGD_CASES] +
                         [("Adam", c) for c in ADAM_CASES] + [("AdamW", c) for c in ADAM_CASES])
def test_against_pytorch(which, dtype, rng):
    name, kw = which
    init, grads, params = problem(rng, dtype, steps=5)
    _, seen = run_steps(lambda ps: getattr(optim, name)(ps, **kw), params, grads)
    tparams = [torch.nn.Parameter(torch.from_numpy(x.copy())) for x in init]
    topt = getattr(torch.optim, name)(tparams, **kw)
    for step, gs in enumerate(grads):
        for p, g in zip(tparams, gs):
            p.grad = torch.from_numpy(g)
        topt.step()
        for got, p in zip(seen[step], tparams):
            close(got, p, dtype, rtol=1e-11 if dtype == np.float64 else 2e-5,
                  atol=1e-13 if dtype == np.float64 else 2e-6)


def test_groups_skip_and_zero_grad(rng):
    a, b, c = (clrt.nn.Parameter(clrt.from_numpy(rng.uniform(-1, 1, 5))) for _ in range(3))
    opt = optim.SGD([{"params": [a]}, {"params": [b, c], "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["momentum"] == 0.9 and opt.param_groups[1]["dampening"] == 0
    before = [p.detach().numpy() for p in (a, b, c)]
    ga, gb = rng.uniform(-1, 1, 5), rng.uniform(-1, 1, 5)
    a.grad, b.grad = clrt.from_numpy(ga), clrt.from_numpy(gb)
    opt.step()
    close(a, before[0] - 0.1 * ga, np.float64)
    close(b, before[1] - 0.5 * gb, np.float64)
    np.testing.assert_array_equal(c.detach().numpy(), before[2])  # no gradient: untouched
    assert c not in opt.state and set(map(id, opt.state)) == {id(a), id(b)}
    opt.zero_grad(set_to_none=False)
    assert not a.grad.numpy().any() and c.grad is None
    opt.zero_grad()
    assert a.grad is None and b.grad is None
    d = clrt.nn.Parameter(clrt.zeros(2))
    opt.add_param_group({"params": d, "lr": 1.0})
    assert opt.param_groups[2]["params"] == [d] and opt.param_groups[2]["momentum"] == 0.9
    loss = opt.step(lambda: 42)
    assert loss == 42
    assert repr(optim.SGD([d], lr=0.1)) == ("SGD (\nParameter Group 0\n    dampening: 0\n"
                                            "    lr: 0.1\n    maximize: False\n    momentum: 0\n"
                                            "    nesterov: False\n    weight_decay: 0\n)")


def test_state_dict_round_trip(rng):
    init, grads, _ = problem(rng, np.float32, steps=4)
    for make in (lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
                 lambda ps: optim.Adam(ps, lr=0.01, amsgrad=True)):
        params = [clrt.nn.Parameter(clrt.from_numpy(x)) for x in init]
        copies = [clrt.nn.Parameter(clrt.from_numpy(x)) for x in init]
        opt, _ = run_steps(make, params, grads[:2])
        sd = opt.state_dict()
        assert sorted(sd) == ["param_groups", "state"]
        assert sd["param_groups"][0]["params"] == [0, 1, 2] and sorted(sd["state"]) == [0, 1, 2]
        # the copies take the values and the state, then both go on alike
        for p, c in zip(params, copies):
            c.data.copy_(p.detach())
        other = make(copies)
        other.load_state_dict(sd)
        assert other.param_groups[0]["params"] == copies
        for grads_now in grads[2:]:
            for ps in (params, copies):
                for p, g in zip(ps, grads_now):
                    p.grad = clrt.from_numpy(g)
            opt.step()
            other.step()
        for p, c in zip(params, copies):
            np.testing.assert_array_equal(p.detach().numpy(), c.detach().numpy())


@needs_torch
@pytest.mark.parametrize("name,kw", [("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1)),
                                     ("Adam", dict(lr=0.01, weight_decay=0.01))])
def test_loads_pytorchs_optimizer_state(name, kw, rng):
    """Two steps in PyTorch, its state loaded here, two more on each side: the same."""
    init, grads, _ = problem(rng, np.float64, steps=4)
    tparams = [torch.nn.Parameter(torch.from_numpy(x.copy())) for x in init]
    topt = getattr(torch.optim, name)(tparams, **kw)
    for gs in grads[:2]:
        for p, g in zip(tparams, gs):
            p.grad = torch.from_numpy(g)
        topt.step()
    params = [clrt.nn.Parameter(clrt.from_numpy(p.detach().numpy().copy())) for p in tparams]
    opt = getattr(optim, name)(params, **kw)
    opt.load_state_dict(topt.state_dict())
    for gs in grads[2:]:
        for ps, make in ((tparams, torch.from_numpy), (params, clrt.from_numpy)):
            for p, g in zip(ps, gs):
                p.grad = make(g)
        topt.step()
        opt.step()
    for p, pt in zip(params, tparams):
        close(p, pt, np.float64, rtol=1e-12)


def test_refusals():
    p = clrt.nn.Parameter(clrt.zeros(3))
    with pytest.raises(ValueError, match="Invalid learning rate: -1"):
        optim.SGD([p], lr=-1)
    with pytest.raises(ValueError, match="Invalid momentum value: -0.5"):
        optim.SGD([p], momentum=-0.5)
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum and zero dampening"):
        optim.SGD([p], nesterov=True)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 1: 1.0"):
        optim.Adam([p], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="Invalid epsilon value: -1e-08"):
        optim.Adam([p], eps=-1e-8)
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts"):
        optim.SGD(p, lr=0.1)
    with pytest.raises(TypeError, match="optimizer can only optimize Tensors"):
        optim.SGD([p, 3.0], lr=0.1)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([p * 2], lr=0.1)
    opt = optim.SGD([p], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt.load_state_dict({"state": {}, "param_groups": []})
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        opt.load_state_dict({"state": {}, "param_groups": [{"lr": 0.1, "params": [0, 1]}]})
    p.grad = clrt.zeros(4)
    with pytest.raises(RuntimeError, match=r"shape \(3,\) has shape \(4,\)"):
        opt.step()


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW"])
def test_refuses_bad_options(name):
    """Every option the optimizers check, at construction (PyTorch's ValueError and text)."""
    make = getattr(optim, name)
    p = clrt.nn.Parameter(clrt.zeros(3))
    for kw, why in ((dict(lr=-0.1), "Invalid learning rate: -0.1"),
                    (dict(lr=float("nan")), "Invalid learning rate: nan"),
                    (dict(lr=True), "Invalid learning rate: True"),
                    (dict(weight_decay=-1e-4), "Invalid weight_decay value: -0.0001")):
        with pytest.raises(ValueError, match=why):
            make([p], **kw)
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        make([p], differentiable=True)
    if name == "SGD":
        with pytest.raises(ValueError, match="Nesterov momentum requires"):
            make([p], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)
        with pytest.raises(ValueError, match="Nesterov momentum requires"):  # before the list's
            make([], lr=0.1, nesterov=True)
        opt = make([p], lr=0.1, momentum=0.9, nesterov=True)
        with pytest.raises(ValueError, match="Nesterov momentum requires"):  # a group's own
            opt.add_param_group({"params": [clrt.nn.Parameter(clrt.zeros(2))], "momentum": 0})
        assert len(opt.param_groups) == 1
        return
    for betas, why in (((-0.1, 0.999), "Invalid beta parameter at index 0: -0.1"),
                       ((1.0, 0.999), "Invalid beta parameter at index 0: 1.0"),
                       ((0.9, -0.5), "Invalid beta parameter at index 1: -0.5")):
        with pytest.raises(ValueError, match=re.escape(why)):
            make([p], betas=betas)


def test_refuses_bad_groups_and_operands(rng):
    p = clrt.nn.Parameter(clrt.zeros(3))
    with pytest.raises(ValueError, match="a parameter group holds a parameter twice"):
        optim.SGD([p, p], lr=0.1)
    with pytest.raises(TypeError, match="param_group must be a dict"):
        optim.SGD([p], lr=0.1).add_param_group([p])
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": {p}}], lr=0.1)
    # each path of a step (the library's SGD, this package's SGD and Adam kernels) refuses
    # a gradient of another dtype, an integer parameter and one not laid out in order,
    # and leaves the parameter as it was
    forms = (lambda ps: optim.SGD(ps, lr=0.1), lambda ps: optim.Adam(ps),
             lambda ps: optim.SGD(ps, lr=0.1, momentum=0.5, nesterov=True))
    ints = clrt.nn.Parameter(clrt.from_numpy(np.arange(3, dtype=np.int32)), requires_grad=False)
    w = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    strided = clrt.nn.Parameter(clrt.from_numpy(w).t())
    assert strided.is_leaf and not strided.is_contiguous()
    for make in forms:
        p.grad = clrt.zeros(3, dtype=clrt.float64)
        with pytest.raises(TypeError, match="the gradient is (clrt.)?float64 and the parameter "
                                            "(clrt.)?float32"):
            make([p]).step()
        np.testing.assert_array_equal(p.detach().numpy(), np.zeros(3, np.float32))
        ints.grad = clrt.from_numpy(np.ones(3, dtype=np.int32))
        with pytest.raises(TypeError, match="a (clrt.)?int32 parameter; optimizers update "
                                            "floating-point ones"):
            make([ints]).step()
        np.testing.assert_array_equal(ints.numpy(), np.arange(3))
        strided.grad = clrt.ones(3, 4)
        with pytest.raises(RuntimeError, match=r"a non-contiguous parameter \(of shape \(3, 4\)\)"):
            make([strided]).step()
        np.testing.assert_array_equal(strided.detach().numpy(), w.T)


@pytest.mark.parametrize("form", ["SGD", "SGD-nesterov", "Adam", "Adam-amsgrad"])
def test_refuses_a_state_not_laid_out_as_its_parameter(form, rng):
    """A loaded (or assigned) state tensor of another shape, dtype or layout is refused at
    the step, the parameter left as it was (the kernels would run past its end)."""
    name, _, variant = form.partition("-")
    kw = {"SGD": dict(lr=0.1, momentum=0.9, nesterov=variant == "nesterov"),
          "Adam": dict(amsgrad=variant == "amsgrad")}[name]
    key = {"SGD": "momentum_buffer", "Adam": "max_exp_avg_sq" if variant else "exp_avg"}[name]
    w = rng.uniform(-1, 1, 1000).astype(np.float32)
    p = clrt.nn.Parameter(clrt.from_numpy(w))
    p.grad = clrt.ones(1000)
    first = getattr(optim, name)([p], **kw)
    first.step()
    w = p.detach().numpy()
    for bad in (clrt.zeros(3), clrt.zeros(1000, dtype=clrt.float64),
                clrt.zeros(1000, 2)[:, 0]):
        sd = first.state_dict()
        sd["state"][0] = dict(sd["state"][0], **{key: bad})
        opt = getattr(optim, name)([p], **kw)
        opt.load_state_dict(sd)
        opt.state[p][key] = bad  # assigned as it is (load converts the dtype and the layout)
        with pytest.raises(RuntimeError, match=f"the state {key} of a parameter of shape "
                                               r"\(1000,\) and dtype"):
            opt.step()
        np.testing.assert_array_equal(p.detach().numpy(), w)
    # what load_state_dict makes of a float64 or strided state is the parameter's layout
    sd = first.state_dict()
    sd["state"][0] = dict(sd["state"][0], **{key: clrt.zeros(1000, 2, dtype=clrt.float64)[:, 1]})
    opt = getattr(optim, name)([p], **kw)
    opt.load_state_dict(sd)
    assert opt.state[p][key].dtype == clrt.float32 and opt.state[p][key].is_contiguous()
    opt.step()


SCHEDULES = {
    "StepLR": (dict(step_size=3, gamma=0.5), lambda t: 0.1 * 0.5 ** (t // 3)),
    "MultiStepLR": (dict(milestones=[2, 5, 5], gamma=0.1), lambda t: 0.1 * 0.1 ** sum(m <= t for m in (2, 5, 5))),
    "ExponentialLR": (dict(gamma=0.9), lambda t: 0.1 * 0.9 ** t),
    "CosineAnnealingLR": (dict(T_max=5, eta_min=0.01),
                          lambda t: 0.01 + 0.09 * (1 + np.cos(np.pi * t / 5)) / 2),
    "LambdaLR": (dict(lr_lambda=lambda t: 1 / (1 + t)), lambda t: 0.1 / (1 + t)),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_lr_schedulers(name):
    kw, closed = SCHEDULES[name]
    opt = optim.SGD([clrt.nn.Parameter(clrt.zeros(2))], lr=0.1)
    sched = getattr(optim.lr_scheduler, name)(opt, **kw)
    seen = []
    for t in range(12):
        seen.append(opt.param_groups[0]["lr"])
        assert sched.get_last_lr() == [seen[-1]]
        opt.step()
        sched.step()
    horizon = 6 if name == "CosineAnnealingLR" else 12  # then it climbs back, as PyTorch's
    np.testing.assert_allclose(seen[:horizon], [closed(t) for t in range(horizon)], rtol=1e-12)
    state = sched.state_dict()
    assert state["last_epoch"] == 12 and "optimizer" not in state
    if torch is not None:
        topt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.1)
        tsched = getattr(torch.optim.lr_scheduler, name)(topt, **kw)
        want = []
        for t in range(12):
            want.append(topt.param_groups[0]["lr"])
            topt.step()
            tsched.step()
        np.testing.assert_allclose(seen, want, rtol=1e-12)


def test_lr_schedulers_refuse_what_pytorchs_do():
    opt = optim.SGD([clrt.nn.Parameter(clrt.zeros(2))], lr=0.1)
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        optim.lr_scheduler.StepLR([], step_size=2)
    with pytest.raises(KeyError, match=r"param 'initial_lr' is not specified in param_groups\[0\] "
                                       "when resuming an optimizer"):
        optim.lr_scheduler.ExponentialLR(opt, gamma=0.5, last_epoch=3)
    assert opt.param_groups[0]["lr"] == 0.1
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        optim.lr_scheduler.LambdaLR(opt, [lambda t: 1.0, lambda t: 0.5])
    # resuming: a scheduler made with last_epoch goes on from the saved initial_lr
    sched = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    for _ in range(3):
        opt.step()
        sched.step()
    again = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5, last_epoch=sched.last_epoch)
    assert again.base_lrs == [0.1] and opt.param_groups[0]["lr"] == pytest.approx(0.1 * 0.5 ** 4)
