"""``paddle.distribution.variable``: the kind of random variable a transform maps from or to
(discrete or not, how many rightmost axes form one event, which constraint its values meet)."""

from __future__ import annotations

from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from . import constraint as _constraint

__all__ = ["Independent", "Positive", "Real", "Stack", "Variable", "positive", "real"]


class Variable:
    """A random variable: ``is_discrete``, ``event_rank`` and an optional constraint."""

    def __init__(
        self,
        is_discrete: bool = False,
        event_rank: int = 0,
        constraint: _constraint.Constraint | None = None,
    ) -> None:
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self) -> bool:
        return self._is_discrete

    @property
    def event_rank(self) -> int:
        return self._event_rank

    def constraint(self, value: Tensor) -> Tensor:
        """Where ``value`` meets this variable's constraint."""
        if self._constraint is None:
            raise NotImplementedError("this variable has no constraint")
        return self._constraint.check(value)


class Real(Variable):
    """A continuous real variable with ``event_rank`` event axes."""

    def __init__(self, event_rank: int = 0) -> None:
        super().__init__(False, event_rank, _constraint.real)


class Positive(Variable):
    """A continuous nonnegative variable with ``event_rank`` event axes."""

    def __init__(self, event_rank: int = 0) -> None:
        super().__init__(False, event_rank, _constraint.positive)


class Independent(Variable):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes read as event axes."""

    def __init__(self, base: Variable, reinterpreted_batch_rank: int) -> None:
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__(base.is_discrete, base.event_rank + reinterpreted_batch_rank)

    def constraint(self, value: Tensor) -> Tensor:
        """The base constraint, all-reduced over the reinterpreted axes."""
        met = self._base.constraint(value)
        n = self._reinterpreted_batch_rank
        if met.dim() < n:
            raise ValueError(f"Input dimensions must be equal or greater than {n}")
        if n == 0:
            return met
        return met.reshape([*met.shape[: met.dim() - n], -1]).all(-1)


class Stack(Variable):
    """Variables stacked along ``axis``: each slice along it follows its own variable."""

    def __init__(self, vars: Sequence[Variable], axis: int = 0) -> None:
        self._vars = vars
        self._axis = axis

    @property
    def is_discrete(self) -> bool:
        return any(v.is_discrete for v in self._vars)

    @property
    def event_rank(self) -> int:
        rank = max(v.event_rank for v in self._vars)
        # a negative axis that reaches past the events adds the stacked axis to them
        return rank + 1 if self._axis + rank < 0 else rank

    def constraint(self, value: Tensor) -> Tensor:
        """Each slice along ``axis`` checked by its own variable, stacked back."""
        if not -value.dim() <= self._axis < value.dim():
            raise ValueError(
                f"Input dimensions {value.dim()} should be greater than stack constraint "
                f"axis {self._axis}."
            )
        parts = paddle.unstack(value, self._axis)
        return paddle.stack(
            [v.constraint(p) for v, p in zip(self._vars, parts, strict=False)], self._axis
        )


real = Real()
positive = Positive()
