"""``paddle.base.dygraph``: ``guard`` and the dynamic-mode switches (dynamic mode is the only
mode here)."""

from ..._core.autograd import grad  # noqa: F401
from . import base, tracer  # noqa: F401
from .base import disable_dygraph, enable_dygraph, enabled, guard, no_grad  # noqa: F401

Tracer = tracer.Tracer
no_grad_ = no_grad  # Paddle's decorator spelling (no_grad decorates functions too)

__all__ = ["guard", "no_grad", "enabled", "enable_dygraph", "disable_dygraph"]
