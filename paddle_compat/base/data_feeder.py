"""``paddle.base.data_feeder``: ``convert_dtype`` (a dtype's name as Paddle spells it) and
``check_shape`` (the static-mode check of a ``shape`` argument)."""

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


def _variable_type():
    from ..static._program import Variable

    return Variable


def _check_type(value, what: str, expected: tuple, op_name: str) -> None:
    if not isinstance(value, expected):
        raise TypeError(
            f"The type of '{what}' in {op_name} must be {expected}, but received {type(value)}. "
        )


def _check_int_dtype(var, what: str, expected: tuple, op_name: str, extra: str = "") -> None:
    name = convert_dtype(var.dtype)
    if name not in expected:
        raise TypeError(
            f"The data type of '{what}' in {op_name} must be {expected}, but received "
            f"{name}. {extra}"
        )


def check_shape(
    shape,
    op_name: str,
    expected_shape_type=None,
    expected_element_type=None,
    expected_tensor_dtype: tuple = ("int32", "int64"),
) -> None:
    """Check a ``shape`` argument of ``op_name`` in static mode (a list/tuple of ints and
    int Variables, or an int Variable), raising Paddle's TypeError; nothing in dynamic mode.
    The expected types default to (list, tuple, Variable) and (int, Variable)."""
    from .._core import static_mode

    if not static_mode.is_static():
        return
    var = _variable_type()
    shape_types = (list, tuple, var) if expected_shape_type is None else expected_shape_type
    element_types = (int, var) if expected_element_type is None else expected_element_type
    _check_type(shape, "shape", shape_types, op_name)
    if isinstance(shape, var):
        _check_int_dtype(shape, "shape", expected_tensor_dtype, op_name)
        return
    for element in shape:
        _check_type(element, "element of shape", element_types, op_name)
        if isinstance(element, var):
            _check_int_dtype(
                element, "element of shape", expected_tensor_dtype, op_name,
                "If element of shape is Tensor, its data type should be int32, int64",
            )  # fmt: skip


__all__ = ["check_shape", "convert_dtype"]
