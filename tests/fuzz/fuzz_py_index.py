"""Fuzz target: the Python package's shape/index normaliser (python/clrt/_index.py)
against numpy's own basic indexing.

Each input's bytes are decoded into a shape (0 to 4 dimensions) and an index (ints, slices,
None, Ellipsis, bools, a float, a list). The contract: where numpy raises IndexError the
normaliser raises IndexError; where numpy selects elements, the view the normaliser gives
(shape, strides, offset over a contiguous array) holds exactly numpy's elements, except
where clrt documents otherwise: an empty selection is IndexError (clrt tensors are never
empty), a negative step ValueError (PyTorch's rule), a list IndexError (advanced indexing
is not supported). Anything else (another exception type, a crash, other elements) fails.

    python3 tests/fuzz/fuzz_py_index.py --replay tests/fuzz/corpus/py_index   (ctest)
    python3 tests/fuzz/fuzz_py_index.py --random 20000 --seed 1               (ctest)
    python3 tests/fuzz/fuzz_py_index.py --atheris [libFuzzer flags]           (.ci/fuzz.sh)

Needs clrt importable (PYTHONPATH=python, CLRT_LIBRARY) and numpy; no device.
"""
import os
import random
import sys

import numpy as np

from clrt import _index


def _int(b):
    return (b % 19) - 9  # -9..9: in and out of range for dimensions of 1..6


def _opt(b):
    return None if b % 4 == 0 else _int(b >> 2)


def decode(data):
    """(shape, key) from the bytes (short inputs give small cases; nothing is rejected)."""
    it = iter(data)

    def nxt():
        return next(it, 0)
    shape = tuple(1 + nxt() % 6 for _ in range(nxt() % 5))
    parts = []
    for _ in range(nxt() % 6):
        kind = nxt() % 9
        if kind in (0, 1):
            parts.append(_int(nxt()))
        elif kind in (2, 3):
            step = _opt(nxt())
            parts.append(slice(_opt(nxt()), _opt(nxt()), step if step != 0 else None))
        elif kind == 4:
            parts.append(None)
        elif kind == 5:
            parts.append(Ellipsis)
        elif kind == 6:
            parts.append(bool(nxt() % 2))
        elif kind == 7:
            parts.append(1.5)
        else:
            parts.append([0])
    key = parts[0] if len(parts) == 1 and nxt() % 2 else tuple(parts)
    return shape, key


def _negative_step(key):
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in parts)


def _has_list(key):
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, list) for k in parts)


def check(data):
    shape, key = decode(data)
    base = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    try:
        ref = base[key]
        ref_error = None
    except (IndexError, TypeError, ValueError) as e:
        ref, ref_error = None, e
    try:
        got = _index.normalize(key, shape)
        error = None
    except (IndexError, TypeError, ValueError) as e:
        got, error = None, e
    what = f"shape {shape} key {key!r}"
    if ref_error is not None:
        # numpy refuses: so must we, as IndexError (numpy's type for a bad index), or as the
        # ValueError of a negative step when that part is met first
        kinds = (IndexError, ValueError) if _negative_step(key) else IndexError
        assert isinstance(error, kinds), f"{what}: numpy {ref_error!r}, clrt {error!r}"
        return
    ref = np.asarray(ref)
    if _has_list(key) or _negative_step(key):  # refused, whichever part is met first
        assert isinstance(error, (ValueError, IndexError)), f"{what}: clrt gave {error!r}"
        return
    if ref.size == 0:
        assert isinstance(error, IndexError) and "empty" in str(error), f"{what}: {error!r}"
        return
    assert error is None, f"{what}: numpy selects {ref.shape}, clrt raised {error!r}"
    out_shape, strides, offset = got
    assert out_shape == ref.shape, f"{what}: shape {out_shape}, numpy {ref.shape}"
    values = np.full(out_shape, offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(out_shape, strides)):
        idx = np.arange(n, dtype=np.int64).reshape((1,) * d + (n,) + (1,) * (len(out_shape) - d - 1))
        values = values + idx * s
    np.testing.assert_array_equal(values, ref, err_msg=what)


def _replay(folder):
    names = sorted(os.listdir(folder))
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            check(f.read())
    print(f"fuzz_py_index: {len(names)} corpus inputs replayed")


def _random(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        check(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24))))
    print(f"fuzz_py_index: {count} random inputs (seed {seed}) checked")


def main(argv):
    if argv[:1] == ["--replay"]:
        _replay(argv[1])
    elif argv[:1] == ["--random"]:
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
        _random(int(argv[1]), seed)
    elif argv[:1] == ["--atheris"]:
        import atheris
        atheris.instrument_all()  # coverage of the normaliser (and numpy's Python parts)
        atheris.Setup([sys.argv[0]] + argv[1:], check)
        atheris.Fuzz()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
