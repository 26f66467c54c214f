"""Helpers shared by the nn, optim and article tests: PyTorch where it is importable,
and the article's code as examples/python/article_cnn.py holds it."""
import os
import pathlib

import numpy as np
import pytest

try:
    import torch
except ImportError:
    # CI installs Debian's python3-torch (tools/setup-debian.sh), and ctest sets
    # CLRT_TEST_REQUIRE_TORCH=1 where configuring found it: there its absence fails
    if os.environ.get("CLRT_TEST_REQUIRE_TORCH") == "1":
        raise
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not importable here "
                                                       "(apt-get install python3-torch)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTICLE_FILE = ROOT / "examples" / "python" / "article_cnn.py"
BEGIN, END = "# ---- the article's code ----", "# ---- end of the article's code ----"


def article_block():
    """The text between the marker lines of article_cnn.py."""
    text = ARTICLE_FILE.read_text()
    return text[text.index(BEGIN + "\n") + len(BEGIN) + 1:text.index(END + "\n")]


def article_net_code():
    """The article's class Net, the first part of its code."""
    block = article_block()
    return block[:block.index("net = Net()")]


def close(got, ref, dtype, rtol=None, atol=None):
    """got (a clrt tensor or array) against ref (numpy or a torch tensor) for dtype."""
    got = got.detach().numpy() if hasattr(got, "detach") else np.asarray(got)
    if torch is not None and isinstance(ref, torch.Tensor):
        ref = ref.detach().numpy()
    tight = np.dtype(dtype) == np.float64
    rtol = rtol if rtol is not None else (1e-10 if tight else 2e-4)
    atol = atol if atol is not None else (1e-12 if tight else 2e-5)
    np.testing.assert_allclose(got.astype(np.float64), np.asarray(ref, np.float64), rtol=rtol,
                               atol=atol)
