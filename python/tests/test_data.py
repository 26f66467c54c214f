"""clrt.utils.data: the DataLoader's batches, order and refusals as PyTorch's; collation;
and the IDX readers on small files this test writes (plain, gzip, several gzip members)
and on damaged ones, each refused whole with the reason."""
import gzip
import re
import struct

import numpy as np
import pytest

import clrt
import clrt.utils.data as data_module
from clrt.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, FashionMNIST,
                             IterableDataset, MNIST, RandomSampler, SequentialSampler, Subset, TensorDataset,
                             default_collate, random_split, read_idx)


def numbered(n=10, features=3):
    x = np.arange(n * features, dtype=np.float32).reshape(n, features)
    y = np.arange(n, dtype=np.int64) % 4
    return x, y, TensorDataset(clrt.from_numpy(x), clrt.from_numpy(y))


def test_batches_in_order():
    x, y, ds = numbered(10)
    loader = DataLoader(ds, batch_size=4)
    assert len(loader) == 3
    batches = list(loader)
    assert [tuple(b[0].shape) for b in batches] == [(4, 3), (4, 3), (2, 3)]
    for i, (inputs, labels) in enumerate(batches):
        assert isinstance(inputs, clrt.Tensor) and inputs.dtype == clrt.float32
        assert labels.dtype == clrt.int64  # PyTorch's labels
        np.testing.assert_array_equal(inputs.numpy(), x[4 * i:4 * i + 4])
        np.testing.assert_array_equal(labels.numpy(), y[4 * i:4 * i + 4])
    dropped = DataLoader(ds, batch_size=4, drop_last=True)
    assert len(dropped) == 2 and [len(b[1]) for b in dropped] == [4, 4]
    one = DataLoader(ds, batch_size=None)  # no batching: the items themselves
    assert len(one) == 10 and tuple(next(iter(one))[0].shape) == (3,)


@pytest.mark.parametrize("chunk_bytes", [1, 100, 1000, 1 << 20])
def test_batches_sent_in_chunks(chunk_bytes, monkeypatch):
    """The rows go to the device many batches at a time (a chunk of at most CHUNK_BYTES,
    at least one batch): whatever the chunks, the batches are the items' rows, each
    one a tensor of its own rows, as collating item by item gives them."""
    monkeypatch.setattr(data_module, "CHUNK_BYTES", chunk_bytes)
    x, y, ds = numbered(23, 5)  # 20 + 8 bytes a row: 100 bytes hold 3 rows
    clrt.manual_seed(2)
    order = [b for b in BatchSampler(RandomSampler(ds), 4, False)]
    clrt.manual_seed(2)
    batches = list(DataLoader(Subset(ds, list(range(23))), batch_size=4, shuffle=True))
    assert [len(b[1]) for b in batches] == [4, 4, 4, 4, 4, 3]
    for idx, (inputs, labels) in zip(order, batches):
        assert tuple(inputs.shape) == (len(idx), 5) and inputs.is_contiguous()
        np.testing.assert_array_equal(inputs.numpy(), x[idx])
        np.testing.assert_array_equal(labels.numpy(), y[idx])
        itemwise = default_collate([ds[i] for i in idx])
        np.testing.assert_array_equal(itemwise[0].numpy(), inputs.numpy())
    inputs.mul_(0)  # a batch is its own rows: the others keep theirs
    np.testing.assert_array_equal(batches[0][0].numpy(), x[order[0]])


def test_shuffle_is_a_seeded_permutation():
    x, y, ds = numbered(50, 2)
    loader = DataLoader(ds, batch_size=7, shuffle=True)

    def epoch():
        return np.concatenate([labels_and_rows(b) for b in loader])

    def labels_and_rows(batch):
        inputs, _ = batch
        return inputs.numpy()[:, 0] / 2  # row i holds 2i, 2i+1

    clrt.manual_seed(5)
    first, second = epoch(), epoch()
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert list(first) != list(range(50)) and list(first) != list(second)  # a new order each epoch
    clrt.manual_seed(5)
    np.testing.assert_array_equal(epoch(), first)  # manual_seed repeats the orders
    np.testing.assert_array_equal(epoch(), second)

    class Gen:  # a generator as DataLoader takes one: its own seed, its own draws
        def __init__(self, s):
            self.s = s

        def initial_seed(self):
            return self.s

    a = [b[1].numpy().tolist() for b in DataLoader(ds, batch_size=50, shuffle=True, generator=Gen(1))]
    b = [b[1].numpy().tolist() for b in DataLoader(ds, batch_size=50, shuffle=True, generator=Gen(1))]
    assert a == b


