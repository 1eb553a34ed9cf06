"""The op table: one ``Row`` per sample of a public op, as plain data (numpy only, no paddle).

The same rows run under real Paddle 3.3.1 (``tools/record_op_goldens.py`` writes
``tests/goldens/op_table/<category>.json``) and under paddle_compat (``tests/test_op_table.py``).
A category is a module of this package with a ``ROWS`` list; ``SKIPS`` (in ``skips.py``) names
the public ops that have no row, each with the reason.

Inputs: every numpy array in ``args``/``kwargs`` (also inside lists/tuples) becomes a Tensor;
float arrays require grad when the row checks gradients. Everything else is passed as is.

Adding an op: append rows to its category (or a generator call such as ``unary("sin")``), then
``/work/paddle-venv/bin/python tools/record_op_goldens.py <category>``. The recorder lists rows
where real Paddle raises: either fix the row or set ``paddle_error`` to why Paddle rejects it
(the test then wants the same exception type). Where we differ from Paddle, mark the failing
check in ``xfail`` with the reason; never widen ``tol`` to hide a difference.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

import numpy as np

CATEGORIES = (
    "math",
    "reduction",
    "manipulation",
    "creation",
    "linalg",
    "search",
    "nn",
    "fft",
    "geometric",
)
DEFAULT_TOL = (1e-5, 1e-6)

# checks a row may mark as known failures (xfail) with a reason
CHECKS = ("value", "grad", "jax_grad", "method", "inplace", "static", "bad", "surface")


@dataclass
class Row:
    op: str  # registry name
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    tag: str = ""  # tells samples of one op apart in the id
    api: str | None = None  # public path under paddle (default: the op name), e.g. "linalg.det"
    grad: bool = True  # check gradients (when some input and output are float)
    tol: tuple = DEFAULT_TOL  # (rtol, atol) for values and gradients
    bad: tuple = ()  # ((args, kwargs), ...): each must raise Paddle's exception type
    xfail: dict = field(default_factory=dict)  # {check: reason}: our op is known to differ
    paddle_error: str = ""  # reason: Paddle 3.3.1 itself raises on this row (golden = error)
    full: bool | None = None  # also check to_static, jax.grad, in-place (default: op's 1st row)
    method: bool = True  # Tensor.<op> == paddle.<op> where the method exists
    inplace: bool = True  # paddle.<op>_ / Tensor.<op>_ == functional where they exist
    id: str = ""  # filled in by ``load``

    @property
    def path(self) -> str:
        return self.api or self.op


def load(category: str) -> list[Row]:
    """The rows of one category, with unique ids (``op``, ``op[tag]``, ``op[tag]#2``...)."""
    rows = importlib.import_module(f"{__name__}.{category}").ROWS
    seen: dict[str, int] = {}
    full_done: set[str] = set()
    for r in rows:
        base = f"{r.op}[{r.tag}]" if r.tag else r.op
        n = seen[base] = seen.get(base, 0) + 1
        r.id = base if n == 1 else f"{base}#{n}"
        if r.full is None:  # compiles are the cost: the expensive checks run once per op
            r.full = r.op not in full_done and not r.paddle_error
        if r.full:
            full_done.add(r.op)
    return rows


def all_rows() -> dict[str, list[Row]]:
    return {c: load(c) for c in CATEGORIES}


# -- input generators (seeded numpy; tiny shapes keep compiles cheap) --------------------------


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def rand(*shape, dtype="float32", seed=0, low=-2.0, high=2.0):
    """Uniform floats in [low, high), or ints in [low, high) for integer dtypes."""
    r = rng(seed)
    if np.dtype(dtype).kind in "iu":
        return r.integers(int(low), int(high), size=shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return np.asarray(r.random(shape) < 0.5)
    if np.dtype(dtype).kind == "c":
        return (r.uniform(low, high, shape) + 1j * r.uniform(low, high, shape)).astype(dtype)
    return r.uniform(low, high, shape).astype(dtype)


def pos(*shape, dtype="float32", seed=0, low=0.1, high=2.0):
    return rand(*shape, dtype=dtype, seed=seed, low=low, high=high)


def unit(*shape, dtype="float32", seed=0):
    """Inside (-1, 1): domains of asin, atanh, erfinv..."""
    return rand(*shape, dtype=dtype, seed=seed, low=-0.9, high=0.9)


def ints(*shape, dtype="int64", seed=0, low=-5, high=6):
    return rand(*shape, dtype=dtype, seed=seed, low=low, high=high)


def bools(*shape, seed=0):
    return rand(*shape, dtype="bool", seed=seed)


def empty(*shape, dtype="float32"):
    return np.zeros(shape, dtype=dtype)


FLOATS = ("float32", "float64")
INTS = ("int32", "int64")
