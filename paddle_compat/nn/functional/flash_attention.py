"""paddle.nn.functional.flash_attention: a module in Paddle (``F.flash_attention`` is this
module, ``F.flash_attention.flash_attention`` the function); generated from the op registry
(namespace "paddle.nn.functional.flash_attention"), implemented in ``_attention.py``."""

from ..._ops._methods import namespace as _namespace  # noqa: E402
from ..attention.sdpa import sdp_kernel  # noqa: F401
from . import _attention  # noqa: F401  (registers the ops)

globals().update(_namespace("paddle.nn.functional.flash_attention"))
