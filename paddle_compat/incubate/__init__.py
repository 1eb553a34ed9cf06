"""``paddle.incubate``: only ``incubate.nn.FusedLinear`` so far (model code names it, e.g.
PaddleClas's Swin Transformer); the rest of Paddle's incubate APIs are missing (porting guide)."""

from . import nn

__all__ = ["nn"]
