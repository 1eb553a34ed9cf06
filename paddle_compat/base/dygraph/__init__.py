"""``paddle.base.dygraph``: ``guard`` and the dynamic-mode switches (dynamic mode is the only
mode here)."""

from . import base  # noqa: F401
from .base import disable_dygraph, enable_dygraph, enabled, guard, no_grad  # noqa: F401

__all__ = ["guard", "no_grad", "enabled", "enable_dygraph", "disable_dygraph"]
