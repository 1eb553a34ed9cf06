"""paddle.quantization.base_quanter."""

from quant import BaseQuanter

__all__ = ["BaseQuanter"]
