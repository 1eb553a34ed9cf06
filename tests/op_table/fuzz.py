"""Fuzz cases over the op table: each row's inputs mutated the ways careless code does it
(0-d and empty tensors, another dtype, another rank, an axis out of range, indices out of
range). Plain numpy and seeded, so real Paddle (``tools/fuzz_ops.py record``) and paddle_compat
(``tests/test_fuzz_ops.py``, ``tools/fuzz_ops.py run``) see the same cases.

A case is a ``Row`` whose id is ``<category>::<row id>~<mutation>``; its expected outcome is what Paddle
did: a value, or an exception type.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from . import CATEGORIES, Row, load

MUTATIONS = ("0d", "empty", "dtype", "rank", "axis", "index")
_DTYPES = ("float64", "float16", "int32", "int64", "bool")
_AXIS_KEYS = ("axis", "dim")


def _arrays(row: Row) -> list[int]:
    return [i for i, a in enumerate(row.args) if isinstance(a, np.ndarray)]


def _with_arg(row: Row, i: int, value, tag: str) -> Row:
    args = list(row.args)
    args[i] = value
    return dataclasses.replace(row, args=tuple(args), bad=(), xfail={}, id=f"{row.id}~{tag}")


def mutate(row: Row, mutation: str, rng: np.random.Generator) -> Row | None:
    """``row`` with one mutation applied, or None when it does not apply."""
    arrays = _arrays(row)
    if mutation in ("0d", "empty", "dtype", "rank"):
        if not arrays:
            return None
        i = arrays[0]
        a = row.args[i]
        if mutation == "0d":
            if a.ndim == 0 or a.size == 0:
                return None
            return _with_arg(row, i, np.asarray(a.reshape(-1)[0]), "0d")
        if mutation == "empty":
            if a.ndim == 0:
                return None
            return _with_arg(row, i, np.zeros((0,) + a.shape[1:], a.dtype), "empty")
        if mutation == "dtype":
            dt = _DTYPES[int(rng.integers(len(_DTYPES)))]
            if a.dtype == np.dtype(dt) or a.dtype.kind == "c":
                return None
            with np.errstate(invalid="ignore", over="ignore"):  # nan/inf -> int is the point
                b = a.astype(dt)
            return _with_arg(row, i, b, f"dtype-{dt}")
        return _with_arg(row, i, a[None], "rank")  # one more leading axis
    if mutation == "axis":
        for k in _AXIS_KEYS:
            v = row.kwargs.get(k)
            if isinstance(v, int) and not isinstance(v, bool) and arrays:
                nd = row.args[arrays[0]].ndim
                bad = nd if rng.integers(2) else -nd - 1
                kw = {**row.kwargs, k: bad}
                return dataclasses.replace(
                    row, kwargs=kw, bad=(), xfail={}, id=f"{row.id}~axis{bad}"
                )
        return None
    if mutation == "index":  # an int array after the first argument gets out-of-range values
        for i in arrays[1:]:
            a = row.args[i]
            if a.dtype.kind in "iu" and a.size:
                limit = max(int(np.abs(a).max()) + 1, 1) * 4
                b = a.copy()
                b.reshape(-1)[int(rng.integers(b.size))] = limit if rng.integers(2) else -limit
                return _with_arg(row, i, b, "index")
        return None
    raise ValueError(f"unknown mutation {mutation!r}")


def cases(seed: int = 0, limit: int | None = None, every: int = 1) -> list[Row]:
    """Every applicable mutation of every row (every ``every``-th one), deterministic."""
    out: list[Row] = []
    n = 0
    for cat in CATEGORIES:
        for row in load(cat):
            if row.paddle_error:
                continue
            for j, m in enumerate(MUTATIONS):
                rng = np.random.default_rng([seed, n, j])
                case = mutate(row, m, rng)
                if case is None:
                    continue
                case.id = f"{cat}::{case.id}"
                n += 1
                if n % every == 0:
                    out.append(case)
                if limit is not None and len(out) >= limit:
                    return out
    return out
