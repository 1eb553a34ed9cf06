"""paddle.quantization.base_observer."""

from quant import BaseObserver

__all__ = ["BaseObserver"]
