"""MNIST-format data for the training examples: the four IDX files (optionally .gz) from
--data DIR, or, without it, a small synthetic set of 28x28 images (a bar whose angle
and position depend on the class, plus noise) so that the examples run anywhere."""
import gzip
import os
import struct

import numpy as np


def _read_idx(path):
    for p in (path, path + ".gz"):
        if os.path.exists(p):
            with (gzip.open if p.endswith(".gz") else open)(p, "rb") as f:
                data = f.read()
            break
    else:
        raise SystemExit(f"{path}: not found (nor {path}.gz)")
    magic, = struct.unpack(">I", data[:4])
    if magic >> 8 != 0x08 or not 1 <= (magic & 0xFF) <= 3:
        raise SystemExit(f"{path}: not an IDX file of unsigned bytes (magic {magic:#x})")
    dims = struct.unpack(">" + "I" * (magic & 0xFF), data[4:4 + 4 * (magic & 0xFF)])
    arr = np.frombuffer(data, np.uint8, offset=4 + 4 * len(dims))
    if arr.size != int(np.prod(dims)):
        raise SystemExit(f"{path}: {arr.size} bytes of data for dimensions {dims}")
    return arr.reshape(dims)


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
