"""clrt.utils.data: PyTorch's Dataset, TensorDataset, samplers and DataLoader, and the
MNIST and Fashion-MNIST datasets from their IDX files.

    loader = DataLoader(TensorDataset(clrt.from_numpy(x), clrt.from_numpy(y)),
                        batch_size=4, shuffle=True)
    for inputs, labels in loader:     # clrt tensors: 4 x ... float32, 4 int64
        ...

Batches are tensors on the dataset's tensors' device. A TensorDataset (and MNIST,
FashionMNIST, a Subset of them) hands the loader its rows gathered on the host, many
batches' worth (up to 32 MiB) at a time, sent to the device in one transfer; each
batch is then a view of its rows there (a transfer waits for the device's queue, so
one per batch costs each training step that wait: clrt-train sends an epoch at once). Other datasets are read an item at a time and collated as PyTorch's
default_collate does. Shuffling draws each epoch's order from clrt's generator
(clrt.manual_seed makes it repeat) or from the loader's generator=; the orders are
not PyTorch's stream. num_workers is accepted and the items are read in this process
(the order and the batches are the same).
"""
import bisect
import collections
import itertools
import math
import numbers
import os

import numpy as np

from ..nn import _bridge as T
from .idx import parse_idx, read_idx

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DataLoader", "default_collate", "MNIST",
           "FashionMNIST", "read_idx", "parse_idx", "FASHION_MNIST_DIR"]

FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"  # Debian's dataset-fashion-mnist
CHUNK_BYTES = 32 << 20  # the rows a DataLoader sends to the device in one transfer


# ---- datasets

