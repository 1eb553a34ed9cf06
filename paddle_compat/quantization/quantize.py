"""paddle.quantization.quantize."""

from quant import Quantization

__all__ = ["Quantization"]
