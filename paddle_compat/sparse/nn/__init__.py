"""``paddle.sparse.nn``: activation layers over sparse Tensors' stored values."""

from __future__ import annotations

from ...nn import Layer
from . import functional


class ReLU(Layer):
    """``sparse.nn.functional.relu`` as a Layer."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return functional.relu(x)


class ReLU6(Layer):
    """``sparse.nn.functional.relu6`` as a Layer."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return functional.relu6(x)


class LeakyReLU(Layer):
    """``sparse.nn.functional.leaky_relu`` as a Layer."""

    def __init__(self, negative_slope: float = 0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x):
        return functional.leaky_relu(x, self._negative_slope)


class Softmax(Layer):
    """``sparse.nn.functional.softmax`` as a Layer."""

    def __init__(self, axis: int = -1, name=None):
        super().__init__()
        self._axis = axis

    def forward(self, x):
        return functional.softmax(x, self._axis)


__all__ = ["LeakyReLU", "ReLU", "ReLU6", "Softmax", "functional"]
