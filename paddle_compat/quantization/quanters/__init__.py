"""paddle.quantization.quanters: quanters for quantization-aware training."""

from . import abs_max  # noqa: F401
from .abs_max import FakeQuanterWithAbsMaxObserver

__all__ = ["FakeQuanterWithAbsMaxObserver"]
