"""paddle.nn.quant.functional_layers."""

from quant import (
    FloatFunctionalLayer,
    add,
    concat,
    divide,
    flatten,
    matmul,
    multiply,
    reshape,
    subtract,
    transpose,
)

__all__ = [
    "FloatFunctionalLayer",
    "add",
    "concat",
    "divide",
    "flatten",
    "matmul",
    "multiply",
    "reshape",
    "subtract",
    "transpose",
]
