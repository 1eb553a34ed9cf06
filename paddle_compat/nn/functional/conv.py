"""``paddle.nn.functional.conv``: the names Paddle's module holds, from ``paddle.nn.functional``."""

from .._paths import alias_module

__getattr__, __dir__ = alias_module(__name__, "paddle_compat.nn.functional")
