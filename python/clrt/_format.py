"""repr(tensor) as PyTorch prints it: tensor([[1., 2.], [3., 4.]]), four decimals or
scientific notation where the magnitudes call for it, the dtype named when it is not the
default of its kind (float32, int64, bool), and requires_grad or grad_fn."""
import numpy as np

_DEFAULT = {"float32", "int64", "bool"}


def _float_formatter(values):
    finite = values[np.isfinite(values)]
    if finite.size == 0 or np.all(finite == np.round(finite)):
        big = finite.size and np.abs(finite).max() >= 1e8
        if not big:
            return lambda v: _special(v) or f"{v:.0f}."
    nz = np.abs(finite[finite != 0]) if finite.size else finite
    if nz.size and (nz.max() / nz.min() > 1000 or nz.max() >= 1e8 or nz.min() < 1e-4):
        return lambda v: _special(v) or f"{v:.4e}"
    return lambda v: _special(v) or f"{v:.4f}"


def _special(v):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None


def _padded(fmt, values):
    """fmt with every value right-aligned to the widest one (PyTorch's columns)."""
    width = max((len(fmt(v)) for v in values), default=0)
    return lambda v: fmt(v).rjust(width)


def values_text(host, indent):
    flat = host.ravel()
    if flat.size > 1000:  # summarised: only the edges are printed, and set the width
        flat = np.concatenate([flat[:3], flat[-3:]])
    if host.dtype.kind == "f":
        fmt = _float_formatter(host.astype(np.float64).ravel())
        f64 = flat.astype(np.float64)
        kw = {"formatter": {"float_kind": _padded(fmt, f64[np.isfinite(f64)])}}
    elif host.dtype.kind == "b":
        kw = {"formatter": {"bool": lambda v: "True" if v else "False"}}
        kw["formatter"]["bool"] = _padded(kw["formatter"]["bool"], flat)
    else:
        kw = {"formatter": {"int": _padded(str, flat.tolist())}}
    return np.array2string(host, separator=", ", prefix=" " * indent, threshold=1000,
                           edgeitems=3, max_line_width=80, **kw)


def tensor_repr(t):
    if t._st.ptr is None:
        return f"<clrt.Tensor shape={tuple(t._shape)} dtype={t.dtype!r} closed>"
    text = values_text(t.get(), len("tensor("))
    extras = []
    if t.dtype.name not in _DEFAULT:
        extras.append(f"dtype=clrt.{t.dtype.name}")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t._rg:
        extras.append("requires_grad=True")
    return "tensor(" + text + "".join(", " + e for e in extras) + ")"
