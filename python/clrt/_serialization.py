"""clrt.save and clrt.load: state dicts (and other nests of tensors and plain values) in
a numpy .npz file, never a pickle.

    clrt.save(net.state_dict(), "net.pt")
    net.load_state_dict(clrt.load("net.pt"))

The file is a zip archive numpy reads too: each tensor or array is an .npy entry
named after its key ("conv1.weight.npy": np.load("net.pt")["conv1.weight"]), and
"clrt-structure.json" describes the object around them (dicts with str or int keys,
lists, tuples, numbers, strings, booleans, None). Loading reads no code: every entry
is read with allow_pickle=False, each entry's CRC-32 is checked, and a file that is
not such an archive, or is damaged or cut short, is a RuntimeError that names it.
"""
import collections
import json
import math
import numbers
import os
import zipfile

import numpy as np

from .nn import _bridge as T

__all__ = ["save", "load"]

_STRUCTURE = "clrt-structure.json"
_FORMAT = "clrt.save"


class _Writer:
    def __init__(self, zf):
        self.zf, self.names = zf, set()

    def entry(self, array, hint):
        name = hint if hint and hint not in self.names and "/" not in hint else None
        n = len(self.names)
        while name is None or name in self.names:
            name, n = f"tensor{n}", n + 1
        self.names.add(name)
        with self.zf.open(name + ".npy", "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(array), allow_pickle=False)
        return name

    def encode(self, obj, hint=""):
        if isinstance(obj, T.Tensor):
            return {"tensor": self.entry(T.to_numpy(obj), hint),
                    "requires_grad": bool(obj.requires_grad),
                    "parameter": isinstance(obj, T.Parameter)}
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject:
                raise TypeError(f"clrt.save: {hint or 'an array'} holds Python objects; only "
                                "numeric arrays are saved")
            return {"ndarray": self.entry(obj, hint)}
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, numbers.Integral):
            return int(obj)
        if isinstance(obj, numbers.Real):
            x = float(obj)
            return x if math.isfinite(x) else {"float": repr(x)}
        if isinstance(obj, dict):
            items = []
            for k, v in obj.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    raise TypeError(f"clrt.save: dict key {k!r} is not a str or an int")
                items.append([k, self.encode(v, k if isinstance(k, str) and not hint
                                             else f"{hint}.{k}" if hint else "")])
            return {"dict": items, "ordered": type(obj) is not dict}
        if isinstance(obj, (list, tuple)):
            return {"list" if isinstance(obj, list) else "tuple":
                    [self.encode(v, f"{hint}.{i}" if hint else "") for i, v in enumerate(obj)]}
        raise TypeError(f"clrt.save: cannot save {type(obj).__name__} (tensors, numpy arrays, "
                        "dicts, lists, tuples, numbers, strings and None only: no pickles)")


def save(obj, f):
    """Write obj (a state dict, or any nest of dicts, lists and tuples of tensors, numpy
    arrays, numbers, strings, booleans and None) to f, a path or a binary file."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as zf:
        structure = _Writer(zf).encode(obj)
        zf.writestr(_STRUCTURE, json.dumps({"format": _FORMAT, "version": 1, "object": structure}))


class _Reader:
    def __init__(self, zf, device, where):
        self.zf, self.device, self.where = zf, device, where

    def array(self, name):
        try:
            with self.zf.open(name + ".npy") as f:
                return np.lib.format.read_array(f, allow_pickle=False)
        except KeyError:
            raise _damaged(self.where, f"no entry {name}.npy") from None

    def decode(self, node):
        if node is None or isinstance(node, (bool, int, float, str)):
            return node
        if not isinstance(node, dict) or len(node) == 0:
            raise _damaged(self.where, f"unexpected element {node!r}")
        if "tensor" in node:
            t = T.load_tensor(self.array(node["tensor"]), self.device)
            if node.get("parameter"):
                return T.Parameter(t, requires_grad=bool(node.get("requires_grad", True)))
            return t.requires_grad_(True) if node.get("requires_grad") else t
        if "ndarray" in node:
            return self.array(node["ndarray"])
        if "float" in node:
            return float(node["float"])
        if "dict" in node:
            d = collections.OrderedDict() if node.get("ordered") else {}
            for k, v in node["dict"]:
                d[k] = self.decode(v)
            return d
        if "list" in node:
            return [self.decode(v) for v in node["list"]]
        if "tuple" in node:
            return tuple(self.decode(v) for v in node["tuple"])
        raise _damaged(self.where, f"unexpected element {node!r}")


def _damaged(where, why):
    return RuntimeError(f"clrt.load: {where}: not a file clrt.save wrote, or a damaged one "
                        f"({why})")


def load(f, map_location=None, weights_only=True, **kwargs):
    """What save() wrote to f (a path or a binary file), its tensors made on
    map_location (a clrt.device or a selector; default: the default device)."""
    where = os.fspath(f) if isinstance(f, (str, os.PathLike)) else getattr(f, "name", "<file>")
    device = T.as_device(map_location) if map_location is not None else None
    try:
        with zipfile.ZipFile(f, "r") as zf:
            bad = zf.testzip()  # every entry's CRC-32, before anything is used
            if bad is not None:
                raise _damaged(where, f"entry {bad} fails its CRC-32 check")
            try:
                head = json.loads(zf.read(_STRUCTURE).decode("utf-8"))
            except KeyError:
                raise _damaged(where, f"no {_STRUCTURE}") from None
            if not isinstance(head, dict) or head.get("format") != _FORMAT:
                raise _damaged(where, f"{_STRUCTURE} is not clrt.save's")
            if head.get("version") != 1:
                raise RuntimeError(f"clrt.load: {where}: format version {head.get('version')}; "
                                   "this clrt reads version 1")
            return _Reader(zf, device, where).decode(head.get("object"))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as e:
        # ValueError covers json's JSONDecodeError, UnicodeDecodeError and numpy's refusals
        raise _damaged(where, f"{type(e).__name__}: {e}") from None
