"""paddle.nn.quant.qat: quantized wrappers of Linear and Conv2D."""

from quant import QuantedConv2D, QuantedLinear

__all__ = ["QuantedConv2D", "QuantedLinear"]
