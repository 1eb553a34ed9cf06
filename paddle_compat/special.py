"""``paddle.special``: Paddle 3.3's torch-style module of three functions: ``expm1`` and
``logsumexp`` are paddle's ops, ``softmax`` is ``paddle.compat``'s (``dim``, not ``axis``)."""

from __future__ import annotations

from ._ops._methods import namespace as _namespace
from .compat.nn.functional import softmax

expm1 = _namespace("paddle")["expm1"]
logsumexp = _namespace("paddle")["logsumexp"]

__all__ = ["expm1", "logsumexp", "softmax"]
