"""paddle.static: InputSpec and ``amp.fp16_guard`` (the legacy static-graph API is not
provided)."""

from . import amp
from ._input_spec import InputSpec

__all__ = ["InputSpec", "amp"]
