"""``paddle.nn.parameter``: the Parameter class (Paddle's ``EagerParamBase``)."""

from .._core.tensor import Parameter

EagerParamBase = Parameter

__all__ = ["EagerParamBase", "Parameter"]
