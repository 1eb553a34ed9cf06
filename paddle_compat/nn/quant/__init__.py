"""paddle.nn.quant: weight-only int8/int4 and LLM.int8 matmuls, quantized layer wrappers,
stubs and functional layers (re-exported from the ``quant`` package)."""

from quant import (
    FloatFunctionalLayer,
    Stub,
    add,
    apply_per_channel_scale,
    concat,
    divide,
    flatten,
    llm_int8_linear,
    matmul,
    multiply,
    reshape,
    subtract,
    transpose,
    weight_dequantize,
    weight_only_linear,
    weight_quantize,
)

from . import format, functional_layers, qat, quantized_linear, stub  # noqa: A004,F401

__all__ = [
    "Stub",
    "FloatFunctionalLayer",
    "add",
    "subtract",
    "multiply",
    "divide",
    "reshape",
    "transpose",
    "concat",
    "flatten",
    "matmul",
    "weight_quantize",
    "weight_dequantize",
    "weight_only_linear",
    "llm_int8_linear",
    "apply_per_channel_scale",
]
