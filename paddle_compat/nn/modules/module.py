"""``paddle.nn.modules.module``: ``Module`` is ``paddle.nn.Layer``."""

from .._layer import Layer

Module = Layer

__all__ = ["Layer", "Module"]
