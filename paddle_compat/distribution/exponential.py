"""``paddle.distribution.Exponential``: the exponential distribution of rate ``rate``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .exponential_family import ExponentialFamily
from .kl import register_kl
from .normal import _dtype_str

__all__ = ["Exponential"]


class Exponential(ExponentialFamily):
    """The exponential distribution with density ``rate * exp(-rate * x)`` on ``x >= 0``."""

    def __init__(self, rate: float | Tensor) -> None:
        if self._validate_args(rate):
            self.rate = rate
            self.dtype = _dtype_str(rate)
        else:
            [self.rate] = self._to_tensor(rate)
            self.dtype = paddle.get_default_dtype()
        super().__init__(self.rate.shape)

    @property
    def mean(self) -> Tensor:
        """The mean ``1 / rate``."""
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        """The variance ``rate ** -2``."""
        return self.rate.pow(-2)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (no gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterized samples ``-log(u) / rate`` of uniforms ``u`` in (0, 1)."""
        u = paddle.uniform(
            shape=self._extend_shape(shape),
            min=float(np.finfo(np.float32).tiny),
            max=1.0,
            dtype=self.rate.dtype,
        )
        return -paddle.log(u) / self.rate

    def prob(self, value: float | Tensor) -> Tensor:
        """Density ``rate * exp(-rate * value)``."""
        return self.rate * paddle.exp(-self.rate * value)

    def log_prob(self, value: float | Tensor) -> Tensor:
        """Log density ``log(rate) - rate * value``."""
        return paddle.log(self.rate) - self.rate * value

    def entropy(self) -> Tensor:
        """Differential entropy ``1 - log(rate)``."""
        return 1.0 - paddle.log(self.rate)

    def cdf(self, value: float | Tensor) -> Tensor:
        """Cumulative distribution function ``1 - exp(-rate * value)``."""
        return 1.0 - paddle.exp(-self.rate * value)

    def icdf(self, value: float | Tensor) -> Tensor:
        """Quantile ``-log1p(-value) / rate``."""
        return -paddle.log1p(-value) / self.rate

    def kl_divergence(self, other: Exponential) -> Tensor:
        """KL(self || other) in closed form."""
        if not isinstance(other, Exponential):
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        rate_ratio = other.rate / self.rate
        return -paddle.log(rate_ratio) + rate_ratio - 1

    @property
    def _natural_parameters(self) -> tuple[Tensor]:
        return (-self.rate,)

    def _log_normalizer(self, x: Tensor) -> Tensor:
        return -paddle.log(-x)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Exponential, q: Exponential) -> Tensor:
    return p.kl_divergence(q)
