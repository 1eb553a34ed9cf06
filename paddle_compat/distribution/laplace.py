"""``paddle.distribution.Laplace``: the Laplace (double exponential) distribution."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Laplace"]


def _real_or_tensor(v, what: str) -> Tensor:
    """A real number as a 0-D Tensor of the default dtype, a Tensor as is."""
    if not isinstance(v, numbers.Real | Tensor):
        raise TypeError(f"Expected type of {what} is Real|Variable, but got {type(v)}")
    return paddle.full(shape=(), fill_value=v) if isinstance(v, numbers.Real) else v


class Laplace(Distribution):
    """The Laplace distribution with density ``exp(-|x - loc| / scale) / (2 scale)``."""

    def __init__(self, loc: float | Tensor, scale: float | Tensor) -> None:
        loc = _real_or_tensor(loc, "loc")
        scale = _real_or_tensor(scale, "scale")
        if (len(scale.shape) > 0 or len(loc.shape) > 0) and loc.dtype == scale.dtype:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        super().__init__(self.loc.shape)

    @property
    def mean(self) -> Tensor:
        """The mean: ``loc``."""
        return self.loc

    @property
    def stddev(self) -> Tensor:
        """The standard deviation ``sqrt(2) * scale``."""
        return (2**0.5) * self.scale

    @property
    def variance(self) -> Tensor:
        """The variance ``2 * scale ** 2``."""
        return self.stddev.pow(2)

    def _validate_value(self, value: float | Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """``(loc, scale, value)`` with ``value`` as a Tensor of scale's dtype, all broadcast."""
        if isinstance(value, numbers.Real):
            value = paddle.full(shape=(), fill_value=value)
        if value.dtype != self.scale.dtype:
            value = paddle.cast(value, self.scale.dtype)
        if len(self.scale.shape) > 0 or len(self.loc.shape) > 0 or len(value.shape) > 0:
            return tuple(paddle.broadcast_tensors([self.loc, self.scale, value]))
        return self.loc, self.scale, value

    def log_prob(self, value: float | Tensor) -> Tensor:
        """Log density of ``value``."""
        loc, scale, value = self._validate_value(value)
        return -paddle.log(2 * scale) - paddle.abs(value - loc) / scale

    def entropy(self) -> Tensor:
        """Differential entropy ``1 + log(2 scale)``."""
        return 1 + paddle.log(2 * self.scale)

    def cdf(self, value: float | Tensor) -> Tensor:
        """Cumulative distribution function at ``value``."""
        loc, scale, value = self._validate_value(value)
        d = value - loc
        return 0.5 - 0.5 * d.sign() * paddle.expm1(-d.abs() / scale)

    def icdf(self, value: float | Tensor) -> Tensor:
        """Inverse cumulative distribution function (quantile) at ``value``."""
        loc, scale, value = self._validate_value(value)
        term = value - 0.5
        return loc - scale * term.sign() * paddle.log1p(-2 * term.abs())

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (no gradient)."""
        shape = shape if isinstance(shape, tuple) else tuple(shape)
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterized samples by inverting the cdf at uniforms in (-1, 1)."""
        eps = self._get_eps()
        u = paddle.uniform(
            shape=self._extend_shape(shape),
            min=float(np.nextafter(-1, 1)) + eps / 2,
            max=1.0 - eps / 2,
            dtype=self.loc.dtype,
        )
        return self.loc - self.scale * u.sign() * paddle.log1p(-u.abs())

    def _get_eps(self) -> float:
        """Paddle's float epsilon of the parameters' dtype (rounded as Paddle writes it)."""
        if self.loc.dtype in (paddle.float64, paddle.complex128):
            return 2.22045e-16
        return 1.19209e-07

    def kl_divergence(self, other: Laplace) -> Tensor:
        """KL(self || other) in closed form."""
        var_ratio = other.scale / self.scale
        t = paddle.abs(self.loc - other.loc)
        term1 = (self.scale * paddle.exp(-t / self.scale) + t) / other.scale
        return term1 + paddle.log(var_ratio) - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Laplace, q: Laplace) -> Tensor:
    return p.kl_divergence(q)
