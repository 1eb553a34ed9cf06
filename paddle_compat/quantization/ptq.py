"""paddle.quantization.ptq."""

from quant import PTQ

__all__ = ["PTQ"]
