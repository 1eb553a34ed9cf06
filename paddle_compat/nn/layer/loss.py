"""``paddle.nn.layer.loss``: the names Paddle's module holds, from ``paddle.nn``."""

from .._paths import alias_module

__getattr__, __dir__ = alias_module(__name__, "paddle_compat.nn")
