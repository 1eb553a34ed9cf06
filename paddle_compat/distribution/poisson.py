"""``paddle.distribution.Poisson``: the count of events at mean rate ``rate``."""

from __future__ import annotations

from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Poisson"]


class Poisson(Distribution):
    """Poisson distribution. A number ``rate`` becomes a 1-element Tensor of the default
    dtype; ``dtype`` is the rate's dtype name."""

    def __init__(self, rate: float | Tensor) -> None:
        self.dtype = paddle.get_default_dtype()
        self.rate = self._to_tensor(rate)
        super().__init__(self.rate.shape)

    def _to_tensor(self, rate: float | Tensor) -> Tensor:
        if isinstance(rate, float | int):
            return paddle.to_tensor([rate], dtype=self.dtype)
        self.dtype = str(rate.dtype).replace("paddle.", "")
        return rate

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (Paddle's CPU ``poisson`` numbers after
        ``paddle.seed``)."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        out_shape = tuple(shape) + tuple(self.batch_shape)
        rate = paddle.broadcast_to(self.rate, shape=out_shape)
        with paddle.no_grad():
            return paddle.poisson(rate)

    def entropy(self) -> Tensor:
        """``-sum p(x) log p(x)`` over a bounded support (30 standard deviations above the
        largest rate); 0 where the rate is 0."""
        values = self._enumerate_bounded_support(self.rate)
        values = values.reshape((-1,) + (1,) * len(self.batch_shape))
        log_prob = self.log_prob(values)
        proposed = -(paddle.exp(log_prob) * log_prob).sum(0)
        zero = paddle.to_tensor(0.0, dtype=self.dtype)
        mask = paddle.cast(paddle.not_equal(self.rate, zero), dtype=self.dtype)
        return paddle.multiply(proposed, mask)

    def _enumerate_bounded_support(self, rate: float | Tensor) -> Tensor:
        """``[0, ..., upper)`` with ``upper = max(rate + 30 * sqrt(max(rate)))`` (sqrt taken
        as 1 below a rate of 1). The length depends on the values: eager only."""
        top = paddle.max(rate)
        if paddle.greater_equal(top, paddle.to_tensor(1.0, dtype=self.dtype)):
            s_max = paddle.sqrt(top)
        else:
            s_max = paddle.ones_like(rate, dtype=self.dtype)
        upper = paddle.max(paddle.cast(rate + 30 * s_max, dtype="int32"))
        return paddle.arange(0, upper, dtype=self.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        """``-rate + value log(rate) - lgamma(value + 1)``, ``-inf`` replaced by ``-eps``."""
        value = paddle.cast(value, dtype=self.dtype)
        eps = paddle.finfo(self.rate.dtype).eps
        out = -self.rate + value * paddle.log(self.rate) - paddle.lgamma(value + 1)
        return paddle.nan_to_num(out, neginf=-eps)

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def kl_divergence(self, other: Poisson) -> Tensor:
        """KL(self || other) summed over a support bounded by both rates."""
        if self.batch_shape != other.batch_shape:
            raise ValueError(
                "KL divergence of two poisson distributions should share the same `batch_shape`."
            )
        rate_max = paddle.max(paddle.maximum(self.rate, other.rate))
        a_max = paddle.max(self._enumerate_bounded_support(rate_max))
        support = paddle.arange(0, a_max, dtype=self.dtype)
        support = support.reshape((-1,) + (1,) * len(self.batch_shape))
        log_p = self.log_prob(support)
        log_q = other.log_prob(support)
        return (paddle.exp(log_p) * (log_p - log_q)).sum(0)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p: Poisson, q: Poisson) -> Tensor:
    return p.kl_divergence(q)