class Dataset:
    """A map-style dataset: __getitem__(index) and __len__."""

    def __getitem__(self, index):
        raise NotImplementedError(f"{type(self).__name__} defines no __getitem__")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read as a stream (__iter__); the loader batches it in order."""

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} defines no __iter__")


class TensorDataset(Dataset):
    """Row i of every tensor (or numpy array) given, as a tuple; all of one length.

    The loader gathers whole batches from host copies of the tensors, taken at the
    first batch (the tensors' values then; a tensor changed afterwards is not seen)."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        n = len(tensors[0])
        if any(len(t) != n for t in tensors):
            raise ValueError("Size mismatch between tensors")
        self.tensors = tensors
        self._host = None

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return len(self.tensors[0])

    def _rows(self):
        """The tensors on the host, with the device and dtype each batch goes back as."""
        if self._host is None:
            self._host = [T.host_rows(t) for t in self.tensors]
        return self._host

    def _gather(self, indices):
        """[(host rows at indices, what their tensor is made like)] for each tensor."""
        return [(h[indices], like) for h, like in self._rows()]


class Subset(Dataset):
    """The items of dataset at indices, in that order."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)

    @property
    def _gather(self):
        inner = getattr(self.dataset, "_gather", None)
        if inner is None:
            raise AttributeError("_gather")
        return lambda indices: inner(np.asarray(self.indices, dtype=np.int64)[indices])


class ConcatDataset(Dataset):
    """Datasets one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[d][idx - (self.cumulative_sizes[d - 1] if d else 0)]


def random_split(dataset, lengths, generator=None):
    """Subsets of dataset of the given lengths (or fractions summing to 1), at random."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = T.host_rng(generator).permutation(n).tolist()
    out, at = [], 0
    for k in lengths:
        out.append(Subset(dataset, order[at:at + k]))
        at += k
    return out


# ---- samplers

class Sampler:
    """An iterable of dataset indices."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of the indices (a new one each iteration), or num_samples drawn
    with replacement."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        rng = T.host_rng(self.generator)
        n = len(self.data_source)
        if self.replacement:
            return iter(rng.integers(0, n, self.num_samples).tolist())
        rounds = [rng.permutation(n) for _ in range(-(-self.num_samples // n))]
        return iter(np.concatenate(rounds)[:self.num_samples].tolist())

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        order = T.host_rng(self.generator).permutation(len(self.indices))
        return (self.indices[i] for i in order.tolist())

    def __len__(self):
        return len(self.indices)


class BatchSampler(Sampler):
    """Lists of batch_size indices from sampler (the last one shorter, or dropped)."""

    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral) or \
                batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, int(batch_size), drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


# ---- collation

def default_collate(batch):
    """PyTorch's default_collate: tensors and numpy arrays stacked into one tensor,
    Python ints into int64 and floats into float64 tensors, strings left as a list,
    and tuples, lists and dicts collated field by field."""
    elem = batch[0]
    if isinstance(elem, T.Tensor):
        return T.stack(batch)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "USO":
            raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, "
                            f"numbers, dicts or lists; found {elem.dtype}")
        return T.batch_tensor(np.stack(batch), None)
    if isinstance(elem, np.generic):
        return T.batch_tensor(np.array(batch), None)
    if isinstance(elem, bool):
        return T.batch_tensor(np.array(batch, dtype=np.bool_), None)
    if isinstance(elem, numbers.Integral):
        return T.batch_tensor(np.array(batch, dtype=np.int64), None)
    if isinstance(elem, numbers.Real):
        return T.batch_tensor(np.array(batch, dtype=np.float64), None)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return type(elem)(*(default_collate(s) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(s) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(elem)}")


# ---- the loader

class DataLoader:
    """Batches of a dataset: batch_size items (None: items one by one, uncollated),
    in order or shuffled (a new order each epoch), the last short batch kept or dropped
    (drop_last); or batches from batch_sampler. Yields what collate_fn makes of each
    batch (default_collate: for (input, label) items, [inputs, labels] tensors)."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device=""):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset, self.num_workers, self.pin_memory = dataset, num_workers, pin_memory
        self.timeout, self.worker_init_fn, self.generator = timeout, worker_init_fn, generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable and (shuffle or sampler is not None or batch_sampler is not None):
            raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle, "
                             "sampler and batch_sampler options")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle \
                else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        self._default_collate = collate_fn is None
        self.collate_fn = collate_fn if collate_fn is not None else \
            (default_collate if batch_size is not None or batch_sampler is not None
             else (lambda x: x))

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)

    def __iter__(self):
        if self._iterable:
            return self._iter_stream()
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        gather = getattr(self.dataset, "_gather", None) if self._default_collate else None
        if gather is not None:
            return self._iter_chunks(gather)
        many = getattr(self.dataset, "__getitems__", None)  # PyTorch's batched fetch
        if many is not None:
            return (self.collate_fn(many(b)) for b in self.batch_sampler)
        return (self.collate_fn([self.dataset[i] for i in b]) for b in self.batch_sampler)

    def _iter_chunks(self, gather):
        """The batches of a dataset that gathers rows on the host: the rows of many
        batches (up to CHUNK_BYTES) gathered and sent in one transfer per tensor, each
        batch then a view of its rows (a transfer waits for the device, so one per
        batch would cost a step its wait)."""
        pending, rows, budget = [], 0, None
        for b in self.batch_sampler:
            idx = np.asarray(b, dtype=np.int64)
            if budget is None:
                per_row = sum(h.nbytes // max(len(h), 1) for h, _ in gather(idx[:1]))
                budget = max(1, CHUNK_BYTES // max(per_row, 1))
            pending.append(idx)
            rows += len(idx)
            if rows >= budget:
                yield from self._emit(gather, pending)
                pending, rows = [], 0
        if pending:
            yield from self._emit(gather, pending)

    @staticmethod
    def _emit(gather, pending):
        hosts = gather(np.concatenate(pending))
        tensors = [(T.batch_tensor(h, like), h) for h, like in hosts]
        at = 0
        for idx in pending:
            n = len(idx)
            yield [T.rows(t, at, n, h[at:at + n]) for t, h in tensors]
            at += n

    def _iter_stream(self):
        it = iter(self.dataset)
        if self.batch_size is None:
            yield from (self.collate_fn(x) for x in it)
            return
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate_fn(batch)


# ---- MNIST-format datasets

class MNIST(TensorDataset):
    """MNIST from the four IDX files in root (train-images-idx3-ubyte,
    train-labels-idx1-ubyte, t10k-...; each plain or .gz), as clrt-train --data reads
    them: items (image 1 x 28 x 28 float32 in [0, 1], label int64), as torchvision's
    MNIST with ToTensor() gives them. train=False: the test set; limit: the first
    limit items. .data (N x 28 x 28 uint8) and .targets (N int64) are numpy arrays."""

    classes = [f"{i} - {w}" for i, w in enumerate(
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"))]

    def __init__(self, root, train=True, limit=None):
        root = os.fspath(root)
        kind = "train" if train else "t10k"
        images_path = os.path.join(root, f"{kind}-images-idx3-ubyte")
        labels_path = os.path.join(root, f"{kind}-labels-idx1-ubyte")
        images, labels = read_idx(images_path, 3), read_idx(labels_path, 1)
        if images.dtype != np.uint8 or labels.dtype != np.uint8:
            raise RuntimeError(f"{root}: the IDX files hold {images.dtype} images and "
                               f"{labels.dtype} labels; MNIST's are unsigned bytes")
        if len(labels) != len(images):
            raise RuntimeError(f"{labels_path}: {len(labels)} labels for the {len(images)} "
                               f"images of {images_path}")
        bad = np.flatnonzero(labels >= len(self.classes))
        if bad.size:
            raise RuntimeError(f"{labels_path}: label {bad[0]} is {labels[bad[0]]}; labels "
                               f"must be 0 to {len(self.classes) - 1}")
        if limit is not None:
            images, labels = images[:limit], labels[:limit]
        self.root, self.train = root, train
        self.data, self.targets = images, labels.astype(np.int64)
        x = (images.astype(np.float32) / np.float32(255)).reshape(len(images), 1,
                                                                  *images.shape[1:])
        super().__init__(x, self.targets)

    def __getitem__(self, index):
        # torchvision's item: the image as a tensor, the label as an int
        return T.batch_tensor(self.tensors[0][index], None), int(self.targets[index])


class FashionMNIST(MNIST):
    """Fashion-MNIST from root (default: Debian's dataset-fashion-mnist,
    /usr/share/datasets/fashion-mnist), as MNIST."""

    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt",
               "Sneaker", "Bag", "Ankle boot"]

    def __init__(self, root=FASHION_MNIST_DIR, train=True, limit=None):
        super().__init__(root, train, limit)
