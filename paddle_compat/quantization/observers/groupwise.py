"""paddle.quantization.observers.groupwise."""

from quant import GroupWiseWeightObserver, GroupWiseWeightObserverLayer

__all__ = ["GroupWiseWeightObserver", "GroupWiseWeightObserverLayer"]
