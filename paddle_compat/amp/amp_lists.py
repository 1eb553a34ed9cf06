"""Paddle's AMP op lists (``paddle.amp.white_list()`` / ``black_list()``), by Paddle's op names,
read from each registered op's ``op(amp=...)``: ``{dtype: {level: set of names}}``."""

from __future__ import annotations

import functools

from .._core.amp_state import amp_names
from .._core.registry import REGISTRY

__all__ = ["black_list", "white_list"]


def _names(*categories: str) -> frozenset:
    return _names_at(len(REGISTRY), categories)  # ops register as their modules import


@functools.lru_cache(maxsize=16)
def _names_at(n_ops: int, categories: tuple) -> frozenset:
    return frozenset(
        name for op, od in REGISTRY.items() if od.amp in categories for name in amp_names(op)
    )


def white_list() -> dict[str, dict[str, set[str]]]:
    """Ops that run in float16/bfloat16 at every level."""
    w = _names("white")
    return {d: {lvl: set(w) for lvl in ("OD", "O1", "O2")} for d in ("float16", "bfloat16")}


def black_list() -> dict[str, dict[str, set[str]]]:
    """Ops kept in float32: the whole black list at O1, only the extra one (interpolation,
    embedding, scatter) at O2, none at OD (where everything off the white list is float32)."""
    o1, o2 = _names("black", "black_always"), _names("black_always")
    return {d: {"OD": set(), "O1": set(o1), "O2": set(o2)} for d in ("float16", "bfloat16")}
