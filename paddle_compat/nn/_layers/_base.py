"""Shared helpers for the concrete layers (not a public module)."""

from __future__ import annotations

from ..._core import dtype as _dt


def default_dtype_name() -> str:
    return _dt.default_float().name


def dtype_name(dtype) -> str:
    return default_dtype_name() if dtype is None else _dt.to_dtype(dtype).name


def ntuple(v, n: int) -> list[int]:
    """int or sequence -> list of n ints (Paddle's convert_to_list)."""
    if isinstance(v, int):
        return [v] * n
    v = [int(i) for i in v]
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise ValueError(f"The size should be an int or a list of {n} ints, got {v}")
    return v


def name_suffix(name) -> str:
    return f", name={name}" if name else ""
