"""paddle.static: InputSpec (the legacy static-graph API is not provided)."""

from ._input_spec import InputSpec

__all__ = ["InputSpec"]
