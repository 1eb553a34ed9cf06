"""paddle.quantization.observers: observers for post-training quantization."""

from . import abs_max, groupwise  # noqa: F401
from .abs_max import AbsmaxObserver
from .groupwise import GroupWiseWeightObserver

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]
