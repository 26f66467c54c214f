"""README.md's Python example runs as shown: the block under "Use it from Python" is
executed word for word (it trains the article's network for an epoch of random data on
the default device) and its last mini-batch's loss is a finite number. A README whose example stops
running fails here, as its C example fails docs_readme_c."""
import math
import pathlib
import re

import numpy as np

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def readme_python_block():
    text = README.read_text()
    section = text[text.index("## Use it from Python"):]
    m = re.search(r"```python\n(.*?)```", section, re.S)
    assert m, "README.md has no Python block under 'Use it from Python'"
    return m.group(1)


def test_readme_python_example_runs():
    code = readme_python_block()
    assert code.startswith("import clrt as torch\n")
    names = {"__name__": "readme_example"}
    exec(compile(code, str(README), "exec"), names)
    assert math.isfinite(names["loss"].item())  # the last mini-batch's loss
    # random labels: the loss stays near chance's, ln 10 (not 0, not far off)
    assert 1.0 < names["loss"].item() < 5.0
    assert tuple(names["inputs"].shape) == (4, 1, 28, 28) and tuple(names["labels"].shape) == (4,)
    # every step reached every parameter: each has a momentum buffer, none of them zero
    net, optimizer = names["net"], names["optimizer"]
    params = list(net.parameters())
    assert len(params) == 8 and len(optimizer.state) == 8
    for p in params:
        buf = optimizer.state[p]["momentum_buffer"].numpy()
        assert buf.shape == tuple(p.shape) and np.abs(buf).max() > 0
