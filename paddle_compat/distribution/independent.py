"""``paddle.distribution.Independent``: a distribution whose rightmost batch axes are read as
event axes (``log_prob`` and ``entropy`` sum over them)."""

from __future__ import annotations

from collections.abc import Sequence

from .._core.tensor import Tensor
from .distribution import Distribution

__all__ = ["Independent"]


def _sum_rightmost(value: Tensor, n: int) -> Tensor:
    return value.sum(list(range(-n, 0))) if n > 0 else value


class Independent(Distribution):
    """Reinterprets the ``reinterpreted_batch_rank`` rightmost batch axes of ``base`` as event
    axes."""

    def __init__(self, base: Distribution, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}")
        rank = len(base.batch_shape)
        if not 0 < reinterpreted_batch_rank <= rank:
            raise ValueError(
                f"Expected 0 < reinterpreted_batch_rank <= {rank}, "
                f"but got {reinterpreted_batch_rank}"
            )
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        split = rank - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:split], event_shape=shape[split:])

    @property
    def mean(self) -> Tensor:
        return self._base.mean

    @property
    def variance(self) -> Tensor:
        return self._base.variance

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """The base distribution's samples."""
        return self._base.sample(shape)

    def log_prob(self, value: Tensor) -> Tensor:
        """The base ``log_prob`` summed over the reinterpreted axes."""
        return _sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value: Tensor) -> Tensor:
        return self.log_prob(value).exp()

    def entropy(self) -> Tensor:
        """The base entropy summed over the reinterpreted axes."""
        return _sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)

    def _sum_rightmost(self, value: Tensor, n: int) -> Tensor:
        return _sum_rightmost(value, n)
