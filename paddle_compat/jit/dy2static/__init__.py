"""paddle.jit.dy2static: the control-flow conversion of ``to_static`` (source transform in
``transformer``, runtime in ``convert_ops``, ``lax`` primitives in ``lax_control``)."""

from .convert import convert_function, converting
from .convert_ops import (
    ConversionError,
    UndefinedVar,
    convert_call,
    convert_ifelse,
    convert_logical_and,
    convert_logical_not,
    convert_logical_or,
    convert_while,
)
from .lax_control import run_cond, run_switch, run_while

__all__ = [
    "ConversionError",
    "UndefinedVar",
    "convert_call",
    "convert_function",
    "convert_ifelse",
    "convert_logical_and",
    "convert_logical_not",
    "convert_logical_or",
    "convert_while",
    "converting",
    "run_cond",
    "run_switch",
    "run_while",
]