def test_samplers_and_refusals():
    _, _, ds = numbered(10)
    assert list(SequentialSampler(ds)) == list(range(10))
    assert sorted(RandomSampler(ds)) == list(range(10))
    assert len(list(RandomSampler(ds, replacement=True, num_samples=25))) == 25
    assert list(BatchSampler(range(7), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    loader = DataLoader(ds, batch_sampler=[[9, 0], [5]])
    assert [b[1].numpy().tolist() for b in loader] == [[1, 0], [1]]
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=SequentialSampler(ds), shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(ds, batch_size=0)
    with pytest.raises(ValueError, match="Size mismatch between tensors"):
        TensorDataset(clrt.zeros(3), clrt.zeros(4))
    assert len(DataLoader(ds, batch_size=3, num_workers=2)) == 4  # read in this process
    with pytest.raises(ValueError, match="timeout option should be non-negative"):
        DataLoader(ds, timeout=-1)
    with pytest.raises(ValueError, match="batch_size=None option disables auto-batching and is "
                                         "mutually exclusive with drop_last"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        RandomSampler(ds, replacement=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value, but "
                                         "got num_samples=0"):
        RandomSampler(ds, num_samples=0)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        BatchSampler(range(3), 2, drop_last=1)
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(ds, [3, 3])
    with pytest.raises(ValueError, match="TensorDataset needs at least one tensor"):
        TensorDataset()
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        default_collate([object(), object()])


def test_the_dataset_is_copied_to_the_host_once(monkeypatch):
    """A TensorDataset's tensors are read back once, at the first batch; each epoch
    then gathers its rows from that copy (not the whole dataset again)."""
    x, y, ds = numbered(9)
    reads = []
    host_rows = data_module.T.host_rows
    monkeypatch.setattr(data_module.T, "host_rows", lambda t: reads.append(t) or host_rows(t))
    loader = DataLoader(ds, batch_size=4, shuffle=True)
    for _ in range(3):
        rows = np.concatenate([b[0].numpy() for b in loader])
        np.testing.assert_array_equal(np.sort(rows[:, 0]), x[:, 0])
    assert len(reads) == 2  # x and y, once each


def test_iterable_and_concatenated_datasets():
    class Stream(IterableDataset):
        def __iter__(self):
            return ((np.full(2, i, np.float32), i) for i in range(7))

        def __len__(self):
            return 7

    batches = list(DataLoader(Stream(), batch_size=3))
    assert len(DataLoader(Stream(), batch_size=3)) == 3
    assert [b[1].numpy().tolist() for b in batches] == [[0, 1, 2], [3, 4, 5], [6]]
    np.testing.assert_array_equal(batches[1][0].numpy(), np.repeat([[3], [4], [5]], 2, 1))
    dropped = DataLoader(Stream(), batch_size=3, drop_last=True)
    assert len(dropped) == 2 and [b[1].numpy().tolist() for b in dropped] == [[0, 1, 2], [3, 4, 5]]
    items = list(DataLoader(Stream(), batch_size=None))
    assert len(items) == 7 and items[4][1] == 4 and isinstance(items[4][0], np.ndarray)
    with pytest.raises(ValueError, match="expected unspecified shuffle, sampler and batch_sampler"):
        DataLoader(Stream(), shuffle=True)
    x, y, a = numbered(4)
    _, _, b = numbered(6)
    cat = a + b
    assert isinstance(cat, ConcatDataset) and len(cat) == 10 and cat.cumulative_sizes == [4, 10]
    for i, want in ((0, a[0]), (3, a[3]), (4, b[0]), (9, b[5]), (-1, b[5]), (-10, a[0])):
        assert [t.numpy().tolist() for t in cat[i]] == [t.numpy().tolist() for t in want]
    labels = np.concatenate([bt[1].numpy() for bt in DataLoader(cat, batch_size=3)])
    assert labels.tolist() == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    with pytest.raises(ValueError, match="absolute value of index should not exceed dataset length"):
        cat[-11]
    with pytest.raises(IndexError):
        cat[10]
    with pytest.raises(ValueError, match="datasets should not be an empty iterable"):
        ConcatDataset([])


def test_subsets_and_collation():
    x, y, ds = numbered(10)
    sub = Subset(ds, [7, 2, 5])
    inputs, labels = next(iter(DataLoader(sub, batch_size=3)))
    np.testing.assert_array_equal(inputs.numpy(), x[[7, 2, 5]])
    clrt.manual_seed(1)
    a, b = random_split(ds, [7, 3])
    assert len(a) == 7 and len(b) == 3 and sorted(a.indices + b.indices) == list(range(10))
    assert sorted(len(s) for s in random_split(ds, [0.5, 0.5])) == [5, 5]

    class Items(Dataset):  # a map-style dataset of mixed items, collated one by one
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"x": np.full(2, i, np.float32), "n": i, "w": 0.5 * i, "name": f"item{i}"}

    batch = next(iter(DataLoader(Items(), batch_size=3)))
    assert batch["x"].dtype == clrt.float32 and tuple(batch["x"].shape) == (3, 2)
    assert batch["n"].dtype == clrt.int64 and batch["n"].numpy().tolist() == [0, 1, 2]
    assert batch["w"].dtype == clrt.float64 and batch["name"] == ["item0", "item1", "item2"]
    class Many(Items):  # a dataset that fetches a batch's items at once (PyTorch's __getitems__)
        asked = []

        def __getitems__(self, indices):
            self.asked.append(list(indices))
            return [self[i] for i in indices]

    batches = list(DataLoader(Many(), batch_size=2))
    assert Many.asked == [[0, 1], [2, 3], [4]] and batches[2]["n"].numpy().tolist() == [4]
    pairs = default_collate([(clrt.ones(2), 1), (clrt.zeros(2), 0)])
    assert isinstance(pairs, list) and pairs[0].numpy().tolist() == [[1, 1], [0, 0]]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])


