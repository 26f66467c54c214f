"""nn.Module: the base class of layers and networks, as PyTorch's.

Parameters (clrt.nn.Parameter) and submodules (Module) assigned as attributes are
registered in assignment order; parameters(), named_parameters(), children(),
modules(), state_dict() and repr walk them in that order, with PyTorch's names
("conv1.weight", "fc2.bias", "0.weight" inside a Sequential).

A registered parameter or submodule is kept in the instance's __dict__ as well as in
_parameters or _modules (PyTorch keeps it only in the latter and finds it through
__getattr__): `self.conv1` is then a plain attribute read, which a training step does
dozens of times. __setattr__ and __delattr__ keep the two in step.
"""
import collections

from . import _bridge as T

__all__ = ["Module"]


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict(strict=False) found missing and unexpected (PyTorch's result)."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Module:
    """Base class of every layer and network: subclass it, assign parameters and
    submodules in __init__ (after super().__init__()), and define forward()."""

    training: bool
    dump_patches = False

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments "
                            f"(got {len(args)} positional and {sorted(kwargs)} keyword)")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---- registration

    def __setattr__(self, name, value):
        d = self.__dict__
        params, modules, buffers = d.get("_parameters"), d.get("_modules"), d.get("_buffers")
        if isinstance(value, T.Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{T.typename(value)}' as parameter '{name}' "
                                "(clrt.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            modules[name] = value
            object.__setattr__(self, name, value)
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{T.typename(value)}' as child module '{name}' "
                                "(clrt.nn.Module or None expected)")
            modules[name] = None
            object.__setattr__(self, name, None)
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, T.Tensor):
                raise TypeError(f"cannot assign '{T.typename(value)}' as buffer '{name}' "
                                "(clrt.Tensor or None expected)")
            buffers[name] = value
            object.__setattr__(self, name, value)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        """name out of every registry and the instance (before it is registered anew)."""
        for reg in (self._parameters, self._buffers, self._modules):
            reg.pop(name, None)
        self._non_persistent_buffers_set.discard(name)
        self.__dict__.pop(name, None)

    def __getattr__(self, name):
        # reached only for names the instance does not hold (registered ones are in __dict__)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._forget(name)
        else:
            object.__delattr__(self, name)

    def _check_name(self, name, what, registry):
        """PyTorch's checks of a name registered in registry (_parameters, _buffers or
        _modules): after __init__, a non-empty str without ".", not another attribute's."""
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {what} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {T.typename(name)}")
        if "." in name:
            raise KeyError(f'{what} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')
        if hasattr(self, name) and name not in getattr(self, registry):
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        """Add param (a Parameter, or None: a slot with none, as a Linear without bias)."""
        self._check_name(name, "parameter", "_parameters")
        if param is not None and not isinstance(param, T.Parameter):
            raise TypeError(f"cannot assign '{T.typename(param)}' object to parameter '{name}' "
                            "(clrt.nn.Parameter or None required)")
        self._parameters[name] = param
        object.__setattr__(self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (in state_dict() when persistent)."""
        self._check_name(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, T.Tensor):
            raise TypeError(f"cannot assign '{T.typename(tensor)}' object to buffer '{name}' "
                            "(clrt.Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)
        object.__setattr__(self, name, tensor)

    def add_module(self, name, module):
        """Add a child module under name (as assigning self.name = module does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{T.typename(module)} is not a Module subclass")
        self._check_name(name, "module", "_modules")
        self._modules[name] = module
        object.__setattr__(self, name, module)

    register_module = add_module

    def get_submodule(self, target):
        """The module at a dotted path ("features.0"); "" is this module."""
        mod = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        """The parameter at a dotted path ("fc1.weight")."""
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        p = getattr(mod, name)
        if not isinstance(p, T.Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return p

    # ---- walking

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(memo, prefix + ("." if prefix else "") + name,
                                           remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        seen = set()
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for mprefix, m in mods:
            for name, v in getattr(m, registry).items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield mprefix + ("." if mprefix else "") + name, v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, Parameter) of this module and, with recurse, of every submodule; a
        parameter shared by two modules comes once (unless remove_duplicate=False)."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        """fn(m) on every submodule (children first), then on self; returns self."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients

    def train(self, mode=True):
        """Training mode (Dropout drops) or, with mode=False, evaluation; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Every parameter's .grad to None (the default) or to zeros."""
        for p in self.parameters():
            T.clear_grad(p, set_to_none)

    # ---- device and dtype

    def _apply(self, fn):
        """fn on every parameter's and buffer's data, the Parameter objects kept."""
        for m in self.modules():
            for name, p in m._parameters.items():
                if p is not None:
                    T.replace_data(p, fn)
            for name, b in m._buffers.items():
                if b is not None:
                    m._buffers[name] = fn(b)
                    object.__setattr__(m, name, m._buffers[name])
        return self

    def to(self, *args, **kwargs):
        """to(device), to(dtype) or to(device, dtype): every parameter and buffer moved or
        converted in place (floating-point ones only for a dtype); returns self."""
        device, dtype = T.parse_to(*args, **kwargs)
        if dtype is not None and not T.is_floating_dtype(dtype):
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired "
                            f"dtype={dtype}")

        def convert(t):
            if dtype is not None and T.is_floating_point(t):
                return t.to(device, dtype) if device is not None else t.to(dtype)
            return t.to(device) if device is not None else t
        return self._apply(convert)

    def float(self):
        return self._apply(lambda t: t.float() if T.is_floating_point(t) else t)

    def double(self):
        return self._apply(lambda t: t.double() if T.is_floating_point(t) else t)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    # ---- state

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An ordered dict of every parameter and persistent buffer by PyTorch's dotted
        name; the tensors share this module's memory (detached unless keep_vars)."""
        if args:  # PyTorch's old positional form (destination, prefix, keep_vars)
            destination, prefix, keep_vars = (list(args) + [destination, prefix, keep_vars][len(args):])[:3]
        if destination is None:
            destination = collections.OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy the values of state_dict (name -> clrt tensor, numpy array, or anything
        numpy takes, a PyTorch tensor included) into this module's parameters and
        buffers. With strict (the default) a missing or unexpected key is an error; a
        shape mismatch always is. Raises RuntimeError naming each problem, as PyTorch;
        returns (missing_keys, unexpected_keys)."""
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict.keys() if k not in own]
        errors, copies = [], []
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            problem, source = T.load_source(key, value, target)
            if problem:
                errors.append(problem)
            else:
                copies.append((key, target, source))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        for key, target, source in copies:  # nothing written unless everything fits
            T.copy_into(target, source)
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text inside this module's parentheses in repr (layers set it)."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(m), 2) for key, m in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        return sorted(set(object.__dir__(self)))
