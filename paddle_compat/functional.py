"""``paddle.functional``: Paddle 3.3's module of a few tensor functions; ``split`` is the
PyTorch-style one of ``paddle.compat``, the others are ``paddle``'s own."""

from __future__ import annotations

from ._api_extra import broadcast_shapes
from ._ops._methods import namespace as _namespace
from .compat import split

_paddle = _namespace("paddle")
atleast_1d = _paddle["atleast_1d"]
atleast_2d = _paddle["atleast_2d"]
atleast_3d = _paddle["atleast_3d"]
einsum = _paddle["einsum"]
meshgrid = _paddle["meshgrid"]
norm = _paddle["norm"]
unique_consecutive = _paddle["unique_consecutive"]
del _paddle


__all__ = [
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "broadcast_shapes",
    "einsum",
    "meshgrid",
    "norm",
    "split",
    "unique_consecutive",
]
