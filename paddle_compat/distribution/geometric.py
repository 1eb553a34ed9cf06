"""``paddle.distribution.Geometric``: the number of failures before the first success of
independent trials with success probability ``probs`` (support 0, 1, 2, ...).

As in Paddle 3.3.1, ``probs`` is not range-checked, ``variance`` carries no gradient (Paddle
copies it through ``to_tensor``), and ``log_prob``/``prob`` are not defined (use
``log_pmf``/``pmf``)."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Geometric"]

_TINY32 = float(np.finfo(np.float32).tiny)


def _check_k(k) -> None:
    """``k`` must be a Python integer or a Tensor (Paddle refuses floats and numpy scalars)."""
    if not isinstance(k, int | Tensor) or isinstance(k, np.generic):
        raise TypeError(f"Expected type of k is int or Tensor, but got {type(k)}")


class Geometric(Distribution):
    """Geometric distribution with success probabilities ``probs`` (a real number or a
    Tensor)."""

    def __init__(self, probs: float | Tensor) -> None:
        if isinstance(probs, numbers.Real) and not isinstance(probs, Tensor):
            probs = paddle.full(shape=(), fill_value=probs, dtype=paddle.float32)
        elif not isinstance(probs, Tensor):
            raise TypeError(
                f"Expected type of probs is a real number or Tensor, but got {type(probs)}"
            )
        self.probs = probs
        super().__init__(tuple(probs.shape))

    @property
    def mean(self) -> Tensor:
        """``1 / p - 1``."""
        return 1.0 / self.probs - 1.0

    @property
    def variance(self) -> Tensor:
        """``(1 / p - 1) / p`` (no gradient, as in Paddle)."""
        return paddle.to_tensor((1.0 / self.probs - 1.0) / self.probs, dtype=self.probs.dtype)

    @property
    def stddev(self) -> Tensor:
        """``sqrt(variance)``."""
        return paddle.sqrt(self.variance)

    def pmf(self, k: int | Tensor) -> Tensor:
        """``P(X = k) = (1 - p)**k * p``."""
        _check_k(k)
        return paddle.pow(1.0 - self.probs, k) * self.probs

    def log_pmf(self, k: int | Tensor) -> Tensor:
        """``log(pmf(k))``."""
        _check_k(k)
        return paddle.log(self.pmf(k))

    def sample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """Samples of shape ``shape + batch_shape`` (``rsample`` without gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """``floor(log(u) / log1p(-p))`` with ``u`` from ``paddle.uniform`` on
        ``[tiny, 1)``."""
        shape = self._extend_shape(shape)
        u = paddle.uniform(shape=shape, min=_TINY32, max=1.0, dtype=self.probs.dtype)
        return paddle.floor(paddle.log(u) / paddle.log1p(-self.probs))

    def entropy(self) -> Tensor:
        """``-((1 - p) log(1 - p) + p log p) / p``."""
        p = self.probs
        return -((1.0 - p) * paddle.log(1.0 - p) + p * paddle.log(p)) / p

    def cdf(self, k: int | Tensor) -> Tensor:
        """``P(X <= k) = 1 - (1 - p)**(k + 1)``."""
        _check_k(k)
        return 1.0 - paddle.pow(1.0 - self.probs, k + 1)

    def kl_divergence(self, other: Geometric) -> Tensor:
        """KL(self || other) = ``p log(p / q) + (1 - p) log((1 - p) / (1 - q))``."""
        if not isinstance(other, Geometric):
            raise TypeError(f"Expected other to be a Geometric, but got {type(other)}")
        p, q = self.probs, other.probs
        return p * paddle.log(p / q) + (1.0 - p) * paddle.log((1.0 - p) / (1.0 - q))


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Geometric, q: Geometric) -> Tensor:
    return p.kl_divergence(q)
