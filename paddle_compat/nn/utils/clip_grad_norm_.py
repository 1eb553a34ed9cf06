"""``paddle.nn.utils.clip_grad_norm_``: the module Paddle keeps the function in."""

from ._clip_grad import clip_grad_norm_  # noqa: F401

__all__ = ["clip_grad_norm_"]
