"""MNIST-format data for the training examples: the four IDX files (optionally .gz) from
--data DIR (read by clrt.utils.data.read_idx), or, without it, a small synthetic set of
28x28 images (a bar whose angle and position depend on the class, plus noise) so that
the examples run anywhere."""
import os

import numpy as np

from clrt.utils.data import read_idx


def _read_idx(path):
    try:
        return read_idx(path)  # plain or .gz; a damaged file is refused whole
    except (OSError, RuntimeError) as e:
        raise SystemExit(str(e)) from None


def load(data_dir=None, limit=None, seed=0):
    """(train_x, train_y, test_x, test_y): float32 images N x 784 in [0, 1], int32 labels."""
    if data_dir:
        sets = []
        for kind in ("train", "t10k"):
            x = _read_idx(os.path.join(data_dir, f"{kind}-images-idx3-ubyte"))
            y = _read_idx(os.path.join(data_dir, f"{kind}-labels-idx1-ubyte"))
            if x.shape[1:] != (28, 28) or len(x) != len(y) or y.max() > 9:
                raise SystemExit(f"{data_dir}: {kind} images {x.shape} and labels {y.shape} "
                                 "are not 28x28 MNIST with labels 0-9")
            sets += [x.reshape(len(x), 784).astype(np.float32) / 255, y.astype(np.int32)]
    else:
        rng = np.random.default_rng(seed)
        sets = []
        for n in (2000, 500):
            y = rng.integers(0, 10, n).astype(np.int32)
            yy, xx = np.mgrid[0:28, 0:28]
            angle = y * np.pi / 10
            off = rng.normal(0, 1.5, (n, 1, 1))
            dist = np.abs((xx - 14) * np.sin(angle)[:, None, None] -
                          (yy - 14) * np.cos(angle)[:, None, None] - off)
            img = np.clip(1.5 - dist, 0, 1) + rng.normal(0, 0.1, (n, 28, 28))
            sets += [np.clip(img, 0, 1).reshape(n, 784).astype(np.float32), y]
    if limit:
        sets[0], sets[1] = sets[0][:limit], sets[1][:limit]
    return tuple(sets)
