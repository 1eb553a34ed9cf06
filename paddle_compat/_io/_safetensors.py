"""``paddle.save(state_dict, path, safetensors=True)`` / ``paddle.load(path, safetensors=True)``
through the maintained ``safetensors`` package, as Paddle does: its Rust core validates the
header (offsets inside the file, no overlaps, sizes matching shapes) and files are read
memory-mapped. Names load in sorted order (``safe_open``'s, as in Paddle); a header that does not
validate is a ``ValueError`` naming the file."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import safetensors
import safetensors.numpy

__all__ = ["save_state_dict", "load_state_dict"]

_DTYPE_OF_CODE = {  # safetensors' dtype codes
    "BOOL": np.bool_,
    "U8": np.uint8,
    "I8": np.int8,
    "I16": np.int16,
    "U16": np.uint16,
    "I32": np.int32,
    "U32": np.uint32,
    "I64": np.int64,
    "U64": np.uint64,
    "F16": np.float16,
    "BF16": ml_dtypes.bfloat16,
    "F32": np.float32,
    "F64": np.float64,
    "F8_E4M3": ml_dtypes.float8_e4m3fn,
    "F8_E5M2": ml_dtypes.float8_e5m2,
    "C64": np.complex64,
}


def save_state_dict(state_dict: dict, path, write) -> None:
    from .serialization import _tensor_cls

    Tensor = _tensor_cls()
    arrays = {}
    for k, v in state_dict.items():
        if not isinstance(v, Tensor):
            raise TypeError(
                f"safetensors=True stores Tensors only, but '{k}' is a {type(v).__name__}."
            )
        arrays[str(k)] = np.require(np.asarray(v._value), requirements="C")
    data = safetensors.numpy.save(arrays)
    write(path, lambda f: f.write(data))


def _read(path) -> dict:
    """``{name: ndarray}`` in sorted name order."""
    if isinstance(path, io.BytesIO):
        return _from_views(safetensors.deserialize(path.getvalue()))
    with safetensors.safe_open(path, framework="np") as f:
        names = list(f.keys())
        if any(f.get_slice(k).get_dtype() in ("F8_E4M3", "F8_E5M2") for k in names):
            with open(path, "rb") as raw:  # numpy has no float8: validated views instead
                return _from_views(safetensors.deserialize(raw.read()))
        return {k: f.get_tensor(k) for k in names}


def _from_views(views) -> dict:
    out = {}
    for name, v in sorted(views, key=lambda kv: kv[0]):
        if v["dtype"] not in _DTYPE_OF_CODE:
            raise KeyError(f"tensor '{name}' has the dtype {v['dtype']}, which Paddle has not")
        out[name] = np.frombuffer(v["data"], dtype=_DTYPE_OF_CODE[v["dtype"]]).reshape(v["shape"])
    return out


def load_state_dict(path, return_numpy: bool) -> dict:
    from .serialization import _host_array, _numpy_to_tensor, _shown

    try:
        arrays = _read(path)
    except (safetensors.SafetensorError, KeyError, OSError) as e:
        raise ValueError(
            f"`paddle.load` can not parse the safetensors file:{_shown(path)}: {e}"
        ) from None
    if return_numpy:
        return {
            k: _host_array(v) if v.dtype == ml_dtypes.bfloat16 else v for k, v in arrays.items()
        }
    return {k: _numpy_to_tensor(v) for k, v in arrays.items()}
