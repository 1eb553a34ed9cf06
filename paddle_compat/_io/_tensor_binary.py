"""Paddle's binary DenseTensor stream (``paddle.save(t, path, use_binary_format=True)``; also the
per-variable records of ``.pdiparams`` files).

Layout, measured on Paddle 3.3.1 (all little-endian)::

    uint32 version (0) | uint64 lod_level | lod_level x (uint64 nbytes, nbytes of uint64 offsets)
    uint32 tensor version (0) | int32 desc_size | TensorDesc protobuf | raw data (C order)

``TensorDesc`` is ``{1: data_type (varint), 2: dims (repeated int64)}`` with Paddle's
``VarType`` numbering for ``data_type``.
"""

from __future__ import annotations

import math
import struct

import ml_dtypes
import numpy as np

__all__ = ["dense_tensor_to_bytes", "read_dense_tensor", "VAR_TYPE_OF", "DTYPE_OF_VAR_TYPE"]

DTYPE_OF_VAR_TYPE = {
    0: np.dtype(np.bool_),
    1: np.dtype(np.int16),
    2: np.dtype(np.int32),
    3: np.dtype(np.int64),
    4: np.dtype(np.float16),
    5: np.dtype(np.float32),
    6: np.dtype(np.float64),
    20: np.dtype(np.uint8),
    21: np.dtype(np.int8),
    22: np.dtype(ml_dtypes.bfloat16),
    23: np.dtype(np.complex64),
    24: np.dtype(np.complex128),
    32: np.dtype(ml_dtypes.float8_e4m3fn),
    33: np.dtype(ml_dtypes.float8_e5m2),
}
VAR_TYPE_OF = {v: k for k, v in DTYPE_OF_VAR_TYPE.items()}


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int64 -> two's complement, 10 bytes
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint in TensorDesc")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    if result >= 1 << 63:
        result -= 1 << 64
    return result, pos


def dense_tensor_to_bytes(arr: np.ndarray, lod=()) -> bytes:
    """Serialize a numpy array (bfloat16/float8 as ml_dtypes arrays) as Paddle does."""
    arr = np.require(arr, requirements="C")  # keeps 0-d (ascontiguousarray makes it 1-d)
    if arr.dtype not in VAR_TYPE_OF:
        raise TypeError(f"Paddle's binary tensor format has no dtype {arr.dtype}.")
    out = [struct.pack("<IQ", 0, len(lod))]
    for level in lod:
        data = np.asarray(level, dtype="<u8").tobytes()
        out.append(struct.pack("<Q", len(data)) + data)
    desc = b"\x08" + _varint(VAR_TYPE_OF[arr.dtype])
    for d in arr.shape:
        desc += b"\x10" + _varint(int(d))
    out.append(struct.pack("<Ii", 0, len(desc)) + desc)
    out.append(arr.tobytes())  # little-endian hosts only (all platforms JAX runs on)
    return b"".join(out)


_CHUNK = 64 << 20  # reads from a stream of unknown length grow by this much at most


def _bytes_left(f) -> int | None:
    try:
        pos = f.tell()
        end = f.seek(0, 2)
        f.seek(pos)
        return end - pos
    except (AttributeError, OSError, ValueError):
        return None


def _read_exact(f, n: int) -> bytearray:
    """``n`` bytes of ``f`` (writable, for a copy-free array); a length field larger than what
    the stream holds raises instead of allocating it."""
    left = _bytes_left(f)
    if left is not None and left < n:
        raise ValueError(f"truncated Paddle binary tensor stream: {n} bytes expected, {left} left")
    buf = bytearray(n) if left is not None else bytearray()
    if left is not None:
        view, got = memoryview(buf), 0
        while got < n:
            k = f.readinto(view[got:])
            if not k:
                break
            got += k
        view.release()
        if got == n:
            return buf
        raise ValueError(f"truncated Paddle binary tensor stream: {n} bytes expected, {got} found")
    while len(buf) < n:
        chunk = f.read(min(n - len(buf), _CHUNK))
        if not chunk:
            raise ValueError(
                f"truncated Paddle binary tensor stream: {n} bytes expected, {len(buf)} found"
            )
        buf += chunk
    return buf


def read_dense_tensor(f) -> tuple[np.ndarray, list]:
    """Read one DenseTensor record from a binary stream; returns (array, lod)."""
    (version,) = struct.unpack("<I", _read_exact(f, 4))
    if version != 0:
        raise ValueError(f"not a Paddle binary tensor (expected version 0, found {version})")
    (lod_level,) = struct.unpack("<Q", _read_exact(f, 8))
    if lod_level > 64:
        raise ValueError(f"not a Paddle binary tensor (lod level {lod_level})")
    lod = []
    for _ in range(lod_level):
        (nbytes,) = struct.unpack("<Q", _read_exact(f, 8))
        lod.append(np.frombuffer(_read_exact(f, nbytes), dtype="<u8").tolist())
    tversion, desc_size = struct.unpack("<Ii", _read_exact(f, 8))
    if tversion != 0 or not 0 <= desc_size < 1 << 20:
        raise ValueError("not a Paddle binary tensor (bad TensorDesc header)")
    desc = _read_exact(f, desc_size)
    pos, var_type, dims = 0, None, []
    while pos < len(desc):
        key, pos = _read_varint(desc, pos)
        field, wire = key >> 3, key & 7
        if field == 1 and wire == 0:
            var_type, pos = _read_varint(desc, pos)
        elif field == 2 and wire == 0:
            d, pos = _read_varint(desc, pos)
            dims.append(d)
        elif field == 2 and wire == 2:  # packed dims
            n, pos = _read_varint(desc, pos)
            end = pos + n
            while pos < end:
                d, pos = _read_varint(desc, pos)
                dims.append(d)
        else:
            raise ValueError(f"unexpected field {field} in TensorDesc")
    if var_type not in DTYPE_OF_VAR_TYPE or any(d < 0 for d in dims):
        raise ValueError(f"unsupported TensorDesc (data_type={var_type}, dims={dims})")
    dtype = DTYPE_OF_VAR_TYPE[var_type]
    data = _read_exact(f, math.prod(dims) * dtype.itemsize)  # Python ints: no overflow
    return np.frombuffer(data, dtype=dtype).reshape(dims), lod
