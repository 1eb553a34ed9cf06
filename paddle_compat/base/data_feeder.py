"""``paddle.base.data_feeder``: ``convert_dtype`` (a dtype's name as Paddle spells it)."""

from __future__ import annotations

import numpy as np

from .._core import dtype as _dt
from .._core.tensor_api import VarType

_NAMES = (
    "bool", "float16", "uint16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "complex64", "complex128", "bfloat16",
)  # fmt: skip


def convert_dtype(dtype) -> str:
    """The name of ``dtype`` (a paddle dtype, VarType, numpy dtype or name); bfloat16 is
    ``'uint16'`` as in Paddle's legacy naming."""
    if isinstance(dtype, VarType):
        dtype = {"BF16": "bfloat16", "FP16": "float16", "FP32": "float32", "FP64": "float64"}.get(
            dtype.name, dtype.name.lower()
        )
    if isinstance(dtype, str) and dtype not in _NAMES and not dtype.startswith("float8"):
        dtype = None
    try:
        d = _dt.to_dtype(dtype) if dtype is not None else None
    except TypeError:
        d = None
    if d is None and isinstance(dtype, type) and issubclass(dtype, np.generic):
        d = _dt.to_dtype(np.dtype(dtype))
    if d is None:
        raise TypeError(
            f"dtype must be any of [{', '.join(_NAMES)}], but received {dtype if dtype is not None else 'None'}"
        )
    return "uint16" if d is _dt.bfloat16 else d.name


__all__ = ["convert_dtype"]
