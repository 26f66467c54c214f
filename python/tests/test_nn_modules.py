"""nn.Module's machinery as PyTorch's: registration by assignment, the walks
(parameters, named_parameters, children, modules), train/eval, zero_grad, to/double,
state_dict and load_state_dict (PyTorch's names and messages), repr, and the layers'
signatures, initialisation and refusals."""
import collections
import math

import numpy as np
import pytest

import clrt
import clrt.nn as nn
import clrt.nn.functional as F
from nn_common import article_net_code, needs_torch, torch

NET_REPR = """Net(
  (conv1): Conv2d(1, 20, kernel_size=(5, 5), stride=(1, 1))
  (pool): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
  (conv2): Conv2d(20, 50, kernel_size=(5, 5), stride=(1, 1))
  (fc1): Linear(in_features=800, out_features=500, bias=True)
  (fc2): Linear(in_features=500, out_features=10, bias=True)
)"""
NAMES = ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "fc1.weight", "fc1.bias",
         "fc2.weight", "fc2.bias"]
SHAPES = [(20, 1, 5, 5), (20,), (50, 20, 5, 5), (50,), (500, 800), (500,), (10, 500), (10,)]


def article_net(nn_module=nn, F_module=F):
    """A new instance of the article's Net, built by the article's own text."""
    ns = {"nn": nn_module, "F": F_module}
    exec(article_net_code(), ns)
    return ns["Net"]()


def test_article_net_registers_as_pytorch():
    net = article_net()
    assert [n for n, _ in net.named_parameters()] == NAMES
    assert [tuple(p.shape) for p in net.parameters()] == SHAPES
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in net.parameters())
    assert [type(m).__name__ for m in net.children()] == ["Conv2d", "MaxPool2d", "Conv2d",
                                                          "Linear", "Linear"]
    assert [n for n, _ in net.named_modules()] == ["", "conv1", "pool", "conv2", "fc1", "fc2"]
    assert list(net.modules())[0] is net
    assert [n for n, _ in net.named_children()] == ["conv1", "pool", "conv2", "fc1", "fc2"]
    assert list(net.state_dict()) == NAMES
    assert repr(net) == NET_REPR
    assert net.get_parameter("fc2.bias") is net.fc2.bias
    assert net.get_submodule("conv2") is net.conv2


@needs_torch
def test_article_net_repr_and_names_match_pytorch():
    ref = article_net(torch.nn, torch.nn.functional)
    net = article_net()
    assert repr(net) == repr(ref)
    assert list(net.state_dict()) == list(ref.state_dict())
    for layer in (nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.Linear(4, 2, bias=False),
                  nn.MaxPool2d(3), nn.MaxPool2d(3, 1), nn.ReLU(), nn.Flatten(), nn.Dropout(0.25),
                  nn.CrossEntropyLoss(), nn.MSELoss(reduction="sum"),
                  nn.Sequential(nn.Linear(3, 4), nn.ReLU()), nn.Softmax(dim=1), nn.Identity()):
        args = {"Conv2d": (3, 8, 3), "Linear": (4, 2), "MaxPool2d": (3,)}
        name = type(layer).__name__
        kwargs = {"Conv2d": dict(stride=2, padding=1, bias=False), "Linear": dict(bias=False),
                  "Dropout": dict(p=0.25), "MSELoss": dict(reduction="sum"),
                  "Softmax": dict(dim=1)}.get(name, {})
        if name == "MaxPool2d" and layer.stride == 1:
            kwargs = dict(stride=1)
        if name == "Sequential":
            ref_layer = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())
        else:
            ref_layer = getattr(torch.nn, name)(*args.get(name, ()), **kwargs)
        assert repr(layer) == repr(ref_layer)


def test_init_is_pytorchs_and_seeded():
    clrt.manual_seed(3)
    net = article_net()
    for name, p in net.named_parameters():
        fan_in = {"conv1": 25, "conv2": 500, "fc1": 800, "fc2": 500}[name.split(".")[0]]
        bound = 1 / math.sqrt(fan_in)
        v = p.detach().numpy().astype(np.float64)
        assert v.dtype == np.float64 and np.abs(v).max() <= bound
        if v.size >= 500:  # uniform: mean 0, standard deviation bound / sqrt(3)
            assert abs(v.mean()) < 0.1 * bound
            assert abs(v.std() - bound / math.sqrt(3)) < 0.05 * bound
    clrt.manual_seed(3)
    again = article_net()
    clrt.manual_seed(4)
    other = article_net()
    for a, b, c in zip(net.parameters(), again.parameters(), other.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
        assert not np.array_equal(a.detach().numpy(), c.detach().numpy())


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 3)
        self.b = self.a  # one module under two names
        self.scale = nn.Parameter(clrt.ones(1))
        self.register_buffer("steps", clrt.zeros(1))
        self.register_buffer("scratch", clrt.zeros(2), persistent=False)
        self.plain = 5

    def forward(self, x):
        return self.b(self.a(x)) * self.scale


