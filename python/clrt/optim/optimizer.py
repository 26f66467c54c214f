"""optim.Optimizer: parameter groups, state, zero_grad, state_dict, as PyTorch's."""
import collections
import copy
import numbers

from ..nn import _bridge as T
from . import _kernels

__all__ = ["Optimizer", "required"]


class _Required:
    def __repr__(self):
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base of the optimizers: params is an iterable of tensors, or of dicts each with
    "params" and options overriding the defaults (parameter groups)."""

    _kernel_name = None  # the optimizer's kernel in clrt.optim._kernels (_launch)

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._launches = {}  # id(parameter) -> its _kernels.Launch
        self.state = collections.defaultdict(dict)  # Parameter -> its state (by identity)
        self.param_groups = []
        if isinstance(params, T.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {T.typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, param_group):
        """Add a group: a dict with "params" and any options (the rest from defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {T.typename(param_group)}")
        params = param_group["params"]
        if isinstance(params, T.Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            params = list(params)
        for p in params:
            if not isinstance(p, T.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + T.typename(p))
            if not T.is_leaf(p):
                raise ValueError("can't optimize a non-leaf Tensor")
        group = dict(param_group, params=params)
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            raise ValueError("a parameter group holds a parameter twice")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self._check_group(group)
        self.param_groups.append(group)

    def _check_group(self, group):
        """An optimizer's checks of a group's options (ValueError as PyTorch's)."""

    def zero_grad(self, set_to_none=True):
        """Every parameter's .grad to None (the default, as PyTorch's) or to zeros."""
        for g in self.param_groups:
            for p in g["params"]:
                T.clear_grad(p, set_to_none)

    def step(self, closure=None):
        raise NotImplementedError

    def _launch(self, p):
        """p's kept kernel object (_kernel_name), made anew when p moved to another
        context or dtype."""
        launch = self._launches.get(id(p))
        if launch is None or launch.ctx is not T.context(p) or launch.dtype != T.np_dtype(p):
            launch = self._launches[id(p)] = _kernels.Launch(T.context(p), T.np_dtype(p),
                                                             self._kernel_name)
        return launch

    def _closure(self, closure):
        if closure is None:
            return None
        with T.enable_grad():
            return closure()

    # ---- state

    def state_dict(self):
        """{"state": {index: {name: value}}, "param_groups": [{options, "params": [index]}]},
        the parameters numbered across the groups in order (PyTorch's layout). The
        tensors are this optimizer's own (clone them to keep a snapshot)."""
        index, groups, n = {}, [], 0
        for g in self.param_groups:
            packed = {k: v for k, v in g.items() if k != "params"}
            ids = []
            for p in g["params"]:
                if id(p) not in index:
                    index[id(p)] = n
                    n += 1
                ids.append(index[id(p)])
            packed["params"] = ids
            groups.append(packed)
        state = {index[id(p)]: self._export_state(s) for p, s in self.state.items()
                 if id(p) in index}
        return {"state": state, "param_groups": groups}

    def _export_state(self, s):
        return dict(s)

    def _import_state(self, p, s):
        """A loaded state entry for p, its tensors on p's device and in p's dtype."""
        return {k: T.as_state_tensor(v, p) if T.is_tensor_like(v) else v for k, v in s.items()}

    def load_state_dict(self, state_dict):
        """Load what state_dict() gave (this optimizer's or PyTorch's, with tensors or
        numpy arrays): the groups' options and every parameter's state."""
        state_dict = copy.copy(state_dict)
        groups, saved_groups = self.param_groups, state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        by_index = {}
        for g, s in zip(groups, saved_groups):
            for p, i in zip(g["params"], s["params"]):
                by_index[i] = p
        state = collections.defaultdict(dict)
        for i, s in state_dict["state"].items():
            i = int(i)
            if i in by_index:
                p = by_index[i]
                state[p] = self._import_state(p, s)
        new_groups = []
        for g, s in zip(groups, saved_groups):
            ng = {k: v for k, v in s.items() if k != "params"}
            ng["params"] = g["params"]
            for name, default in self.defaults.items():
                ng.setdefault(name, g.get(name, default))
            new_groups.append(ng)
        self.state, self.param_groups = state, new_groups

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\nParameter Group {}\n".format(i)
            for key in sorted(group):
                if key != "params":
                    text += "    {}: {}\n".format(key, group[key])
        return text + ")"


def _check_number(value, what, low=0.0):
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not value >= low:
        raise ValueError(f"Invalid {what}: {value}")