# ---- IDX files

def idx_bytes(array, kind=0x08):
    head = bytes([0, 0, kind, array.ndim]) + b"".join(struct.pack(">I", n) for n in array.shape)
    return head + array.astype(array.dtype.newbyteorder(">")).tobytes()


def write(path, data):
    path.write_bytes(data)
    return path


def test_idx_plain_gzip_and_members(tmp_path, rng):
    images = rng.integers(0, 256, (5, 4, 3)).astype(np.uint8)
    raw = idx_bytes(images)
    np.testing.assert_array_equal(read_idx(write(tmp_path / "a", raw)), images)
    np.testing.assert_array_equal(read_idx(write(tmp_path / "b.gz", gzip.compress(raw))), images)
    # "name" where only "name.gz" is there: that one, as clrt-train finds it
    np.testing.assert_array_equal(read_idx(tmp_path / "b"), images)
    two = gzip.compress(raw[:7]) + gzip.compress(raw[7:])  # two members: one stream
    np.testing.assert_array_equal(read_idx(write(tmp_path / "c.gz", two)), images)
    floats = rng.standard_normal((3, 2))
    np.testing.assert_array_equal(read_idx(write(tmp_path / "f", idx_bytes(floats, 0x0E))), floats)
    labels = np.arange(6, dtype=np.uint8)
    assert read_idx(write(tmp_path / "l", idx_bytes(labels)), dims=1).tolist() == list(range(6))


DAMAGE = {
    "magic": (lambda raw: b"\x00\x00\x07" + raw[3:], "wrong magic"),
    "dims": (lambda raw: raw[:3] + b"\x02" + raw[4:], "wrong magic"),
    "zero dimension": (lambda raw: raw[:8] + b"\x00\x00\x00\x00" + raw[12:], "dimension 2 is 0"),
    "truncated data": (lambda raw: raw[:-5], "truncated: the header promises 5 items"),
    "truncated header": (lambda raw: raw[:9], "shorter than an IDX header"),
    "extra data": (lambda raw: raw + b"\x00", "more data than the header's 5 items"),
    "crc": (lambda raw: gz_damaged(raw), "CRC-32 mismatch"),
    "gzip cut": (lambda raw: gzip.compress(raw)[:-3], "gzip member 1 is truncated"),
    "trailing short": (lambda raw: gzip.compress(raw) + b"\x1f\x8b\x08",
                       "trailing bytes after gzip member 1 (too short"),
    "trailing garbage": (lambda raw: gzip.compress(raw) + b"not a gzip member at all",
                         "trailing bytes after gzip member 1 (not a gzip member)"),
    "gzip length": (lambda raw: gz_length(raw), "the length in its trailer"),
    "gzip method": (lambda raw: gz_method(raw), "gzip member 1: corrupt gzip data"),
}


def gz_method(raw):
    z = bytearray(gzip.compress(raw))
    z[2] = 7  # the header's compression method: 8 (deflate) is the only one
    return bytes(z)


