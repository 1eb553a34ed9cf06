"""``@inplace_signature(stub)``: an op whose Paddle in-place variant takes other parameters
than the op itself (``cumprod_(x, dim, dtype, name)`` takes ``dtype`` by position where
``cumprod`` has it keyword-only; ``bitwise_left_shift_`` keeps an ``out`` that it ignores).
Placed under ``@op``; ``_methods.make_inplace`` binds calls to the stub's signature."""

from __future__ import annotations

import inspect
from collections.abc import Callable


def inplace_signature(stub: Callable):
    """Mark the op function: its in-place variant has ``stub``'s signature. The stub's
    ``name`` and ``out`` parameters are accepted and ignored, as Paddle's are."""

    def mark(fn: Callable) -> Callable:
        fn.__inplace_signature__ = inspect.signature(stub)
        return fn

    return mark
