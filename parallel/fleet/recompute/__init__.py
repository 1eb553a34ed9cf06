"""``paddle.distributed.fleet.recompute``: activation recomputation."""

from __future__ import annotations

from ..._recompute import recompute, recompute_hybrid, recompute_sequential

__all__ = ["recompute", "recompute_hybrid", "recompute_sequential"]
