"""``paddle.nn.utils.clip_grad_value_``: the module Paddle keeps the function in."""

from ._clip_grad import clip_grad_value_  # noqa: F401

__all__ = ["clip_grad_value_"]
