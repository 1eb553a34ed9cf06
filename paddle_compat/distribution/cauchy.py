"""``paddle.distribution.Cauchy``: the Cauchy (Lorentz) distribution."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Cauchy"]


def _check_value(value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"Expected type of value is Variable or Value, but got {type(value)}")


class Cauchy(Distribution):
    """The Cauchy distribution with density ``1 / (pi scale (1 + ((x - loc) / scale)**2))``;
    it has no mean, variance or standard deviation (those properties raise ValueError)."""

    def __init__(self, loc: float | Tensor, scale: float | Tensor, name: str | None = None) -> None:
        self.name = name if name is not None else "Cauchy"
        for v, what in ((loc, "loc"), (scale, "scale")):
            if not isinstance(v, numbers.Real | Tensor):
                raise TypeError(
                    f"Expected type of {what} is Real|Variable|Value, but got {type(v)}"
                )
        if isinstance(loc, numbers.Real):
            loc = paddle.full(shape=(), fill_value=loc)
        if isinstance(scale, numbers.Real):
            scale = paddle.full(shape=(), fill_value=scale)
        if loc.shape != scale.shape:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        self.dtype = self.loc.dtype
        super().__init__(batch_shape=self.loc.shape, event_shape=())

    @property
    def mean(self):
        raise ValueError("Cauchy distribution has no mean.")

    @property
    def variance(self):
        raise ValueError("Cauchy distribution has no variance.")

    @property
    def stddev(self):
        raise ValueError("Cauchy distribution has no stddev.")

    def sample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (no gradient)."""
        with paddle.no_grad():
            return self.rsample(shape, name)

    def rsample(self, shape: Sequence[int] = (), name: str | None = None) -> Tensor:
        """Reparameterized samples ``loc + scale * tan(pi (u - 0.5))`` of uniforms ``u``."""
        if not isinstance(shape, np.ndarray | Tensor | list | tuple):
            raise TypeError(f"Expected type of shape is Sequence[int], but got {type(shape)}")
        shape = self._extend_shape(shape if isinstance(shape, tuple) else tuple(shape))
        loc = self.loc.expand(shape)
        scale = self.scale.expand(shape)
        u = paddle.rand(shape, dtype=self.dtype)
        return loc + scale * paddle.tan(np.pi * (u - 0.5))

    def prob(self, value: Tensor) -> Tensor:
        """Density of ``value`` (a Tensor)."""
        _check_value(value)
        return self.log_prob(value).exp()

    def log_prob(self, value: Tensor) -> Tensor:
        """Log density of ``value`` (a Tensor)."""
        _check_value(value)
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = paddle.broadcast_tensors([self.loc, self.scale, value])
        log_norm = paddle.full(loc.shape, np.log(np.pi), dtype=self.dtype) + scale.log()
        return -(paddle.square((value - loc) / scale)).log1p() - log_norm

    def cdf(self, value: Tensor) -> Tensor:
        """Cumulative distribution function ``atan((value - loc) / scale) / pi + 0.5``."""
        _check_value(value)
        value = self._check_values_dtype_in_probs(self.loc, value)
        loc, scale, value = paddle.broadcast_tensors([self.loc, self.scale, value])
        return paddle.atan((value - loc) / scale) / np.pi + 0.5

    def entropy(self) -> Tensor:
        """Differential entropy ``log(4 pi scale)``."""
        return paddle.full(self.loc.shape, np.log(4 * np.pi), dtype=self.dtype) + self.scale.log()

    def kl_divergence(self, other: Cauchy) -> Tensor:
        """KL(self || other) in closed form."""
        if not isinstance(other, Cauchy):
            raise TypeError(f"Expected type of other is Cauchy, but got {type(other)}")
        t1 = (paddle.pow(self.scale + other.scale, 2) + paddle.pow(self.loc - other.loc, 2)).log()
        t2 = (4 * (self.scale * other.scale)).log()
        return t1 - t2


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p: Cauchy, q: Cauchy) -> Tensor:
    return p.kl_divergence(q)
