"""paddle.quantization.qat."""

from quant import QAT

__all__ = ["QAT"]
