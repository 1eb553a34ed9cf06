"""``paddle.distribution.Gamma``: the gamma distribution of shape ``concentration`` and rate
``rate``."""

from __future__ import annotations

from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .exponential_family import ExponentialFamily
from .kl import register_kl
from .normal import _dtype_str

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """The gamma distribution with density
    ``rate**c x**(c - 1) exp(-rate x) / Gamma(c)`` (``c`` the concentration)."""

    def __init__(self, concentration: float | Tensor, rate: float | Tensor) -> None:
        if self._validate_args(concentration, rate):
            self.concentration, self.rate = concentration, rate
            self.dtype = _dtype_str(concentration)
        else:
            self.concentration, self.rate = self._to_tensor(concentration, rate)
            self.dtype = paddle.get_default_dtype()
        super().__init__(self.concentration.shape)

    @property
    def mean(self) -> Tensor:
        """The mean ``concentration / rate``."""
        return self.concentration / self.rate

    @property
    def variance(self) -> Tensor:
        """The variance ``concentration / rate ** 2``."""
        return self.concentration / self.rate.pow(2)

    def prob(self, value: float | Tensor) -> Tensor:
        """Density of ``value``."""
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value: float | Tensor) -> Tensor:
        """Log density of ``value``."""
        c, r = self.concentration, self.rate
        return c * paddle.log(r) + (c - 1) * paddle.log(value) - r * value - paddle.lgamma(c)

    def entropy(self) -> Tensor:
        """Differential entropy ``c - log(rate) + lgamma(c) + (1 - c) digamma(c)``."""
        c = self.concentration
        return c - paddle.log(self.rate) + paddle.lgamma(c) + (1.0 - c) * paddle.digamma(c)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (no gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """``standard_gamma(concentration) / rate`` of shape ``shape + batch_shape``; as in
        Paddle the gradient reaches ``rate`` only (standard_gamma has none)."""
        shape = self._extend_shape(shape)
        return paddle.standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)

    def kl_divergence(self, other: Gamma) -> Tensor:
        """KL(self || other) in closed form."""
        if not isinstance(other, Gamma):
            # Paddle's message names Exponential
            raise TypeError(f"Expected type of other is Exponential, but got {type(other)}")
        t1 = other.concentration * paddle.log(self.rate / other.rate)
        t2 = paddle.lgamma(other.concentration) - paddle.lgamma(self.concentration)
        t3 = (self.concentration - other.concentration) * paddle.digamma(self.concentration)
        t4 = (other.rate - self.rate) * (self.concentration / self.rate)
        return t1 + t2 + t3 + t4

    def _natural_parameters(self) -> tuple[Tensor, Tensor]:
        # a method, not a property, as in Paddle
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        return paddle.lgamma(x + 1) + (x + 1) * paddle.log(-y.reciprocal())


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p: Gamma, q: Gamma) -> Tensor:
    return p.kl_divergence(q)
