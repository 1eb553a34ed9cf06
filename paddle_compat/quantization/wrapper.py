"""paddle.quantization.wrapper."""

from quant import ObserveWrapper

__all__ = ["ObserveWrapper"]
