"""``paddle.distribution.LogNormal``: ``exp(X)`` for ``X ~ Normal(loc, scale)``, a
TransformedDistribution of a Normal through ``ExpTransform``; KL(LogNormal || LogNormal) is its
Normals' KL."""

from __future__ import annotations

import paddle_compat as paddle

from .._core.tensor import Tensor
from .kl import register_kl
from .normal import Normal
from .transform import ExpTransform
from .transformed_distribution import TransformedDistribution

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    """The log-normal distribution whose underlying Normal has mean ``loc`` and standard
    deviation ``scale``."""

    def __init__(self, loc, scale) -> None:
        self._base = Normal(loc=loc, scale=scale)
        self.loc = self._base.loc
        self.scale = self._base.scale
        super().__init__(self._base, [ExpTransform()])

    @property
    def mean(self) -> Tensor:
        """``exp(mu + sigma^2 / 2)``."""
        return paddle.exp(self._base.mean + self._base.variance / 2)

    @property
    def variance(self) -> Tensor:
        """``expm1(sigma^2) * exp(2 mu + sigma^2)``."""
        var = self._base.variance
        return paddle.expm1(var) * paddle.exp(2 * self._base.mean + var)

    def entropy(self) -> Tensor:
        """The underlying Normal's entropy plus ``mu`` (nats)."""
        return self._base.entropy() + self._base.mean

    def probs(self, value: Tensor) -> Tensor:
        """The density at ``value``."""
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other: LogNormal) -> Tensor:
        """KL(self || other), equal to the KL of the underlying Normals."""
        return self._base.kl_divergence(other._base)


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p: LogNormal, q: LogNormal) -> Tensor:
    return p._base.kl_divergence(q._base)
