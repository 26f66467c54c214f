"""The random generator behind rand, randn, dropout and the layers' initialisation.

A counter-based stream: value k of the stream is a hash of (seed, k) computed on the
device (_strided.py, splitmix64), so that a tensor's random values are made where it
lives and a seed gives the same values on every device. manual_seed(s) restarts the
stream at s. The values are not PyTorch's (its generator is another algorithm), only
their distributions are.
"""
import threading

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed, for want of another
_state = {"seed": _DEFAULT_SEED, "counter": 0}
_lock = threading.Lock()


def manual_seed(seed):
    """Restart the stream at seed (an int; PyTorch's torch.manual_seed)."""
    import operator
    seed = operator.index(seed)
    with _lock:
        _state["seed"], _state["counter"] = seed & (2 ** 64 - 1), 0
    return _Generator()


def seed():
    """Reseed from the operating system's randomness; returns the seed."""
    import os
    s = int.from_bytes(os.urandom(8), "little") >> 1
    manual_seed(s)
    return s


def initial_seed():
    return _state["seed"]


def next_counter(count):
    """(seed, first counter) for count values of the stream, which moves past them."""
    with _lock:
        c = _state["counter"]
        _state["counter"] = (c + count) & (2 ** 64 - 1)
        return _state["seed"], c


class _Generator:
    """What manual_seed returns (PyTorch returns its generator): the seed, for show."""

    def initial_seed(self):
        return _state["seed"]

    def __repr__(self):
        return f"<clrt.Generator seed={_state['seed']}>"
