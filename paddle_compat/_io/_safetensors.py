"""``paddle.save(state_dict, path, safetensors=True)`` / ``paddle.load(path, safetensors=True)``
without the ``safetensors`` package: the format is an 8-byte little-endian header length, a
JSON header ``{name: {dtype, shape, data_offsets}}`` padded with spaces to 8 bytes, then the
raw little-endian tensor bytes."""

from __future__ import annotations

import io
import json
import struct

import ml_dtypes
import numpy as np

__all__ = ["save_state_dict", "load_state_dict", "to_bytes", "from_bytes"]

_CODE_OF = {
    np.dtype(np.bool_): "BOOL",
    np.dtype(np.uint8): "U8",
    np.dtype(np.int8): "I8",
    np.dtype(np.int16): "I16",
    np.dtype(np.uint16): "U16",
    np.dtype(np.int32): "I32",
    np.dtype(np.uint32): "U32",
    np.dtype(np.int64): "I64",
    np.dtype(np.uint64): "U64",
    np.dtype(np.float16): "F16",
    np.dtype(ml_dtypes.bfloat16): "BF16",
    np.dtype(np.float32): "F32",
    np.dtype(np.float64): "F64",
    np.dtype(ml_dtypes.float8_e4m3fn): "F8_E4M3",
    np.dtype(ml_dtypes.float8_e5m2): "F8_E5M2",
    np.dtype(np.complex64): "C64",
}
_DTYPE_OF = {v: k for k, v in _CODE_OF.items()}


def to_bytes(arrays: dict, metadata: dict | None = None) -> bytes:
    """Serialize ``{name: ndarray}`` in the safetensors format."""
    order = sorted(arrays, key=lambda k: (-np.asarray(arrays[k]).dtype.itemsize, k))
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    for name in order:
        a = np.require(arrays[name], requirements="C")  # keeps 0-d (ascontiguousarray makes it 1-d)
        if a.dtype not in _CODE_OF:
            raise TypeError(f"safetensors cannot store dtype {a.dtype} (tensor '{name}').")
        data = a.tobytes()
        header[name] = {
            "dtype": _CODE_OF[a.dtype],
            "shape": list(a.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + b"".join(blobs)


def from_bytes(buf: bytes) -> dict:
    """Parse a safetensors buffer into ``{name: ndarray}`` (in header order)."""
    if len(buf) < 8:
        raise ValueError("not a safetensors file (shorter than its header size)")
    (n,) = struct.unpack("<Q", buf[:8])
    if n > len(buf) - 8:
        raise ValueError("not a safetensors file (header larger than the file)")
    header = json.loads(buf[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPE_OF.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"unsupported safetensors dtype {info['dtype']} for '{name}'")
        b, e = info["data_offsets"]
        a = np.frombuffer(buf[base + b : base + e], dtype=dtype).reshape(info["shape"])
        out[name] = a.copy()
    return out


def save_state_dict(state_dict: dict, path, write) -> None:
    from .serialization import _tensor_cls

    Tensor = _tensor_cls()
    arrays = {}
    for k, v in state_dict.items():
        if not isinstance(v, Tensor):
            raise TypeError(
                f"safetensors=True stores Tensors only, but '{k}' is a {type(v).__name__}."
            )
        arrays[str(k)] = np.asarray(v._value)
    data = to_bytes(arrays)
    write(path, lambda f: f.write(data))


def load_state_dict(path, return_numpy: bool) -> dict:
    from .serialization import _host_array, _numpy_to_tensor

    if isinstance(path, io.BytesIO):
        buf = path.read()
    else:
        with open(path, "rb") as f:
            buf = f.read()
    arrays = from_bytes(buf)
    if return_numpy:
        return {
            k: _host_array(v) if v.dtype == ml_dtypes.bfloat16 else v for k, v in arrays.items()
        }
    return {k: _numpy_to_tensor(v) for k, v in arrays.items()}