def test_registration_rules():
    m = Shared()
    assert [n for n, _ in m.named_parameters()] == ["scale", "a.weight", "a.bias"]
    assert len(list(m.named_parameters(remove_duplicate=False))) == 5
    assert [n for n, _ in m.named_buffers()] == ["steps", "scratch"]
    assert list(m.state_dict()) == ["scale", "steps", "a.weight", "a.bias", "b.weight", "b.bias"]
    assert [n for n, _ in m.named_modules()] == ["", "a"]
    m.scale = None  # a parameter slot takes a Parameter or None
    assert [n for n, _ in m.named_parameters()] == ["a.weight", "a.bias"]
    with pytest.raises(TypeError, match="cannot assign 'clrt.*Tensor' as parameter 'scale'"):
        m.scale = clrt.ones(1)
    with pytest.raises(TypeError, match="cannot assign 'int' as child module 'a'"):
        m.a = 3
    del m.b
    assert [n for n, _ in m.named_children()] == ["a"]
    with pytest.raises(AttributeError, match="'Shared' object has no attribute 'b'"):
        m.b
    m.plain = nn.ReLU()  # an attribute becomes a submodule
    assert [n for n, _ in m.named_children()] == ["a", "plain"]
    with pytest.raises(KeyError, match='t contain "."'):
        m.register_parameter("x.y", None)
    m.other = 5
    with pytest.raises(KeyError, match="attribute 'other' already exists"):
        m.register_parameter("other", None)

    class Early(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(2, 2)
            super().__init__()

    with pytest.raises(AttributeError, match=r"cannot assign module before Module.__init__\(\) call"):
        Early()
    with pytest.raises(NotImplementedError, match='missing the required "forward" function'):
        nn.Module()(clrt.ones(1))


def test_registration_refusals():
    """Each refusal of the registration calls, with PyTorch's exception and text; a
    refused call registers nothing."""
    m = Shared()
    before = (list(m.state_dict()), [n for n, _ in m.named_children()])
    cases = [
        (TypeError, "parameter name should be a string. Got int",
         lambda: m.register_parameter(3, None)),
        (KeyError, "buffer name can.{1,2}t be empty string", lambda: m.register_buffer("", None)),
        (KeyError, 'module name can.{1,2}t contain "."', lambda: m.add_module("x.y", nn.ReLU())),
        (KeyError, "attribute 'plain' already exists", lambda: m.register_buffer("plain", None)),
        (KeyError, "attribute 'scale' already exists", lambda: m.add_module("scale", nn.ReLU())),
        (KeyError, "attribute 'a' already exists", lambda: m.register_parameter("a", None)),
        (TypeError, r"cannot assign 'int' object to parameter 'p' \(clrt.nn.Parameter or None",
         lambda: m.register_parameter("p", 1)),
        (TypeError, r"cannot assign 'list' object to buffer 'q' \(clrt.Tensor or None",
         lambda: m.register_buffer("q", [1.0])),
        (TypeError, "int is not a Module subclass", lambda: m.add_module("r", 7)),
        (TypeError, "cannot assign 'float' as buffer 'steps'", lambda: setattr(m, "steps", 1.5)),
        (AttributeError, "Linear has no attribute `conv`", lambda: m.get_submodule("a.conv")),
        (AttributeError, "`plain` is not an nn.Module", lambda: m.get_submodule("plain")),
        (AttributeError, "Linear has no attribute `gain`", lambda: m.get_parameter("a.gain")),
        (AttributeError, "`steps` is not an nn.Parameter", lambda: m.get_parameter("steps")),
        (TypeError, r"Module.__init__\(\) takes no arguments", lambda: nn.Module(1)),
    ]
    for kind, why, call in cases:
        with pytest.raises(kind, match=why):
            call()
    assert (list(m.state_dict()), [n for n, _ in m.named_children()]) == before
    assert m.get_submodule("a") is m.a and m.get_parameter("a.bias") is m.a.bias
    m.register_buffer("steps", None)  # a slot's own name is taken again
    assert "steps" not in m.state_dict()

    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(clrt.ones(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Early()


def test_train_eval_and_dropout():
    net = nn.Sequential(nn.Linear(50, 50), nn.Dropout(0.5))
    assert net.training and all(m.training for m in net.modules())
    assert net.eval() is net and not any(m.training for m in net.modules())
    x = clrt.ones(40, 50)
    with clrt.no_grad():
        y_eval = net(x).numpy()
        np.testing.assert_allclose(y_eval, net[0](x).numpy())
        net.train()
        y = net(x).numpy()
    dropped = y == 0
    assert 0.35 < dropped.mean() < 0.65  # p = 0.5 of 2000 values
    np.testing.assert_allclose(y[~dropped], 2 * y_eval[~dropped], rtol=1e-6)  # scaled by 1/(1-p)
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        nn.Dropout(1.5)


def test_zero_grad_and_requires_grad():
    net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    net(clrt.randn(5, 4)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.numpy().any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_to_double_keeps_the_parameters():
    net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    params = list(net.parameters())
    before = [p.detach().numpy() for p in params]
    assert net.to(clrt.device()) is net and list(net.parameters()) == params
    net.double()
    assert all(p.dtype == clrt.float64 for p in net.parameters())
    assert all(a is b for a, b in zip(params, net.parameters()))  # the objects kept
    for p, b in zip(params, before):
        np.testing.assert_array_equal(p.detach().numpy(), b.astype(np.float64))
    assert net(clrt.randn(2, 4, dtype=clrt.float64)).dtype == clrt.float64
    net.float()
    assert all(p.dtype == clrt.float32 for p in net.parameters())
    with pytest.raises(TypeError, match="only accepts floating point dtypes"):
        net.to(clrt.int32)


def test_state_dict_round_trip_and_sharing():
    clrt.manual_seed(0)
    a, b = article_net(), article_net()
    x = clrt.randn(3, 1, 28, 28)
    with clrt.no_grad():
        assert not np.allclose(a(x).numpy(), b(x).numpy())
        sd = a.state_dict()
        assert all(not t.requires_grad for t in sd.values())
        result = b.load_state_dict(sd)
        assert result.missing_keys == [] and result.unexpected_keys == []
        np.testing.assert_array_equal(a(x).numpy(), b(x).numpy())
        sd["fc2.bias"].fill_(7.0)  # the state dict's tensors are the module's memory
    np.testing.assert_array_equal(a.fc2.bias.detach().numpy(), np.full(10, 7.0, np.float32))
    # numpy arrays load too, converted to the parameter's dtype
    b.load_state_dict({k: v.numpy().astype(np.float64) for k, v in a.state_dict().items()})
    np.testing.assert_array_equal(b.fc2.bias.detach().numpy(), np.full(10, 7.0, np.float32))


def test_load_state_dict_errors_name_every_problem():
    net = article_net()
    good = {k: v.numpy() for k, v in net.state_dict().items()}
    before = net.fc1.weight.detach().numpy()
    bad = dict(good)
    del bad["conv1.bias"], bad["fc2.weight"]
    bad["fc3.weight"] = np.zeros(3, np.float32)
    bad["fc1.weight"] = np.zeros((500, 700), np.float32)
    with pytest.raises(RuntimeError) as e:
        net.load_state_dict(bad)
    assert str(e.value) == (
        'Error(s) in loading state_dict for Net:\n'
        '\tMissing key(s) in state_dict: "conv1.bias", "fc2.weight". \n'
        '\tUnexpected key(s) in state_dict: "fc3.weight". \n'
        '\tsize mismatch for fc1.weight: copying a param with shape clrt.Size([500, 700]) from '
        'checkpoint, the shape in current model is clrt.Size([500, 800]).')
    np.testing.assert_array_equal(net.fc1.weight.detach().numpy(), before)  # nothing written
    del bad["fc1.weight"]
    missing, unexpected = net.load_state_dict(bad, strict=False)
    assert missing == ["conv1.bias", "fc1.weight", "fc2.weight"] and unexpected == ["fc3.weight"]
    with pytest.raises(RuntimeError, match='expected clrt.Tensor, a numpy array or a Tensor-like '
                                           'object from checkpoint but received'):
        net.load_state_dict(dict(good, **{"fc2.bias": "zeros"}))
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        net.load_state_dict([1, 2])


@needs_torch
def test_loads_a_pytorch_state_dict():
    torch.manual_seed(0)
    ref = article_net(torch.nn, torch.nn.functional)
    net = article_net()
    net.load_state_dict(ref.state_dict())  # torch tensors, as PyTorch's state_dict gives
    x = np.random.default_rng(1).uniform(0, 1, (4, 1, 28, 28)).astype(np.float32)
    with torch.no_grad(), clrt.no_grad():
        want = ref(torch.from_numpy(x)).numpy()
        np.testing.assert_allclose(net(clrt.from_numpy(x)).numpy(), want, rtol=1e-4, atol=1e-5)
    net2 = article_net()
    net2.load_state_dict({k: v.numpy() for k, v in ref.state_dict().items()})
    for a, b in zip(net.parameters(), net2.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_sequential_and_module_list():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear) and seq[1] is list(seq)[1]
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    head = seq[:2]
    assert isinstance(head, nn.Sequential) and len(head) == 2 and head[0] is seq[0]
    del seq[1]
    assert [n for n, _ in seq.named_children()] == ["0", "1"]
    assert seq.append(nn.Tanh()) is seq and len(seq) == 3
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]
    named = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert [n for n, _ in named.named_children()] == ["fc", "act"] and named.fc is named[0]
    assert repr(named) == ("Sequential(\n  (fc): Linear(in_features=2, out_features=2, bias=True)\n"
                           "  (act): ReLU()\n)")
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    assert len(ml) == 3 and [n for n, _ in ml.named_parameters()][-1] == "2.bias"
    x = clrt.randn(4, 2)
    with clrt.no_grad():
        y = x
        for layer in ml:
            y = layer(y)
        assert tuple(y.shape) == (4, 2)
    last = nn.Tanh()
    ml[-1] = last
    assert ml[2] is last and len(ml) == 3
    for idx in (3, -4):  # a position past either end is refused, as a list's, not wrapped
        with pytest.raises(IndexError, match=f"index {idx} is out of range"):
            ml[idx] = nn.ReLU()
        with pytest.raises(IndexError, match=f"index {idx} is out of range"):
            ml[idx]
    assert ml[2] is last and [type(m) for m in ml] == [nn.Linear, nn.Linear, nn.Tanh]
    with pytest.raises(TypeError):
        ml["1"]
    with pytest.raises(TypeError):
        seq["1"]


def test_layers_take_pytorchs_arguments_and_refuse_the_rest():
    conv = nn.Conv2d(3, 8, (3, 3), stride=2, padding=1, bias=False)
    assert conv.kernel_size == (3, 3) and conv.stride == (2, 2) and conv.padding == (1, 1)
    assert conv.bias is None and tuple(conv.weight.shape) == (8, 3, 3, 3)
    assert tuple(nn.Conv2d(2, 4, 3, padding="same")(clrt.randn(1, 2, 7, 7)).shape) == (1, 4, 7, 7)
    pool = nn.MaxPool2d(2)
    assert pool.stride == 2
    lin = nn.Linear(5, 3, dtype=clrt.float64)
    assert lin.weight.dtype == clrt.float64 and lin.bias.dtype == clrt.float64
    for make, what in ((lambda: nn.Conv2d(4, 4, 3, groups=2), "groups"),
                       (lambda: nn.Conv2d(4, 4, 3, dilation=2), "dilation"),
                       (lambda: nn.Conv2d(4, 4, 3, stride=(1, 2)), "stride"),
                       (lambda: nn.Conv2d(4, 4, 3, padding=(0, 1)), "padding"),
                       (lambda: nn.MaxPool2d(2, padding=1), "padding"),
                       (lambda: nn.MaxPool2d(2, ceil_mode=True), "ceil_mode")):
        with pytest.raises(NotImplementedError, match=what):
            make()
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        nn.CrossEntropyLoss(reduction="average")


def test_to_another_device():
    """A second context stands for a second device: the parameters and their gradients
    move (the Parameter objects kept), the state dict loads across, and an optimizer
    whose state stayed behind says so, as PyTorch does."""
    other = clrt.Context()
    try:
        dev = clrt.device(other)
        net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
        params = list(net.parameters())
        opt = clrt.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
        x = clrt.randn(5, 4)
        net(x).sum().backward()
        opt.step()
        values = [p.detach().numpy() for p in params]
        grads = [p.grad.numpy() for p in params]
        assert net.to(dev) is net and list(net.parameters()) == params
        for p, v, g in zip(params, values, grads):
            assert p.device == dev and p.grad.device == dev
            np.testing.assert_array_equal(p.detach().numpy(), v)
            np.testing.assert_array_equal(p.grad.numpy(), g)
        with clrt.no_grad():
            y = net(x.to(dev))
        assert y.device == dev
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            opt.step()  # its momentum buffers are on the first device
        clrt.optim.SGD(net.parameters(), lr=0.1, momentum=0.9).step()
        here = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
        here.load_state_dict(net.state_dict())
        for a, b in zip(here.parameters(), params):
            np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    finally:
        other.close()  # its tensors' memory with it
