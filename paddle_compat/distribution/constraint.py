"""``paddle.distribution.constraint``: the conditions a random variable's values satisfy (the
real line, the positive half-line, an interval, the simplex), each a callable giving a boolean
Tensor."""

from __future__ import annotations

import paddle_compat as paddle

from .._core.tensor import Tensor

__all__ = ["Constraint", "Positive", "Range", "Real", "Simplex", "positive", "real", "simplex"]


class Constraint:
    """A condition on values of a random variable: ``constraint(value)`` is a boolean Tensor."""

    def __call__(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def check(self, value: Tensor) -> Tensor:
        """Where ``value`` meets the condition."""
        return self(value)


class Real(Constraint):
    """Any real number (NaN is not)."""

    def __call__(self, value: Tensor) -> Tensor:
        return value == value


class Range(Constraint):
    """The closed interval ``[lower, upper]``."""

    def __init__(self, lower: float | Tensor, upper: float | Tensor) -> None:
        self._lower = lower
        self._upper = upper
        super().__init__()

    def __call__(self, value: Tensor) -> Tensor:
        return paddle.logical_and(value >= self._lower, value <= self._upper)


class Positive(Constraint):
    """Values ``>= 0``."""

    def __call__(self, value: Tensor) -> Tensor:
        return value >= 0.0


class Simplex(Constraint):
    """Vectors on the last axis with nonnegative entries summing to one."""

    def __call__(self, value: Tensor) -> Tensor:
        nonnegative = paddle.all(value >= 0, axis=-1)
        sums_to_one = (value.sum(-1) - 1).abs() < 1e-6
        return paddle.logical_and(nonnegative, sums_to_one)


real = Real()
positive = Positive()
simplex = Simplex()
