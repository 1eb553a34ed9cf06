"""paddle.nn.quant's functional layers: tensor functions wrapped as Layers so a quantization
config can observe their inputs (``add``, ``matmul``, ``reshape``, ...)."""

from __future__ import annotations

from typing import Any

import paddle_compat as paddle
from paddle_compat.nn import Layer

__all__ = [
    "FloatFunctionalLayer",
    "add",
    "concat",
    "divide",
    "flatten",
    "matmul",
    "multiply",
    "reshape",
    "subtract",
    "transpose",
]


class FloatFunctionalLayer(Layer):
    """Base of the functional layers (floating-point computation, quantizable inputs)."""

    def __init__(self) -> None:
        super().__init__()

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


class add(FloatFunctionalLayer):  # noqa: N801 - Paddle's name
    """Layer form of ``paddle.add``."""

    def forward(self, x, y, name=None):
        return paddle.add(x, y)


class subtract(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.subtract``."""

    def forward(self, x, y, name=None):
        return paddle.subtract(x, y)


class multiply(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.multiply``."""

    def forward(self, x, y, name=None):
        return paddle.multiply(x, y)


class divide(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.divide``."""

    def forward(self, x, y, name=None):
        return paddle.divide(x, y)


class reshape(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.reshape``."""

    def forward(self, x, shape, name=None):
        return paddle.reshape(x, shape)


class transpose(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.transpose``."""

    def forward(self, x, perm, name=None):
        return paddle.transpose(x, perm)


class concat(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.concat``."""

    def forward(self, x, axis=0, name=None):
        return paddle.concat(x, axis)


class flatten(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.flatten``."""

    def forward(self, x, start_axis=0, stop_axis=-1, name=None):
        return paddle.flatten(x, start_axis, stop_axis)


class matmul(FloatFunctionalLayer):  # noqa: N801
    """Layer form of ``paddle.matmul``."""

    def forward(self, x, y, transpose_x=False, transpose_y=False, name=None):
        return paddle.matmul(x, y, transpose_x, transpose_y)
