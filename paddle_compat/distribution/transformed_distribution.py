"""``paddle.distribution.TransformedDistribution``: a base distribution pushed through a
sequence of transforms (samples are transformed, densities change by the log-det-Jacobians)."""

from __future__ import annotations

from collections.abc import Sequence

from .._core.tensor import Tensor
from .distribution import Distribution
from .independent import Independent
from .transform import ChainTransform, Transform

__all__ = ["TransformedDistribution"]


def _sum_rightmost(value: Tensor, n: int) -> Tensor:
    return value.sum(list(range(-n, 0))) if n > 0 else value


class TransformedDistribution(Distribution):
    """The distribution of ``transforms[-1](...transforms[0](x))`` for ``x`` drawn from
    ``base``."""

    def __init__(self, base: Distribution, transforms: Sequence[Transform]) -> None:
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}.")
        if not isinstance(transforms, Sequence):
            raise TypeError(
                "Expected type of 'transforms' is Sequence[Transform] or Chain, "
                f"but got {type(transforms)}."
            )
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All element of transforms must be Transform type.")
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = ChainTransform(transforms)
        in_rank = chain._domain.event_rank
        base_shape = tuple(base.batch_shape) + tuple(base.event_shape)
        if len(base_shape) < in_rank:
            raise ValueError(
                f"'base' needs to have shape with size at least {in_rank}, "
                f"but got {len(base_shape)}."
            )
        if in_rank > len(base.event_shape):  # the chain needs more event axes than base has
            base = Independent(base, in_rank - len(base.event_shape))
        shape = tuple(chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape)))
        event_rank = chain._codomain.event_rank + max(len(base.event_shape) - in_rank, 0)
        split = len(shape) - event_rank
        super().__init__(shape[:split], shape[split:])

    def _push(self, x: Tensor) -> Tensor:
        for t in self._transforms:
            x = t.forward(x)
        return x

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """The base distribution's samples, transformed."""
        return self._push(self._base.sample(shape))

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """The base distribution's reparameterized samples, transformed."""
        return self._push(self._base.rsample(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        """The base ``log_prob`` of the inverted ``value`` minus each transform's forward
        log-det-Jacobian, each summed over the event axes it does not cover."""
        # Paddle computes ((0 - j1) - j2 ...) + base; base - (j1 + j2 ...) rounds identically
        # (negation is exact) with one op less per transform
        log_det = None
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            term = _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            log_det = term if log_det is None else log_det + term
            y = x
        base = _sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))
        return base if log_det is None else base - log_det
