"""The optimizers' device kernels (clrt/optim/_kernels.py: SGD's forms beyond the
library's, Adam and AdamW with and without amsgrad) and the library's SGD step, each
run for a few steps on small tensors against PyTorch's formulas in numpy: run by ctest
on rusticl and under Oclgrind (python/CMakeLists.txt), where the pytest suite, which
needs float64 and minutes, does not go.

    python3 optim_kernels.py f32|f64        (the device from OCL_ICD_VENDORS)
"""
import os
import sys

import numpy as np

import clrt
import clrt.optim as optim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_optim import ADAM_CASES, SGD_CASES, adam_reference, sgd_reference  # noqa: E402

SHAPES = [(3, 5), (7,), (2, 1, 3, 3)]


def run(name, kw, reference, npdt, rng):
    init = [rng.uniform(-1, 1, s).astype(npdt) for s in SHAPES]
    grads = [[rng.uniform(-1, 1, s).astype(npdt) for s in SHAPES] for _ in range(3)]
    params = [clrt.nn.Parameter(clrt.from_numpy(x)) for x in init]
    opt = getattr(optim, name)(params, **kw)
    for gs in grads:
        for p, g in zip(params, gs):
            p.grad = clrt.from_numpy(g)
        opt.step()
    tol = 1e-5 if npdt == np.float32 else 1e-12
    for i, x in enumerate(init):
        want = reference(x, [g[i] for g in grads], **kw)[-1]
        np.testing.assert_allclose(params[i].detach().numpy(), want, rtol=tol, atol=tol / 10)


def main(which):
    npdt = {"f32": np.float32, "f64": np.float64}[which]
    rng = np.random.default_rng(0)
    for kw in SGD_CASES:
        run("SGD", kw, sgd_reference, npdt, rng)
    for kw in ADAM_CASES:
        run("Adam", kw, adam_reference, npdt, rng)
        run("AdamW", dict(kw, weight_decay=kw.get("weight_decay", 1e-2)),
            lambda x, g, **k: adam_reference(x, g, decoupled=True, **k), npdt, rng)
    print(f"optim_kernels {which}: every optimizer form matches PyTorch's formulas on "
          f"{clrt.default_context().device.name}")


if __name__ == "__main__":
    main(sys.argv[1])