def gz_damaged(raw):
    z = bytearray(gzip.compress(raw))
    z[-8] ^= 0xFF  # the CRC-32 of the trailer
    return bytes(z)


def gz_length(raw):
    z = bytearray(gzip.compress(raw))
    z[-1] ^= 0x01  # ISIZE, the trailer's length
    return bytes(z)


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_idx_damaged_files_are_refused_whole(damage, tmp_path, rng):
    raw = idx_bytes(rng.integers(0, 256, (5, 4, 3)).astype(np.uint8))
    make, why = DAMAGE[damage]
    path = write(tmp_path / "images", make(raw))
    with pytest.raises(RuntimeError, match=re.escape(why)) as e:
        read_idx(path, dims=3)
    assert str(path) in str(e.value)
    with pytest.raises(FileNotFoundError):
        read_idx(tmp_path / "missing")


def mnist_dir(tmp_path, rng, n=(12, 5), labels_max=9):
    for kind, count in zip(("train", "t10k"), n):
        write(tmp_path / f"{kind}-images-idx3-ubyte",
              idx_bytes(rng.integers(0, 256, (count, 28, 28)).astype(np.uint8)))
        lab = rng.integers(0, labels_max + 1, count).astype(np.uint8)
        lab[0] = labels_max
        write(tmp_path / f"{kind}-labels-idx1-ubyte.gz", gzip.compress(idx_bytes(lab)))
    return tmp_path


def test_mnist_dataset(tmp_path, rng):
    root = mnist_dir(tmp_path, rng)
    train = MNIST(root)
    test = MNIST(root, train=False)
    assert len(train) == 12 and len(test) == 5 and len(MNIST(root, limit=4)) == 4
    image, label = train[3]
    assert tuple(image.shape) == (1, 28, 28) and image.dtype == clrt.float32 and isinstance(label, int)
    np.testing.assert_allclose(image.numpy()[0], train.data[3] / 255, rtol=1e-6)
    inputs, labels = next(iter(DataLoader(train, batch_size=5)))
    assert tuple(inputs.shape) == (5, 1, 28, 28) and labels.dtype == clrt.int64
    np.testing.assert_array_equal(labels.numpy(), train.targets[:5])
    items = [train[i] for i in range(5)]  # item by item, then collated: the same batch
    again = default_collate(items)
    np.testing.assert_array_equal(again[0].numpy(), inputs.numpy())
    (tmp_path / "bad").mkdir()
    bad = mnist_dir(tmp_path / "bad", rng, labels_max=10)
    with pytest.raises(RuntimeError, match="label 0 is 10; labels must be 0 to 9"):
        MNIST(bad)
    write(root / "t10k-labels-idx1-ubyte.gz", gzip.compress(idx_bytes(np.zeros(4, np.uint8))))
    with pytest.raises(RuntimeError, match="4 labels for the 5 images"):
        MNIST(root, train=False)
    write(root / "t10k-labels-idx1-ubyte.gz", gzip.compress(idx_bytes(np.zeros(5, np.int8), 0x09)))
    with pytest.raises(RuntimeError, match="hold uint8 images and int8 labels; MNIST's are "
                                           "unsigned bytes"):
        MNIST(root, train=False)


def test_fashion_mnist_when_installed():
    import os
    root = "/usr/share/datasets/fashion-mnist"
    if not os.path.isdir(root):
        pytest.skip("Debian's dataset-fashion-mnist is not installed")
    test = FashionMNIST(train=False)
    assert len(test) == 10000 and test.classes[9] == "Ankle boot"
    assert sorted(np.unique(test.targets)) == list(range(10))


def test_label_batches_know_their_range():
    """Each integer batch carries its values' range from the host, so that cross_entropy
    checks its targets without reading them back from the device (a wait every step),
    and a target out of range is still refused by name."""
    from clrt._tensor import known_range
    y = np.array([3, 1, 4, 1, 5, 9, 2, 12], np.int64)
    loader = DataLoader(TensorDataset(clrt.zeros(8, 10), clrt.from_numpy(y)), batch_size=3)
    batches = list(loader)
    assert [known_range(b[1]) for b in batches] == [(1, 4), (1, 9), (2, 12)]
    assert known_range(batches[0][0]) is None  # floats: none
    clrt.nn.functional.cross_entropy(batches[1][0], batches[1][1])
    with pytest.raises(IndexError, match="Target 12 is out of bounds"):
        clrt.nn.functional.cross_entropy(batches[2][0], batches[2][1])
