"""``paddle.incubate.nn``: ``FusedLinear`` (the other fused layers are missing)."""

from ._fused_linear import FusedLinear

__all__ = ["FusedLinear"]
