"""paddle.quantization.observers.abs_max."""

from quant import AbsmaxObserver, AbsmaxObserverLayer

__all__ = ["AbsmaxObserver", "AbsmaxObserverLayer"]
