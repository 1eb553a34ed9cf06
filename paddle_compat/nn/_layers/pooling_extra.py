"""Fractional max pooling layers over paddle.nn.functional.fractional_max_pool2d/3d."""

from __future__ import annotations

from .. import functional as F
from .._layer import Layer

__all__ = ["FractionalMaxPool2D", "FractionalMaxPool3D"]


class _FractionalMaxPool(Layer):
    _fn = ""

    def __init__(
        self,
        output_size,
        kernel_size=None,
        random_u: float | None = None,
        return_mask: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self._output_size, self._kernel_size = output_size, kernel_size
        self._random_u, self._return_mask, self._name = random_u, return_mask, name

    def forward(self, x):
        return getattr(F, self._fn)(
            x,
            output_size=self._output_size,
            kernel_size=self._kernel_size,
            random_u=self._random_u,
            return_mask=self._return_mask,
        )

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class FractionalMaxPool2D(_FractionalMaxPool):
    """2-D fractional max pooling (see ``paddle.nn.functional.fractional_max_pool2d``); with
    ``random_u=None`` every call draws a new u."""

    _fn = "fractional_max_pool2d"


class FractionalMaxPool3D(_FractionalMaxPool):
    """3-D fractional max pooling (see ``paddle.nn.functional.fractional_max_pool3d``)."""

    _fn = "fractional_max_pool3d"
