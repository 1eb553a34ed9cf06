"""paddle.nn.quant.quantized_linear: weight-only and LLM.int8 quantized matmuls."""

from quant import (
    apply_per_channel_scale,
    llm_int8_linear,
    weight_dequantize,
    weight_only_linear,
    weight_quantize,
)

__all__ = [
    "apply_per_channel_scale",
    "llm_int8_linear",
    "weight_dequantize",
    "weight_only_linear",
    "weight_quantize",
]
