"""paddle.quantization.quanters.abs_max."""

from quant import FakeQuanterWithAbsMaxObserver, FakeQuanterWithAbsMaxObserverLayer

__all__ = ["FakeQuanterWithAbsMaxObserver", "FakeQuanterWithAbsMaxObserverLayer"]
