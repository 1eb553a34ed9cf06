"""``paddle.distributed.fleet.utils``: ``recompute``."""

from __future__ import annotations

from ..._recompute import recompute

__all__ = ["recompute"]
