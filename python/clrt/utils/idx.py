"""IDX files (MNIST's and Fashion-MNIST's format), plain or gzip, read whole or refused.

The rules are clrt-train's (tools/train/idx.c): a gzip file (it starts with 1f 8b) is
inflated member by member, each member's CRC-32 and length checked; bytes after the
last member, a member cut short and a damaged stream are refused by name. The data
then has a header (00 00, a type byte, the number of dimensions, each dimension as
a big-endian 32-bit count, none zero) and exactly as many values as it promises.
Every refusal is a RuntimeError naming the file and what is wrong; nothing is
returned from a damaged file.
"""
import os
import zlib

import numpy as np

__all__ = ["read_idx"]

# the IDX type byte -> the big-endian dtype of its values
_TYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"),
          0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_GZIP_HEADER_MIN = 10


def _refuse(path, why):
    return RuntimeError(f"{path}: {why}")


def _gunzip(data, path):
    """The bytes of every gzip member of data, in order; each member checked."""
    out, member, rest = [], 1, data
    while True:
        z = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            out.append(z.decompress(rest))
        except zlib.error as e:
            msg = str(e)
            if member > 1 and "incorrect header check" in msg:
                raise _refuse(path, f"trailing bytes after gzip member {member - 1} "
                                    "(not a gzip member)") from None
            if "incorrect data check" in msg:
                raise _refuse(path, f"gzip member {member}: CRC-32 mismatch in its trailer "
                                    "(the data is damaged)") from None
            if "incorrect length check" in msg:
                raise _refuse(path, f"gzip member {member}: the length in its trailer does "
                                    "not match its data") from None
            raise _refuse(path, f"gzip member {member}: corrupt gzip data ({msg})") from None
        if not z.eof:
            if member > 1 and len(rest) < _GZIP_HEADER_MIN:
                raise _refuse(path, f"trailing bytes after gzip member {member - 1} (too short "
                                    "for a gzip member)")
            raise _refuse(path, f"gzip member {member} is truncated (its data or its 8-byte "
                                "trailer is cut short)")
        rest = z.unused_data
        if not rest:
            return b"".join(out)
        member += 1


def parse_idx(data, path="<bytes>", dims=None):
    """The array held by the IDX bytes data (gzip or plain); dims, when given, is the
    number of dimensions required (3 for images, 1 for labels)."""
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, path)
    if len(data) < 4:
        raise _refuse(path, f"truncated: {len(data)} bytes, shorter than an IDX header")
    kind, ndim = data[2], data[3]
    if data[0] != 0 or data[1] != 0 or kind not in _TYPES or ndim == 0 or \
            (dims is not None and ndim != dims):
        want = f"{dims} dimension{'s' if dims != 1 else ''}" if dims else "1 or more dimensions"
        raise _refuse(path, f"wrong magic {data[:4].hex()}: not an IDX file with {want}")
    head = 4 + 4 * ndim
    if len(data) < head:
        raise _refuse(path, f"truncated: {len(data)} bytes, shorter than an IDX header")
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    for i, n in enumerate(shape):
        if n == 0:
            raise _refuse(path, f"dimension {i + 1} is 0")
    dtype = _TYPES[kind]
    count = int(np.prod(shape, dtype=object))
    have = (len(data) - head) // dtype.itemsize
    if len(data) - head > count * dtype.itemsize:
        raise _refuse(path, f"more data than the header's {shape[0]} items: not one IDX file")
    if have < count or (len(data) - head) % dtype.itemsize:
        raise _refuse(path, f"truncated: the header promises {shape[0]} items "
                            f"({count * dtype.itemsize} bytes of data), the file holds "
                            f"{len(data) - head}")
    arr = np.frombuffer(data, dtype, count, head).reshape(shape)
    return arr.astype(dtype.newbyteorder("="), copy=True)


def read_idx(path, dims=None):
    """The numpy array in the IDX file at path (plain, or gzip by its first bytes; given
    "name" and only "name.gz" there, that one). RuntimeError for a damaged file,
    FileNotFoundError for a missing one."""
    path = os.fspath(path)
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        path += ".gz"
    with open(path, "rb") as f:
        data = f.read()
    return parse_idx(data, path, dims)
