"""``paddle.distribution.Gumbel``: the Gumbel (type-I extreme value) distribution with location
``loc`` and scale ``scale``; samples are ``loc - scale * log(-log(u))`` for ``u`` from a
Uniform on ``(tiny, 1 - eps)``, as Paddle draws them."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .transform import AffineTransform, ExpTransform
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

__all__ = ["Gumbel"]

_F32 = np.finfo(np.float32)


def _as_tensor(value, name: str) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, numbers.Real):
        return paddle.full(shape=(), fill_value=value)
    raise TypeError(f"Expected type of {name} is Real|Variable|Value, but got {type(value)}")


class Gumbel(TransformedDistribution):
    """The Gumbel distribution: density ``exp(-z - exp(-z)) / scale`` with
    ``z = (x - loc) / scale``."""

    def __init__(self, loc: float | Tensor, scale: float | Tensor) -> None:
        loc, scale = _as_tensor(loc, "loc"), _as_tensor(scale, "scale")
        if loc.shape != scale.shape:
            loc, scale = paddle.broadcast_tensors([loc, scale])
        self.loc, self.scale = loc, scale
        self.base_dist = Uniform(
            paddle.full_like(loc, float(_F32.tiny)), paddle.full_like(loc, float(1 - _F32.eps))
        )
        self.transforms = ()
        super().__init__(self.base_dist, self.transforms)

    @property
    def mean(self) -> Tensor:
        """``loc + scale * euler_gamma``."""
        return self.loc + self.scale * np.euler_gamma

    @property
    def variance(self) -> Tensor:
        """``scale^2 * pi^2 / 6``."""
        pi2 = paddle.full(
            shape=self.loc.shape, fill_value=math.pi * math.pi, dtype=self.scale.dtype
        )
        return paddle.pow(self.scale, 2) * pi2 / 6

    @property
    def stddev(self) -> Tensor:
        """``sqrt(variance)``."""
        return paddle.sqrt(self.variance)

    def prob(self, value: Tensor) -> Tensor:
        """The density at ``value`` (in ``loc``'s dtype)."""
        y = (self.loc - value.astype(self.loc.dtype)) / self.scale.astype(self.loc.dtype)
        return paddle.exp(y - paddle.exp(y)) / self.scale.astype(y.dtype)

    def log_prob(self, value: Tensor) -> Tensor:
        """``log(prob(value))``."""
        return paddle.log(self.prob(value))

    def cdf(self, value: Tensor) -> Tensor:
        """``exp(-exp(-(value - loc) / scale))`` (in ``value``'s dtype)."""
        z = -(value - self.loc.astype(value.dtype)) / self.scale.astype(value.dtype)
        return paddle.exp(-paddle.exp(z))

    def entropy(self) -> Tensor:
        """``log(scale) + 1 + euler_gamma``."""
        return paddle.log(self.scale) + 1 + np.euler_gamma

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (no gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterized samples: ``loc - scale * log(-log(u))``, differentiable in ``loc``
        and ``scale``."""
        exp = ExpTransform()
        negate = AffineTransform(
            paddle.full(shape=self.scale.shape, fill_value=0, dtype=self.loc.dtype),
            -paddle.ones_like(self.scale),
        )
        to_gumbel = AffineTransform(self.loc, -self.scale)
        u = self._base.sample(shape)
        return to_gumbel.forward(exp.inverse(negate.forward(exp.inverse(u))))
